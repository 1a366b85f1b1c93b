#include "rffstream/stream/option_text.h"

#include <array>
#include <charconv>
#include <optional>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace rffstream {
namespace {

constexpr std::array<std::string_view, 9> kTextOptions = {
    "map", "kernel", "sampler", "lengthscales", "gamma", "ridge", "forget", "precision", "loss"};

// "auto" (an empty optional) or a number.
absl::StatusOr<std::optional<double>> AutoOrNumber(const std::string& name, const std::string& text,
                                                   const std::string& expected) {
  if (text == "auto") return std::optional<double>();
  double value = 0.0;
  if (!absl::SimpleAtod(text, &value)) {
    return absl::InvalidArgumentError(absl::StrCat("--", name, "=", text, ": expected ", expected));
  }
  return std::optional<double>(value);
}

absl::StatusOr<std::vector<double>> NumberList(const std::string& name, const std::string& text) {
  std::vector<double> values;
  if (text.empty()) return values;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    double value = 0;
    if (!absl::SimpleAtod(part, &value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, "=", text, ": '", part, "' is not a number"));
    }
    values.push_back(value);
  }
  return values;
}

std::string AutoOrNumberText(const std::optional<double>& value) {
  return value.has_value() ? ShortestNumber(*value) : std::string("auto");
}

// Stores a parsed value, or passes its error on.
template <class T, class Field>
absl::Status Assign(absl::StatusOr<T> parsed, Field& field) {
  if (!parsed.ok()) return parsed.status();
  field = *std::move(parsed);
  return absl::OkStatus();
}

}  // namespace

std::span<const std::string_view> TextModelOptions() { return kTextOptions; }

std::string ShortestNumber(double value) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof(text), value).ptr);
}

absl::StatusOr<Precision> ParsePrecision(std::string_view text) {
  if (text == "float64") return Precision::kFloat64;
  if (text == "float32") return Precision::kFloat32;
  return absl::InvalidArgumentError(
      absl::StrCat("--precision=", std::string(text), ": expected float32 or float64"));
}

std::string_view PrecisionName(Precision precision) {
  return precision == Precision::kFloat32 ? "float32" : "float64";
}

absl::Status SetModelOption(ModelOptions& options, std::string_view name,
                            std::string_view text_view) {
  const std::string text(text_view);  // absl's string functions take their own string_view
  if (name == "map") return Assign(ParseFeatureMapKind(text), options.map);
  if (name == "kernel") {
    if (text == "auto") {
      options.kernel.reset();
      return absl::OkStatus();
    }
    return Assign(ParseKernelKind(text), options.kernel);
  }
  if (name == "sampler") return Assign(ParseFrequencySampler(text), options.sampler);
  if (name == "lengthscales") return Assign(NumberList("lengthscales", text), options.lengthscales);
  if (name == "gamma") return Assign(AutoOrNumber("gamma", text, "a number or auto"), options.gamma);
  if (name == "ridge") return Assign(AutoOrNumber("ridge", text, "a number or auto"), options.ridge);
  if (name == "forget") {
    return Assign(AutoOrNumber("forget", text, "a number in (0, 1] or auto"), options.forget);
  }
  if (name == "precision") return Assign(ParsePrecision(text), options.precision);
  if (name == "loss") return Assign(ParseLoss(text), options.loss);
  return absl::InvalidArgumentError(absl::StrCat("unknown model option '", std::string(name), "'"));
}

std::string ModelOptionText(const ModelOptions& options, std::string_view name) {
  if (name == "map") return std::string(FeatureMapKindName(options.map));
  if (name == "kernel") {
    return options.kernel.has_value() ? std::string(KernelKindName(*options.kernel)) : "auto";
  }
  if (name == "sampler") return std::string(FrequencySamplerName(options.sampler));
  if (name == "lengthscales") {
    return absl::StrJoin(options.lengthscales, ",", [](std::string* out, double value) {
      out->append(ShortestNumber(value));
    });
  }
  if (name == "gamma") return AutoOrNumberText(options.gamma);
  if (name == "ridge") return AutoOrNumberText(options.ridge);
  if (name == "forget") return AutoOrNumberText(options.forget);
  if (name == "precision") return std::string(PrecisionName(options.precision));
  return std::string(LossName(options.loss));  // "loss"
}

}  // namespace rffstream
