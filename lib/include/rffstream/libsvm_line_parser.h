// File: rffstream/libsvm_line_parser.h
//
// The libsvm / svmlight sparse format: "label idx:val idx:val ...", indices
// 1-based, in any order, absent ones zero. A line whose first token is already
// "idx:val" has no label (predict only).
//
//   rffstream::LibsvmLineParser parser(/*dimension=*/100);
//   std::vector<double> x(100);
//   double label;
//   absl::StatusOr<bool> labelled = parser.ParseTargets("1 3:0.5 17:2", x, {&label, 1});
#ifndef RFFSTREAM_LIBSVM_LINE_PARSER_H_
#define RFFSTREAM_LIBSVM_LINE_PARSER_H_

#include "rffstream/line_parser.h"

namespace rffstream {

// The largest feature index in a line (0 if none can be read), for inferring
// the dimension from a warm-up window.
int MaxLibsvmIndex(std::string_view line);

class LibsvmLineParser : public LineParser {
 public:
  // REQUIRES: dimension >= 1.
  explicit LibsvmLineParser(int dimension) : dimension_(dimension) {}

  int num_inputs() const override { return dimension_; }
  int num_targets() const override { return 1; }

  // Errors: an index beyond the dimension or below 1, a repeated index, a
  // token that is not "idx:val", a value that is not a finite number.
  [[nodiscard]] absl::StatusOr<bool> ParseTargets(std::string_view line, std::span<double> inputs,
                                                  std::span<double> targets) const override;

 private:
  int dimension_;
};

}  // namespace rffstream

#endif  // RFFSTREAM_LIBSVM_LINE_PARSER_H_
