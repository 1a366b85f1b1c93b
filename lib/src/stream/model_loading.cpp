#include "rffstream/stream/model_loading.h"
#include "rffstream/stream/option_text.h"

#include "absl/strings/str_cat.h"

namespace rffstream {

absl::StatusOr<int> ModelBytesPerNumber(const ModelOptions& model, const std::string& load_path) {
  const int asked = BytesPerNumber(model);
  if (load_path.empty()) return asked;
  absl::StatusOr<int> stored = ReadCheckpointPrecision(load_path);
  if (!stored.ok()) return absl::DataLossError(stored.status().message());
  if (model.given.Has("precision") && *stored != asked) {
    return absl::InvalidArgumentError(absl::StrCat("flags conflict with the model loaded from ",
                                                   load_path, ": --precision=", std::string(PrecisionName(model.precision)),
                                                   " (the model has float", 8 * *stored, ")"));
  }
  return *stored;
}

}  // namespace rffstream
