#include "commands/merge_command.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/distinct_files.h"
#include "core/command_status.h"
#include "rffstream/checkpoint.h"
#include "rffstream/merge.h"

namespace rffstream::app {
namespace {

template <class Real>
absl::Status Merge(const MergeOptions& options) {
  std::vector<BasicCheckpoint<Real>> shards;
  shards.reserve(options.shards.size());
  for (const std::string& path : options.shards) {
    absl::StatusOr<BasicCheckpoint<Real>> loaded = LoadCheckpoint<Real>(path);
    if (!loaded.ok()) return AsIoFailure(loaded.status());
    shards.push_back(*std::move(loaded));
  }
  std::vector<NamedCheckpoint<Real>> named;
  for (std::size_t i = 0; i < shards.size(); ++i) named.push_back({options.shards[i], &shards[i]});
  std::optional<BasicCheckpoint<Real>> base;
  std::optional<NamedCheckpoint<Real>> named_base;
  if (!options.base.empty()) {
    absl::StatusOr<BasicCheckpoint<Real>> loaded = LoadCheckpoint<Real>(options.base);
    if (!loaded.ok()) return AsIoFailure(loaded.status());
    base = *std::move(loaded);
    named_base = NamedCheckpoint<Real>{options.base, &*base};
  }
  absl::StatusOr<BasicCheckpoint<Real>> merged =
      MergeCheckpoints<Real>(named, named_base ? &*named_base : nullptr);
  if (!merged.ok()) return AsIoFailure(merged.status());
  if (absl::Status saved = SaveCheckpoint(options.save, merged->learner, merged->record);
      !saved.ok()) {
    return AsIoFailure(saved);
  }
  std::fprintf(stderr, "rffstream merge: %zu models, %lld samples in all, saved to %s\n",
               shards.size(), static_cast<long long>(merged->learner.samples_learned()),
               options.save.c_str());
  return absl::OkStatus();
}

}  // namespace

absl::Status RunMergeCommand(const MergeOptions& options) {
  if (options.save.empty() || options.shards.empty()) {
    return absl::InvalidArgumentError("usage: rffstream merge --save=OUT [--base=BASE] IN1 [IN2 ...]");
  }
  if (absl::Status usable = CheckCheckpointPath(options.save); !usable.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--save: ", usable.message()));
  }
  std::vector<NamedPath> inputs;
  for (std::size_t i = 0; i < options.shards.size(); ++i) {
    inputs.push_back({absl::StrCat("model ", i + 1), options.shards[i]});
  }
  inputs.push_back({"--base", options.base});
  const NamedPath output[] = {{"--save", options.save}};
  for (absl::Status status : {CheckDistinctInputs(inputs), CheckOutputsSpareInputs(inputs, output)}) {
    if (!status.ok()) return AsUsageError(status);
  }
  // Every model in one precision: the first one's.
  std::vector<std::string> paths = options.shards;
  if (!options.base.empty()) paths.push_back(options.base);
  int real_bytes = 0;
  for (const std::string& path : paths) {
    absl::StatusOr<int> bytes = ReadCheckpointPrecision(path);
    if (!bytes.ok()) return AsIoFailure(bytes.status());
    if (real_bytes != 0 && *bytes != real_bytes) {
      return AsIoFailure(absl::InvalidArgumentError(
          absl::StrCat(path, " is a float", 8 * *bytes, " model, ", paths.front(), " a float",
                       8 * real_bytes, " one: merge models of one precision")));
    }
    real_bytes = *bytes;
  }
  return real_bytes == 4 ? Merge<float>(options) : Merge<double>(options);
}

}  // namespace rffstream::app
