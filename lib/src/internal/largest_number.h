// File: internal/largest_number.h
//
// Names the number that made a line too large to learn or answer, so that a
// refusal points at the column to look at, not only at the line.
#ifndef RFFSTREAM_INTERNAL_LARGEST_NUMBER_H_
#define RFFSTREAM_INTERNAL_LARGEST_NUMBER_H_

#include <span>
#include <string>

#include "rffstream/task.h"

namespace rffstream::internal {

// The number of largest magnitude among a line's `inputs` (the model's
// inputs, as `task` lays them out) and `labels` (its target columns, in the
// task's order), missing values (NaN) aside: "its largest number is in
// column 3 'p'" (not the value, so that a summary counts such lines by
// column). Empty when there is no such number.
std::string LargestNumber(const Task& task, std::span<const double> inputs,
                          std::span<const double> labels);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_LARGEST_NUMBER_H_
