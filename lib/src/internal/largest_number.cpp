#include "internal/largest_number.h"

#include <cmath>
#include <cstddef>

#include "absl/strings/str_cat.h"

namespace rffstream::internal {

std::string LargestNumber(const Task& task, std::span<const double> inputs,
                          std::span<const double> labels) {
  // The largest by magnitude, the inputs first: -1 while none is a number.
  double largest = -1.0;
  std::ptrdiff_t at = -1;
  const auto consider = [&](std::span<const double> values, std::ptrdiff_t first) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (std::abs(values[i]) > largest) {
        largest = std::abs(values[i]);
        at = first + static_cast<std::ptrdiff_t>(i);
      }
    }
  };
  consider(inputs, 0);
  consider(labels, static_cast<std::ptrdiff_t>(inputs.size()));
  if (at < 0) return "";
  const auto label = at - static_cast<std::ptrdiff_t>(inputs.size());
  if (label < 0) {
    return absl::StrCat("its largest number is in ", task.InputName(static_cast<int>(at)));
  }
  const bool named = task.format != InputFormat::kLibsvm &&
                     label < static_cast<std::ptrdiff_t>(task.target_columns.size());
  return absl::StrCat("its largest number is ",
                      named ? absl::StrCat("in ", task.ColumnName(task.target_columns[label]))
                            : "the label");
}

}  // namespace rffstream::internal
