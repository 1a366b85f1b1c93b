#include "python_errors.h"

#include <cmath>
#include <string>

namespace rffstream::python {

// A Status that is not ok as the Python exception of its kind.
[[noreturn]] void Raise(const absl::Status& status) {
  const std::string message(status.message());
  switch (status.code()) {
    case absl::StatusCode::kNotFound:
      PyErr_SetString(PyExc_FileNotFoundError, message.c_str());
      throw py::error_already_set();
    case absl::StatusCode::kResourceExhausted:
      PyErr_SetString(PyExc_MemoryError, message.c_str());
      throw py::error_already_set();
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kDataLoss:
      throw py::value_error(message);
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnavailable:
      PyErr_SetString(PyExc_OSError, message.c_str());  // files: saving a checkpoint
      throw py::error_already_set();
    default:
      throw std::runtime_error(message);
  }
}

void Check(const absl::Status& status) {
  if (!status.ok()) Raise(status);
}

void CheckFinite(std::span<const double> values, std::size_t columns, const char* what,
                 bool missing_allowed) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (missing_allowed ? !std::isinf(values[i]) : std::isfinite(values[i])) continue;
    throw py::value_error(absl::StrCat(what, " row ", i / columns, ", column ", i % columns, " is ",
                                       values[i],
                                       ": values must be finite (no NaN or inf); nothing was learned"));
  }
}

void RaiseRefused(const std::vector<RefusedSample>& refused) {
  if (refused.empty()) return;
  std::string message;
  for (const RefusedSample& sample : refused) {
    absl::StrAppend(&message, message.empty() ? "" : "; ", "sample ", sample.sample, ": ",
                    sample.reason);
  }
  throw py::value_error(absl::StrCat(
      message, refused.size() == 1 ? " (not learned" : " (those samples were not learned",
      "; every other sample was)"));
}

}  // namespace rffstream::python
