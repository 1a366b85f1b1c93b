// File: rffstream/stream/option_text.h
//
// The model options as text, the way the command line's flags and Python's
// keyword arguments spell them (--gamma=auto, --kernel=laplacian,
// --lengthscales=1,2.5): one parser and one printer for every edge, so that
// the same text means the same model everywhere and a message quotes a value
// the way the user would write it.
//
//   rffstream::ModelOptions options;
//   absl::Status status = rffstream::SetModelOption(options, "gamma", "0.5");
//   std::string text = rffstream::ModelOptionText(options, "gamma");  // "0.5"
#ifndef RFFSTREAM_STREAM_OPTION_TEXT_H_
#define RFFSTREAM_STREAM_OPTION_TEXT_H_

#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rffstream/stream/options.h"

namespace rffstream {

// The options SetModelOption and ModelOptionText know by name, those whose
// values are words or numbers with "auto": map, kernel, sampler,
// lengthscales, gamma, ridge, forget, precision, loss.
std::span<const std::string_view> TextModelOptions();

// Sets the option `name` from `text`. InvalidArgument naming the option and
// the text when the text is not one of its values; a number's range is
// checked where the model is built (ValidateModelOptions).
[[nodiscard]] absl::Status SetModelOption(ModelOptions& options, std::string_view name,
                                          std::string_view text);

// The option's value as SetModelOption reads it back ("auto" for an empty
// optional, numbers in their shortest exact form). REQUIRES: `name` is one
// of TextModelOptions().
std::string ModelOptionText(const ModelOptions& options, std::string_view name);

[[nodiscard]] absl::StatusOr<Precision> ParsePrecision(std::string_view text);
std::string_view PrecisionName(Precision precision);
// A number in its shortest form that reads back exactly.
std::string ShortestNumber(double value);

}  // namespace rffstream

#endif  // RFFSTREAM_STREAM_OPTION_TEXT_H_
