// File: rffstream/csv_line_parser.h
//
// Turns one line of delimited numbers into a sample: the inputs and an
// optional target. The same parser serves files, pipes and sockets. It does
// not allocate: the caller owns the input buffer. Fields may be quoted
// ("1.5"); the delimiter kWhitespace splits on runs of blanks (the "dense"
// format); columns can be ignored.
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
  int num_inputs() const override { return num_fields_ - num_targets_ - num_ignored_; }

  // Parses `line` (a trailing '\r' is ignored) into `inputs`, the fields other
  // than the target in their order. Returns the target, or nullopt when the
  // target field is empty or there is no target column. Errors name the field (1-based) and the problem;
  // on error `inputs` holds garbage. REQUIRES: inputs.size() == num_inputs().
  [[nodiscard]] absl::StatusOr<std::optional<double>> Parse(std::string_view line,
                                                            std::span<double> inputs) const;

  // As Parse, for any number of target columns: fills `targets` and returns
  // true, or returns false when every target field is empty (predict only).
  // Some target fields empty and others not is an error.
  // REQUIRES: inputs.size() == num_inputs(), targets.size() == num_targets().
  [[nodiscard]] absl::StatusOr<bool> ParseTargets(std::string_view line, std::span<double> inputs,
                                                  std::span<double> targets) const override;

 private:
  static constexpr int kInput = -1;
  static constexpr int kIgnored = -2;

  int num_fields_;
  int num_targets_;
  int num_ignored_;
  // For each field: its target slot, kInput or kIgnored.
  std::vector<int> role_of_field_;
  char delimiter_;
};

// The fields of a header line, surrounding spaces, quotes and a trailing '\r'
// removed.
std::vector<std::string> SplitCsvHeader(std::string_view line, char delimiter = ',');

// The number of fields in a line.
int CountCsvFields(std::string_view line, char delimiter = ',');

}  // namespace rffstream

#endif  // RFFSTREAM_CSV_LINE_PARSER_H_
