#include "rffstream/learner_config.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "rffstream/rls.h"

namespace rffstream {

absl::Status LearnerConfig::Validate() const {
  // P starts at I / ridge, in float32 too; the forgetting's refresh is
  // about D (1 - β) ridge: both must stay normal numbers in either precision.
  if (!(ridge >= kMinRidge && ridge <= kMaxRidge)) {
    return absl::InvalidArgumentError(absl::StrCat("learner: ridge must be in [", kMinRidge, ", ",
                                                   kMaxRidge, "], got ", ridge));
  }
  if (!(forgetting > 0.0 && forgetting <= 1.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("learner: forgetting factor must be in (0, 1], got ", forgetting));
  }
  if (loss != Loss::kSquared && loss != Loss::kHinge) {
    return absl::InvalidArgumentError(
        absl::StrCat("learner: unknown loss ", static_cast<int>(loss)));
  }
  if (num_outputs < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("learner: num_outputs must be at least 1, got ", num_outputs));
  }
  return features.Validate();
}

std::string_view LossName(Loss loss) {
  switch (loss) {
    case Loss::kSquared:
      return "squared";
    case Loss::kHinge:
      return "hinge";
  }
  return "unknown";
}

absl::StatusOr<Loss> ParseLoss(std::string_view name) {
  for (Loss loss : {Loss::kSquared, Loss::kHinge}) {
    if (LossName(loss) == name) return loss;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown loss '", std::string(name), "' (expected squared or hinge)"));
}

double LearnerConfig::MemoryBytes(int bytes_per_number, int block_size) const {
  // Rows are padded to a multiple of 16 numbers (internal/padded_length.h).
  const auto padded = [](double length) { return 16.0 * std::ceil(length / 16.0); };
  const double dimension = static_cast<double>(features.num_features) + (intercept ? 1 : 0);
  const double frequencies = features.map == FeatureMapKind::kPair ? features.num_features / 2.0
                                                                   : features.num_features;
  const double engines = loss == Loss::kHinge ? num_outputs : 1;  // one P each
  // A block's rows and scratch; the factor form's blocks write a second
  // factor (the sweep's, or a bulk block's copy of Q, which it keeps too).
  // (Only the squared loss with β = 1 learns blocks at once.)
  const bool factor_form =
      bytes_per_number == 4 || ridge < BasicRls<double>::kSmallestCovarianceRidge;
  const bool blocks = block_size > 1 && loss == Loss::kSquared && forgetting == 1.0;
  const double second_factors =
      !blocks || !factor_form ? 0 : (block_size >= BasicRls<double>::kBulkSamples ? 2 : 1);
  const double numbers = engines * ((1 + second_factors) * dimension * padded(dimension) +  // P
                                    6.0 * padded(dimension)) +                    // vectors
                         2.0 * dimension * num_outputs +                           // weights
                         (blocks ? 3.0 * block_size * padded(dimension) : 0);  // block
  // The frequencies are sampled in double, then moved (double) or
  // converted (float: both copies at once), then transposed: at the peak,
  // 8 + bytes_per_number bytes a number (BasicFeatureMap::Create).
  const double frequency_bytes =
      (8.0 + bytes_per_number) * padded(frequencies) * features.input_dimension;
  return numbers * bytes_per_number + frequency_bytes;
}

}  // namespace rffstream
