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


// Splits `line` into fields, honouring double quotes (a quoted field may hold
// the delimiter) and, for kWhitespace, runs of blanks. Calls
// visit(field_index, field) for each; stops early when visit returns false.
template <class Visit>
void ForEachField(std::string_view line, char delimiter, Visit&& visit) {
  const bool whitespace = delimiter == CsvLineParser::kWhitespace;
  const auto is_delimiter = [&](char c) { return whitespace ? (c == ' ' || c == '\t') : c == delimiter; };
  size_t position = 0;
  if (whitespace) {
    while (position < line.size() && is_delimiter(line[position])) ++position;
    if (position == line.size()) return;
  }
  for (int index = 0;; ++index) {
    size_t end = position;
    // A quoted field runs to its closing quote.
    size_t scan = position;
    while (scan < line.size() && (line[scan] == ' ' || line[scan] == '\t') && !whitespace) ++scan;
    if (scan < line.size() && line[scan] == '"') {
      const size_t closing = line.find('"', scan + 1);
      end = closing == std::string_view::npos ? line.size() : closing + 1;
    }
    while (end < line.size() && !is_delimiter(line[end])) ++end;
    if (!visit(index, line.substr(position, end - position))) return;
    if (end >= line.size()) return;
    position = end + 1;
    if (whitespace) {
      while (position < line.size() && is_delimiter(line[position])) ++position;
      if (position == line.size()) return;
    }
  }
}

std::string_view Unquote(std::string_view field) {
  field = TrimSpaces(field);
  if (field.size() >= 2 && field.front() == '"' && field.back() == '"') {
    field = field.substr(1, field.size() - 2);
  }
  return field;
}

}  // namespace

CsvLineParser::CsvLineParser(int num_fields, int target_index, char delimiter)
    : CsvLineParser(num_fields,
                    target_index == kNoTarget ? std::vector<int>{} : std::vector<int>{target_index},
                    delimiter) {}

CsvLineParser::CsvLineParser(int num_fields, const std::vector<int>& target_indices,
                             char delimiter, const std::vector<int>& ignored)
    : num_fields_(num_fields),
      num_targets_(static_cast<int>(target_indices.size())),
      num_ignored_(static_cast<int>(ignored.size())),
      role_of_field_(num_fields, kInput),
      delimiter_(delimiter) {
  for (int slot = 0; slot < num_targets_; ++slot) {
    assert(target_indices[slot] >= 0 && target_indices[slot] < num_fields);
    role_of_field_[target_indices[slot]] = slot;
  }
  for (int column : ignored) {
    assert(column >= 0 && column < num_fields && role_of_field_[column] == kInput);
    role_of_field_[column] = kIgnored;
  }
  assert(num_inputs() >= 1);
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
  int fields = 0;
  int input_index = 0;
  int empty_targets = 0;
  absl::Status error;
  ForEachField(line, delimiter_, [&](int index, std::string_view field) {
    fields = index + 1;
    if (index >= num_fields_) return true;  // counted, reported below
    const int role = role_of_field_[index];
    if (role == kIgnored) return true;
    field = Unquote(field);
    if (role >= 0 && field.empty()) {
      ++empty_targets;
      return true;
    }
    absl::StatusOr<double> value = ParseNumber(field, index + 1);
    if (!value.ok()) {
      error = value.status();
      return false;
    }
    (role >= 0 ? targets[role] : inputs[input_index++]) = *value;
    return true;
  });
  if (!error.ok()) return error;
  if (fields != num_fields_) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected ", num_fields_, " fields, got ", fields));
  }
  if (empty_targets > 0 && empty_targets < num_targets_) {
    return absl::InvalidArgumentError(absl::StrCat(empty_targets, " of ", num_targets_,
                                                   " target fields are empty (all or none)"));
  }
  return num_targets_ > 0 && empty_targets == 0;
}

std::vector<std::string> SplitCsvHeader(std::string_view line, char delimiter) {
  std::vector<std::string> names;
  ForEachField(WithoutCarriageReturn(line), delimiter, [&](int, std::string_view field) {
    names.emplace_back(Unquote(field));
    return true;
  });
  return names;
}

int CountCsvFields(std::string_view line, char delimiter) {
  int count = 0;
  ForEachField(WithoutCarriageReturn(line), delimiter, [&](int index, std::string_view) {
    count = index + 1;
    return true;
  });
  return count;
}

}  // namespace rffstream
