#include "rffstream/csv_line_parser.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace rffstream {
namespace {

std::string_view TrimSpaces(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string_view WithoutCarriageReturn(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// Error messages quote at most this much of a bad field.
constexpr size_t kQuotedFieldLimit = 32;

std::string Quote(std::string_view field) {
  if (field.size() <= kQuotedFieldLimit) return absl::StrCat("'", std::string(field), "'");
  return absl::StrCat("'", std::string(field.substr(0, kQuotedFieldLimit)), "...'");
}

absl::StatusOr<double> ParseNumber(std::string_view field, int field_number) {
  std::string_view text = TrimSpaces(field);
  if (text.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("field ", field_number, " is empty"));
  }
  // from_chars accepts no leading '+', which people do write.
  std::string_view digits = text;
  if (digits.size() > 1 && digits.front() == '+') digits.remove_prefix(1);
  double value = 0.0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error == std::errc::result_out_of_range) {
    return absl::InvalidArgumentError(
        absl::StrCat("field ", field_number, ": ", Quote(text), " is out of range for a double"));
  }
  if (error != std::errc() || end != digits.data() + digits.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("field ", field_number, ": ", Quote(text), " is not a number"));
  }
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(
        absl::StrCat("field ", field_number, ": ", Quote(text), " is not finite (NaN/Inf)"));
  }
  return value;
}

}  // namespace

CsvLineParser::CsvLineParser(int num_fields, int target_index, char delimiter)
    : CsvLineParser(num_fields,
                    target_index == kNoTarget ? std::vector<int>{} : std::vector<int>{target_index},
                    delimiter) {}

CsvLineParser::CsvLineParser(int num_fields, const std::vector<int>& target_indices,
                             char delimiter)
    : num_fields_(num_fields),
      num_targets_(static_cast<int>(target_indices.size())),
      target_slot_of_field_(num_fields, -1),
      delimiter_(delimiter) {
  assert(num_fields >= 1 && num_targets_ < num_fields);
  for (int slot = 0; slot < num_targets_; ++slot) {
    assert(target_indices[slot] >= 0 && target_indices[slot] < num_fields);
    target_slot_of_field_[target_indices[slot]] = slot;
  }
}

absl::StatusOr<std::optional<double>> CsvLineParser::Parse(std::string_view line,
                                                           std::span<double> inputs) const {
  double target = 0;
  absl::StatusOr<bool> labelled =
      ParseTargets(line, inputs, std::span<double>(&target, num_targets_ > 0 ? 1 : 0));
  if (!labelled.ok()) return labelled.status();
  if (!*labelled) return std::nullopt;
  return target;
}

absl::StatusOr<bool> CsvLineParser::ParseTargets(std::string_view line, std::span<double> inputs,
                                                 std::span<double> targets) const {
  line = WithoutCarriageReturn(line);
  int field_index = 0;
  int input_index = 0;
  int empty_targets = 0;
  size_t start = 0;
  while (true) {
    const size_t end = std::min(line.find(delimiter_, start), line.size());
    if (field_index >= num_fields_) {
      return absl::InvalidArgumentError(absl::StrCat("expected ", num_fields_, " fields, got ",
                                                     CountCsvFields(line, delimiter_)));
    }
    const std::string_view field = line.substr(start, end - start);
    const int slot = target_slot_of_field_[field_index];
    if (slot >= 0 && TrimSpaces(field).empty()) {
      ++empty_targets;
    } else {
      absl::StatusOr<double> value = ParseNumber(field, field_index + 1);
      if (!value.ok()) return value.status();
      (slot >= 0 ? targets[slot] : inputs[input_index++]) = *value;
    }
    ++field_index;
    if (end == line.size()) break;
    start = end + 1;
  }
  if (field_index != num_fields_) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected ", num_fields_, " fields, got ", field_index));
  }
  if (empty_targets > 0 && empty_targets < num_targets_) {
    return absl::InvalidArgumentError(absl::StrCat(empty_targets, " of ", num_targets_,
                                                   " target fields are empty (all or none)"));
  }
  return num_targets_ > 0 && empty_targets == 0;
}

std::vector<std::string> SplitCsvHeader(std::string_view line, char delimiter) {
  line = WithoutCarriageReturn(line);
  std::vector<std::string> names;
  size_t start = 0;
  while (true) {
    const size_t end = std::min(line.find(delimiter, start), line.size());
    std::string_view name = TrimSpaces(line.substr(start, end - start));
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);
    }
    names.emplace_back(name);
    if (end == line.size()) break;
    start = end + 1;
  }
  return names;
}

int CountCsvFields(std::string_view line, char delimiter) {
  line = WithoutCarriageReturn(line);
  return 1 + static_cast<int>(std::count(line.begin(), line.end(), delimiter));
}

}  // namespace rffstream
