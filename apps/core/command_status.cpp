#include "core/command_status.h"

#include <cstdio>
#include <optional>
#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/exit_codes.h"

namespace rffstream::app {
namespace {

constexpr char kExitCodePayload[] = "rffstream/exit_code";

std::optional<int> CarriedExitCode(const absl::Status& status) {
  const auto payload = status.GetPayload(kExitCodePayload);  // absl::optional in Debian's Abseil
  int exit_code = 0;
  if (!payload.has_value() || !absl::SimpleAtoi(std::string(*payload), &exit_code)) {
    return std::nullopt;
  }
  return exit_code;
}

}  // namespace

absl::Status WithExitCode(absl::Status status, int exit_code) {
  status.SetPayload(kExitCodePayload, absl::Cord(absl::StrCat(exit_code)));
  return status;
}

absl::Status AsIoFailure(absl::Status status) {
  return WithExitCode(std::move(status), kExitIoError);
}

absl::Status AsBadInput(absl::Status status) {
  return WithExitCode(std::move(status), kExitBadInput);
}

absl::Status AsUsageError(absl::Status status) {
  return WithExitCode(std::move(status), kExitUsageError);
}

absl::Status StoppedBySignal(int signal, absl::Status status) {
  if (status.ok()) status = absl::CancelledError();
  return WithExitCode(std::move(status), 128 + signal);
}

void KeepFirstFailure(absl::Status& first, const absl::Status& next) {
  if (next.ok()) return;
  if (first.ok()) {
    first = next;
    return;
  }
  if (next.message().empty()) return;  // reported already
  const std::string message =
      first.message().empty() ? std::string(next.message())
                              : absl::StrCat(std::string(first.message()), "; and ",
                                             std::string(next.message()));
  absl::Status joined(first.code(), message);
  if (std::optional<int> exit_code = CarriedExitCode(first)) {
    joined = WithExitCode(std::move(joined), *exit_code);
  }
  first = std::move(joined);
}

int ExitCodeOf(const absl::Status& status) {
  if (status.ok()) return kExitSuccess;
  if (std::optional<int> exit_code = CarriedExitCode(status)) return *exit_code;
  return status.code() == absl::StatusCode::kInvalidArgument ? kExitUsageError : kExitIoError;
}

void ReportFailure(std::string_view command, const absl::Status& status) {
  if (status.ok() || status.message().empty()) return;
  std::fprintf(stderr, "rffstream %s: %s\n", std::string(command).c_str(),
               std::string(status.message()).c_str());
}

}  // namespace rffstream::app
