// The bandwidth follower's state in a checkpoint (format 10 on): the choices
// left, the lines they will be made on and the choices so far (of the
// standardization too, format 11 on), checked alike when written and when
// read.
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "internal/checkpoint_record.h"

namespace rffstream::internal {
namespace {

// More than a follower ever has left (BandwidthFollower::kChoices).
constexpr int kMostChoices = 16;

}  // namespace

void WriteBandwidthFollowState(ByteWriter& writer, const BandwidthFollowState& state) {
  writer.Write<std::int32_t>(state.choices_left);
  writer.Write(state.window_gamma);
  if (state.choices_left > 0) {  // the lines are kept only while choices are left
    writer.Write<std::uint64_t>(state.inputs.size());
    writer.WriteArray<double>(state.inputs);
    writer.WriteArray<double>(state.targets);
  }
  WriteSettingChanges(writer, state.changes);
  WriteSettingChanges(writer, state.standardizations);
}

absl::Status CheckBandwidthFollowState(const BandwidthFollowState& state, const Task& task) {
  const auto inputs = static_cast<std::size_t>(task.num_inputs());
  const auto outputs = static_cast<std::size_t>(task.num_outputs());
  const std::size_t rows = inputs == 0 ? 0 : state.inputs.size() / inputs;
  if (state.inputs.size() != rows * inputs || state.targets.size() != rows * outputs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a bandwidth follow state of ", state.inputs.size(), " + ", state.targets.size(),
        " line values does not fit lines of ", inputs, " inputs and ", outputs, " targets"));
  }
  bool valid = state.choices_left >= 0 && state.choices_left <= kMostChoices &&
               (state.choices_left > 0 || rows == 0) && std::isfinite(state.window_gamma) &&
               state.window_gamma >= 0;
  for (const double value : state.targets) valid = valid && std::isfinite(value);
  // A missing input is kept as the value the feature map reads in its place.
  for (const double value : state.inputs) valid = valid && std::isfinite(value);
  for (const BandwidthFollowState::Change& change : state.changes) {
    valid = valid && change.from > 0 && change.to > 0 && change.samples >= 0 && change.line >= 0;
  }
  for (const BandwidthFollowState::Change& change : state.standardizations) {
    valid = valid && change.from == 1 && change.to >= 1 && std::isfinite(change.to) &&
            change.samples >= 0 && change.line >= 0;
  }
  if (!valid) return absl::InvalidArgumentError("a bandwidth follow state that learning cannot reach");
  return absl::OkStatus();
}

absl::StatusOr<BandwidthFollowState> ReadBandwidthFollowState(ByteReader& reader,
                                                              std::uint32_t version,
                                                              const Task& task) {
  BandwidthFollowState state;
  std::int32_t choices_left = 0;
  std::uint64_t values = 0;
  absl::Status status = reader.Read("bandwidth follow choices", choices_left);
  if (status.ok()) status = reader.Read("bandwidth follow window width", state.window_gamma);
  if (status.ok() && choices_left > 0) status = reader.Read("bandwidth follow line values", values);
  if (!status.ok()) return status;
  state.choices_left = choices_left;
  const auto inputs = static_cast<std::uint64_t>(task.num_inputs());
  const auto outputs = static_cast<std::uint64_t>(task.num_outputs());
  if (inputs == 0 || values % inputs != 0 || values / inputs > reader.remaining() / sizeof(double)) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ", values,
                                            " bandwidth follow input values for lines of ", inputs));
  }
  const std::uint64_t rows = values / inputs;
  const auto read_lines = [&](std::string_view field, std::uint64_t count, std::vector<double>& to) {
    return rows == 0 ? reader.ReadOptionalArray(field, 0, to) : reader.ReadArray(field, count, to);
  };
  if (choices_left > 0) {
    status = read_lines("bandwidth follow inputs", rows * inputs, state.inputs);
    if (status.ok()) status = read_lines("bandwidth follow targets", rows * outputs, state.targets);
  }
  if (status.ok()) status = ReadSettingChanges(reader, "bandwidth", state.changes);
  if (status.ok() && version >= 11) {
    status = ReadSettingChanges(reader, "standardization", state.standardizations);
  }
  if (!status.ok()) return status;
  if (absl::Status valid = CheckBandwidthFollowState(state, task); !valid.ok()) {
    return absl::DataLossError(absl::StrCat(reader.source(), ": ", valid.message()));
  }
  return state;
}

}  // namespace rffstream::internal
