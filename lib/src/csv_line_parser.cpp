#include "rffstream/csv_line_parser.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>

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

// Why a field is not a number: none (it is), or the words of the message.
enum class NumberProblem { kNone, kOutOfRange, kNotANumber, kInfinite };

// Parses `text` into `value`; allocates nothing, so that the message (which
// names the column) is built only for a bad field.
NumberProblem ParseNumber(std::string_view text, double& value) {
  // from_chars accepts no leading '+', which people do write.
  std::string_view digits = text;
  if (digits.size() > 1 && digits.front() == '+') digits.remove_prefix(1);
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error == std::errc::result_out_of_range) return NumberProblem::kOutOfRange;
  if (error != std::errc() || end != digits.data() + digits.size()) {
    return NumberProblem::kNotANumber;
  }
  return std::isfinite(value) ? NumberProblem::kNone : NumberProblem::kInfinite;
}

// 64-bit FNV-1a: the same buckets on every platform and in every run.
std::uint64_t HashOfText(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
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
    : CsvLineParser(Columns{num_fields, target_indices, ignored, {}, 0, {}}, delimiter) {}

CsvLineParser::CsvLineParser(Columns columns, char delimiter)
    : num_fields_(columns.num_fields),
      num_targets_(static_cast<int>(columns.targets.size())),
      num_inputs_(0),
      category_buckets_(columns.category_buckets),
      fields_(static_cast<std::size_t>(columns.num_fields)),
      names_(std::move(columns.names)),
      delimiter_(delimiter) {
  for (int slot = 0; slot < num_targets_; ++slot) {
    const int column = columns.targets[slot];
    assert(column >= 0 && column < num_fields_);
    fields_[column] = {Field::Kind::kTarget, slot};
  }
  for (int column : columns.ignored) {
    assert(column >= 0 && column < num_fields_ && fields_[column].kind == Field::Kind::kNumber);
    fields_[column].kind = Field::Kind::kIgnored;
  }
  for (int column : columns.categorical) {
    assert(column >= 0 && column < num_fields_ && fields_[column].kind == Field::Kind::kNumber);
    assert(category_buckets_ >= 2);
    fields_[column].kind = Field::Kind::kCategory;
  }
  for (Field& field : fields_) {
    if (field.kind == Field::Kind::kNumber) field.slot = num_inputs_++;
    if (field.kind == Field::Kind::kCategory) {
      field.slot = num_inputs_;
      num_inputs_ += category_buckets_;
    }
  }
  assert(names_.empty() || static_cast<int>(names_.size()) == num_fields_);
  assert(num_inputs_ >= 1);
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

std::string CsvLineParser::ColumnName(int column) const {
  if (names_.empty()) return absl::StrCat("column ", column);
  return absl::StrCat("column ", column, " ", Quote(names_[column]));
}

absl::Status CsvLineParser::ReadField(int column, std::string_view field,
                                      std::span<double> inputs, std::span<double> targets,
                                      int& missing_targets) const {
  const Field& role = fields_[column];
  const bool missing = IsMissingValue(field);
  switch (role.kind) {
    case Field::Kind::kIgnored:
      return absl::OkStatus();
    case Field::Kind::kCategory: {
      double* buckets = inputs.data() + role.slot;
      std::fill(buckets, buckets + category_buckets_, 0.0);
      if (missing) return absl::OkStatus();
      const std::uint64_t hash = HashOfText(field);
      const auto count = static_cast<std::uint64_t>(category_buckets_);
      const std::uint64_t first = hash % count;
      std::uint64_t second = (hash >> 32) % count;
      if (second == first) second = (first + 1) % count;
      buckets[first] = buckets[second] = std::sqrt(0.5);
      return absl::OkStatus();
    }
    case Field::Kind::kTarget:
    case Field::Kind::kNumber: {
      const bool target = role.kind == Field::Kind::kTarget;
      if (missing) {
        if (target) {
          ++missing_targets;
        } else {
          inputs[role.slot] = std::numeric_limits<double>::quiet_NaN();
        }
        return absl::OkStatus();
      }
      double value = 0.0;
      switch (ParseNumber(field, value)) {
        case NumberProblem::kNone:
          (target ? targets : inputs)[role.slot] = value;
          return absl::OkStatus();
        case NumberProblem::kOutOfRange:
          return absl::InvalidArgumentError(absl::StrCat(
              ColumnName(column), ": ", Quote(field), " is out of range for a double"));
        case NumberProblem::kInfinite:
          return absl::InvalidArgumentError(
              absl::StrCat(ColumnName(column), ": ", Quote(field), " is infinite"));
        case NumberProblem::kNotANumber:
          break;
      }
      return absl::InvalidArgumentError(
          absl::StrCat(ColumnName(column), ": ", Quote(field), " is not a number",
                       target ? "" : " (a text column? declare it categorical)"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> CsvLineParser::ParseTargets(std::string_view line, std::span<double> inputs,
                                                 std::span<double> targets) const {
  line = WithoutCarriageReturn(line);
  int fields = 0;
  int missing_targets = 0;
  absl::Status error;
  // Every field is counted, so that a line of the wrong width says so
  // before what its first bad field would, unless a quote left open took
  // the rest of the line: that is said instead. An opening quote with no
  // closing one in a number is an error; in an ignored or text column, only
  // when it swallowed fields.
  absl::Status open_quote;
  ForEachField(line, delimiter_, [&](int index, std::string_view field) {
    fields = index + 1;
    if (index >= num_fields_ || !error.ok()) return true;
    if (const std::string_view trimmed = TrimSpaces(field);
        !trimmed.empty() && trimmed.front() == '"' && trimmed.find('"', 1) == std::string_view::npos) {
      open_quote = absl::InvalidArgumentError(absl::StrCat(
          ColumnName(index), ": ", Quote(field), " opens a quote (\") that is not closed"));
      const Field::Kind kind = fields_[static_cast<std::size_t>(index)].kind;
      if (kind == Field::Kind::kNumber || kind == Field::Kind::kTarget) {
        error = open_quote;
        return true;
      }
    }
    error = ReadField(index, TrimSpaces(Unquote(field)), inputs, targets, missing_targets);
    return true;
  });
  if (fields != num_fields_) {
    return open_quote.ok() ? absl::InvalidArgumentError(absl::StrCat(
                                 "expected ", num_fields_, " fields, got ", fields))
                           : open_quote;
  }
  if (!error.ok()) return error;
  if (missing_targets > 0 && missing_targets < num_targets_) {
    return absl::InvalidArgumentError(absl::StrCat(
        missing_targets, " of ", num_targets_, " target fields are missing (all or none)"));
  }
  return num_targets_ > 0 && missing_targets == 0;
}

bool IsMissingValue(std::string_view field) {
  if (field.size() > 4) return false;
  char lower[4];
  for (std::size_t i = 0; i < field.size(); ++i) {
    lower[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(field[i])));
  }
  const std::string_view text(lower, field.size());
  for (std::string_view token : {"", "na", "n/a", "nan", "null", "none", "?"}) {
    if (text == token) return true;
  }
  return false;
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
