// libFuzzer harness for LibsvmLineParser: the first byte chooses the
// dimension, the rest is the line. Any input must give a value or an error,
// never a crash, an out-of-bounds access or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "rffstream/libsvm_line_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const int dimension = 1 + data[0] % 64;
  const rffstream::LibsvmLineParser parser(dimension);
  std::vector<double> inputs(dimension);
  double label = 0;
  (void)parser.ParseTargets(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1),
                            inputs, {&label, 1});
  return 0;
}
