// File: rffstream/classification_metrics.h
//
// Running progressive-validation metrics of a K-class classifier: accuracy and
// the confusion counts (true class × predicted class), in O(K²) memory.
//
//   rffstream::ClassificationMetrics metrics(/*num_classes=*/26);
//   metrics.Add(/*predicted=*/3, /*actual=*/3);
//   double accuracy = metrics.accuracy();
#ifndef RFFSTREAM_CLASSIFICATION_METRICS_H_
#define RFFSTREAM_CLASSIFICATION_METRICS_H_

#include <cstdint>
#include <vector>

namespace rffstream {

class ClassificationMetrics {
 public:
  explicit ClassificationMetrics(int num_classes)
      : num_classes_(num_classes),
        confusion_(static_cast<std::size_t>(num_classes) * num_classes, 0) {}

  // Metrics with these confusion counts (row-major, true class × predicted
  // class), as confusion_counts() returns them; the count and the number
  // correct follow from them. REQUIRES: counts.size() == num_classes², all >= 0.
  ClassificationMetrics(int num_classes, std::vector<std::int64_t> counts);

  // REQUIRES: 0 <= predicted, actual < num_classes().
  void Add(int predicted, int actual) {
    ++count_;
    if (predicted == actual) ++correct_;
    ++confusion_[static_cast<std::size_t>(actual) * num_classes_ + predicted];
  }

  int num_classes() const { return num_classes_; }
  std::int64_t count() const { return count_; }
  std::int64_t correct() const { return correct_; }
  // NaN before the first sample.
  double accuracy() const;
  // How often class `actual` was predicted as `predicted`.
  std::int64_t confusion(int actual, int predicted) const {
    return confusion_[static_cast<std::size_t>(actual) * num_classes_ + predicted];
  }
  const std::vector<std::int64_t>& confusion_counts() const { return confusion_; }

  // The `count` largest off-diagonal counts (mistakes), largest first (ties:
  // by true class, then predicted class); fewer when fewer are non-zero. For
  // summaries of many classes, whose whole matrix is too large to read.
  struct Confusion {
    int actual;
    int predicted;
    std::int64_t count;
  };
  std::vector<Confusion> WorstConfusions(int count) const;

 private:
  int num_classes_;
  std::int64_t count_ = 0;
  std::int64_t correct_ = 0;
  std::vector<std::int64_t> confusion_;
};

}  // namespace rffstream

#endif  // RFFSTREAM_CLASSIFICATION_METRICS_H_
