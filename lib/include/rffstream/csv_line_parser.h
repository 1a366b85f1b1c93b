// File: rffstream/csv_line_parser.h
//
// Turns one line of delimited fields into a sample: the inputs and an
// optional target. The same parser serves files, pipes and sockets. It does
// not allocate: the caller owns the input buffer. Fields may be quoted
// ("1.5"); the delimiter kWhitespace splits on runs of blanks (the "dense"
// format); columns can be ignored.
//
// Missing values: an empty field or one of NA, N/A, NaN, null, None, ?
// (any case). A missing input becomes NaN, which the feature map reads as
// the input's mean; a missing target makes the line predict-only.
//
// Category (text) columns: a value of such a column is its own input
// direction, one-hot without a dictionary: the column takes
// `category_buckets` inputs, and a value sets the two buckets its 64-bit
// FNV-1a hash picks to 1/√2 each (so every value has unit length, two
// values sharing one bucket are still apart, and sharing both happens with
// probability 2/B² per pair). Unseen values need no new state. A missing
// category sets nothing (all zeros).
//
//   rffstream::CsvLineParser parser(/*num_fields=*/4, /*target_index=*/3);
//   std::vector<double> x(parser.num_inputs());
//   absl::StatusOr<std::optional<double>> target = parser.Parse("1,2,3,4.5", x);
//   // *target == 4.5; an empty target field gives std::nullopt (predict only).
#ifndef RFFSTREAM_CSV_LINE_PARSER_H_
#define RFFSTREAM_CSV_LINE_PARSER_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "rffstream/line_parser.h"

namespace rffstream {

class CsvLineParser : public LineParser {
 public:
  // The delimiter that means "one or more spaces or tabs".
  static constexpr char kWhitespace = ' ';

  // target_index for lines that hold inputs only.
  static constexpr int kNoTarget = -1;

  struct Columns {
    int num_fields = 0;
    std::vector<int> targets;      // in output order
    std::vector<int> ignored;
    std::vector<int> categorical;  // input columns read as text
    int category_buckets = 0;      // >= 2 when there are categorical columns
    // The columns' names for messages ("column 3 'city'"), or empty.
    std::vector<std::string> names;
  };

  // REQUIRES: distinct column indices in [0, num_fields), at least one input.
  explicit CsvLineParser(Columns columns, char delimiter = ',');

  // REQUIRES: num_fields >= 1; target_index == kNoTarget or, with
  // num_fields >= 2, 0 <= target_index < num_fields.
  CsvLineParser(int num_fields, int target_index, char delimiter = ',');

  // Several target columns (in the order given), the `ignored` columns
  // skipped, all other columns inputs. REQUIRES: distinct indices in
  // [0, num_fields), at least one input left.
  CsvLineParser(int num_fields, const std::vector<int>& target_indices, char delimiter = ',',
                const std::vector<int>& ignored = {});

  int num_fields() const { return num_fields_; }
  int num_targets() const override { return num_targets_; }
  int num_inputs() const override { return num_inputs_; }

  // Parses `line` (a trailing '\r' is ignored) into `inputs`, the fields other
  // than the target in their order. Returns the target, or nullopt when the
  // target field is missing or there is no target column. Errors name the
  // column (0-based, as Task counts) and the problem;
  // on error `inputs` holds garbage. REQUIRES: inputs.size() == num_inputs().
  [[nodiscard]] absl::StatusOr<std::optional<double>> Parse(std::string_view line,
                                                            std::span<double> inputs) const;

  // As Parse, for any number of target columns: fills `targets` and returns
  // true, or returns false when every target field is missing (predict
  // only). Some target fields missing and others not is an error.
  // REQUIRES: inputs.size() == num_inputs(), targets.size() == num_targets().
  [[nodiscard]] absl::StatusOr<bool> ParseTargets(std::string_view line, std::span<double> inputs,
                                                  std::span<double> targets) const override;

 private:
  struct Field {
    enum class Kind { kNumber, kCategory, kTarget, kIgnored };
    Kind kind = Kind::kNumber;
    int slot = 0;  // the (first) input, or the target
  };

  // Reads one field into its slots.
  absl::Status ReadField(int column, std::string_view field, std::span<double> inputs,
                         std::span<double> targets, int& missing_targets) const;
  std::string ColumnName(int column) const;

  int num_fields_;
  int num_targets_;
  int num_inputs_;
  int category_buckets_;
  std::vector<Field> fields_;
  std::vector<std::string> names_;
  char delimiter_;
};

// Whether a field's text (spaces and quotes removed) is a missing value.
bool IsMissingValue(std::string_view field);

// The fields of a header line, surrounding spaces, quotes and a trailing '\r'
// removed.
std::vector<std::string> SplitCsvHeader(std::string_view line, char delimiter = ',');

// The number of fields in a line.
int CountCsvFields(std::string_view line, char delimiter = ',');

}  // namespace rffstream

#endif  // RFFSTREAM_CSV_LINE_PARSER_H_
