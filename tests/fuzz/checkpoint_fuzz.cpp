// libFuzzer harness for checkpoint loading. Any bytes must load as a model
// or give an error, never a crash, an out-of-bounds access, undefined
// behaviour (ASan and UBSan watch) or an allocation the file cannot back. A
// model that loads must be usable: it predicts, learns and stays finite,
// its task's parser reads a line, and it saves and loads again (unless its
// arithmetic showed it unsound: then it refuses to be saved).
//
// The CRC-32C at the end would stop almost every mutation at the checksum;
// when the first byte is odd the harness rewrites it for the bytes after
// the first, so that the fuzzer explores the fields behind it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "internal/crc32c.h"
#include "rffstream/checkpoint.h"

namespace {

template <class Real>
void Exercise(const std::string& bytes) {
  std::istringstream in(bytes);
  absl::StatusOr<rffstream::BasicCheckpoint<Real>> loaded = rffstream::ReadCheckpoint<Real>(in, "fuzz");
  if (!loaded.ok()) return;
  rffstream::BasicLearner<Real>& learner = loaded->learner;
  const rffstream::Task& task = loaded->record.task;
  std::vector<double> inputs(static_cast<std::size_t>(task.num_inputs()));
  std::vector<double> labels(static_cast<std::size_t>(task.num_targets()));
  (void)task.MakeLineParser()->ParseTargets("1,2,3", inputs, labels);
  std::vector<double> x(static_cast<std::size_t>(learner.input_dimension()), 0.5);
  std::vector<Real> targets(static_cast<std::size_t>(learner.config().num_outputs), Real{1});
  std::vector<Real> priors(targets.size());
  // Finite weights may still give an overflowing prediction (the app makes
  // that line a bad line); learning keeps the model finite, so it saves.
  (void)learner.Predict(x);
  (void)learner.LearnOutputs(x, targets, priors);
  std::ostringstream out;
  // A model whose arithmetic lost its soundness is never saved; any other is.
  const bool sound = learner.CheckSound().ok();
  if (rffstream::WriteCheckpoint(out, learner, loaded->record).ok() != sound) __builtin_trap();
  if (!sound) return;
  std::istringstream again(out.str());
  if (!rffstream::ReadCheckpoint<Real>(again, "fuzz again").ok()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  if ((data[0] & 1) != 0 && bytes.size() >= 4) {
    const std::uint32_t checksum = rffstream::internal::ExtendCrc32c(
        0, std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(bytes.data()),
                                          bytes.size() - 4));
    std::memcpy(bytes.data() + bytes.size() - 4, &checksum, 4);
  }
  Exercise<float>(bytes);
  Exercise<double>(bytes);
  return 0;
}
