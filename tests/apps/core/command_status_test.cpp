#include "core/command_status.h"

#include <catch2/catch.hpp>

#include "core/exit_codes.h"

namespace rffstream::app {
namespace {

TEST_CASE("A status's code gives the exit code, unless it carries one", "[command_status]") {
  CHECK(ExitCodeOf(absl::OkStatus()) == kExitSuccess);
  CHECK(ExitCodeOf(absl::InvalidArgumentError("--gamma=wide")) == kExitUsageError);
  CHECK(ExitCodeOf(absl::NotFoundError("no such file")) == kExitIoError);
  CHECK(ExitCodeOf(absl::DataLossError("a truncated checkpoint")) == kExitIoError);
  // A loaded checkpoint's InvalidArgument is still a file that failed.
  CHECK(ExitCodeOf(AsIoFailure(absl::InvalidArgumentError("not a checkpoint"))) == kExitIoError);
  CHECK(ExitCodeOf(AsBadInput(absl::FailedPreconditionError("no line learned"))) == kExitBadInput);
  CHECK(ExitCodeOf(AsUsageError(absl::ResourceExhaustedError("over --max_memory"))) ==
        kExitUsageError);
  CHECK(ExitCodeOf(StoppedBySignal(15, absl::OkStatus())) == 128 + 15);
  CHECK(ExitCodeOf(StoppedBySignal(2, absl::UnavailableError("disk full"))) == 128 + 2);
  // Marking an ok status keeps it ok.
  CHECK(AsIoFailure(absl::OkStatus()).ok());
}

TEST_CASE("The first of several failures decides, the later ones are added", "[command_status]") {
  absl::Status first = absl::OkStatus();
  KeepFirstFailure(first, absl::OkStatus());
  CHECK(first.ok());
  KeepFirstFailure(first, AsIoFailure(absl::UnavailableError("cannot write to out.csv")));
  KeepFirstFailure(first, AsBadInput(absl::FailedPreconditionError("metrics.csv: disk full")));
  CHECK(first.message() == "cannot write to out.csv; and metrics.csv: disk full");
  CHECK(ExitCodeOf(first) == kExitIoError);
  // A failure reported already (empty message) adds nothing.
  KeepFirstFailure(first, AsIoFailure(absl::UnavailableError("")));
  CHECK(first.message() == "cannot write to out.csv; and metrics.csv: disk full");
  absl::Status reported = AsBadInput(absl::CancelledError());
  KeepFirstFailure(reported, absl::UnavailableError("model.rff was not saved"));
  CHECK(reported.message() == "model.rff was not saved");
  CHECK(ExitCodeOf(reported) == kExitBadInput);
}

}  // namespace
}  // namespace rffstream::app
