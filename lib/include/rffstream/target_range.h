// File: rffstream/target_range.h
//
// The range of the targets a model learned, and answers held near it. A
// kernel model of a small ridge and a wide kernel, asked about inputs far
// from any it learned (a sensor whose gain or offset changed), can answer
// thousands for targets near 15 before its errors teach it the new region.
// An answer is kept within the targets' range widened by half its width on
// each side, as Vowpal Wabbit keeps its answers within the labels it saw:
// wide enough for a stream that trends, and no answer beyond anything the
// stream has shown by more than half its spread.
//
//   rffstream::TargetRange range(1);
//   range.Add(targets);                 // after each learned line
//   range.Clip(answers);                // before an answer is given
//
// Until two different targets have been learned an output has no width and
// its answers are left as they are. A model whose targets are not known (a
// checkpoint older than the range, that had learned) has an unbounded range:
// its answers are left as they are, and so are those of a merge with it.
#ifndef RFFSTREAM_TARGET_RANGE_H_
#define RFFSTREAM_TARGET_RANGE_H_

#include <span>
#include <vector>

namespace rffstream {

class TargetRange {
 public:
  TargetRange() = default;
  explicit TargetRange(int num_outputs);

  // One learned line's targets, one per output (NaN ones are not counted).
  void Add(std::span<const double> targets);
  // Each answer into its output's widened range (where it has a width).
  void Clip(std::span<double> answers) const;
  // The union with another model's range of the same outputs (a merge).
  void Include(const TargetRange& other);

  // Unknown targets: bounds of ±the largest double (finite, so a checkpoint
  // keeps them), which every Add and Include keeps.
  static TargetRange Unbounded(int num_outputs);

  bool empty() const { return lows_.empty() || !(lows_[0] <= highs_[0]); }
  bool unbounded() const;
  int num_outputs() const { return static_cast<int>(lows_.size()); }
  // Per output; +infinity and -infinity while nothing was learned.
  const std::vector<double>& lows() const { return lows_; }
  const std::vector<double>& highs() const { return highs_; }
  // A range read back (a checkpoint): REQUIRES lows.size() == highs.size().
  static TargetRange FromBounds(std::vector<double> lows, std::vector<double> highs);

  bool operator==(const TargetRange&) const = default;

 private:
  std::vector<double> lows_;
  std::vector<double> highs_;
};

}  // namespace rffstream

#endif  // RFFSTREAM_TARGET_RANGE_H_
