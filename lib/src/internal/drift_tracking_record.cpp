// The drift tracking's state in a checkpoint (format 9 on): its change
// detectors, the lines a restart learns again and the lines since the
// restart, checked alike when written and when read.
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "internal/checkpoint_record.h"

namespace rffstream::internal {
namespace {

constexpr std::uint32_t kMostDetectors = 8;

}  // namespace

void WriteDriftTrackingState(ByteWriter& writer, const DriftTrackingState& state) {
  writer.Write<std::uint32_t>(static_cast<std::uint32_t>(state.detectors.size()));
  if (state.detectors.empty()) return;
  for (const ChangeDetector::State& detector : state.detectors) {
    writer.Write(detector.recent);
    writer.Write(detector.reference);
    writer.Write(detector.samples);
    writer.Write(detector.last_change_ratio);
  }
  writer.Write<std::uint64_t>(state.inputs.size());  // the lines' input values
  writer.WriteArray<double>(state.inputs);
  writer.WriteArray<double>(state.targets);
  writer.Write(state.lines_since_restart);
}

absl::Status CheckDriftTrackingState(const DriftTrackingState& state, const Task& task) {
  if (state.detectors.empty()) return absl::OkStatus();
  const auto inputs = static_cast<std::size_t>(task.num_inputs());
  const auto outputs = static_cast<std::size_t>(task.num_outputs());
  const std::size_t rows = inputs == 0 ? 0 : state.inputs.size() / inputs;
  if (state.detectors.size() > kMostDetectors || inputs == 0 ||
      state.inputs.size() != rows * inputs || state.targets.size() != rows * outputs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a drift tracking state of ", state.detectors.size(), " detectors and ",
        state.inputs.size(), " + ", state.targets.size(), " line values does not fit lines of ",
        inputs, " inputs and ", outputs, " targets"));
  }
  // Counts a stream can reach: each detector has seen at most the lines
  // since the restart, and those stay far from overflowing.
  constexpr std::int64_t kMaxLines = std::int64_t{1} << 56;
  bool valid = state.lines_since_restart >= static_cast<std::int64_t>(rows) &&
               state.lines_since_restart < kMaxLines;
  for (const ChangeDetector::State& detector : state.detectors) {
    valid = valid && detector.IsValid() && detector.samples <= state.lines_since_restart;
  }
  for (const double value : state.inputs) valid = valid && std::isfinite(value);
  for (const double value : state.targets) valid = valid && std::isfinite(value);
  if (!valid) return absl::InvalidArgumentError("a drift tracking state that learning cannot reach");
  return absl::OkStatus();
}

absl::StatusOr<DriftTrackingState> ReadDriftTrackingState(ByteReader& reader, const Task& task) {
  DriftTrackingState state;
  std::uint32_t detectors = 0;
  if (absl::Status status = reader.Read("drift detectors", detectors); !status.ok()) return status;
  if (detectors == 0) return state;
  if (detectors > kMostDetectors) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ", detectors,
                                            " drift detectors (at most ", kMostDetectors, ")"));
  }
  state.detectors.resize(detectors);
  absl::Status status = absl::OkStatus();
  for (ChangeDetector::State& detector : state.detectors) {
    if (status.ok()) status = reader.Read("drift detector level", detector.recent);
    if (status.ok()) status = reader.Read("drift detector reference", detector.reference);
    if (status.ok()) status = reader.Read("drift detector samples", detector.samples);
    if (status.ok()) status = reader.Read("drift detector last change", detector.last_change_ratio);
  }
  // The remembered lines: as many inputs as targets, of the task's widths.
  std::uint64_t values = 0;
  if (status.ok()) status = reader.Read("drift line values", values);
  if (!status.ok()) return status;
  const auto inputs = static_cast<std::uint64_t>(task.num_inputs());
  const auto outputs = static_cast<std::uint64_t>(task.num_outputs());
  if (inputs == 0 || values % inputs != 0 || values / inputs > reader.remaining() / sizeof(double)) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ", values,
                                            " remembered input values for lines of ", inputs));
  }
  const std::uint64_t rows = values / inputs;
  const auto read_lines = [&](std::string_view field, std::uint64_t count, std::vector<double>& to) {
    return rows == 0 ? reader.ReadOptionalArray(field, 0, to) : reader.ReadArray(field, count, to);
  };
  status = read_lines("drift line inputs", rows * inputs, state.inputs);
  if (status.ok()) status = read_lines("drift line targets", rows * outputs, state.targets);
  if (status.ok()) status = reader.Read("drift lines since restart", state.lines_since_restart);
  if (!status.ok()) return status;
  if (absl::Status valid = CheckDriftTrackingState(state, task); !valid.ok()) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ", valid.message()));
  }
  return state;
}

}  // namespace rffstream::internal
