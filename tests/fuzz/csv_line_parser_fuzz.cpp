// libFuzzer harness for CsvLineParser: the first bytes choose the field
// count, the target column, the delimiter and an ignored column; the rest is
// the line. Any input must give a value or an error, never a crash, an
// out-of-bounds access or undefined behaviour (ASan and UBSan watch).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "rffstream/csv_line_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const int num_fields = 2 + data[0] % 8;
  const int target = data[1] % num_fields;
  static constexpr char kDelimiters[] = {',', ';', '\t', rffstream::CsvLineParser::kWhitespace};
  const char delimiter = kDelimiters[data[2] % 4];
  std::vector<int> ignored;
  if (num_fields > 2 && (data[2] & 0x10)) ignored.push_back((target + 1) % num_fields);
  const rffstream::CsvLineParser parser(num_fields, std::vector<int>{target}, delimiter, ignored);
  std::vector<double> inputs(parser.num_inputs());
  double label = 0;
  const std::string_view line(reinterpret_cast<const char*>(data + 3), size - 3);
  (void)parser.ParseTargets(line, inputs, {&label, 1});
  (void)rffstream::SplitCsvHeader(line, delimiter);
  (void)rffstream::CountCsvFields(line, delimiter);
  return 0;
}
