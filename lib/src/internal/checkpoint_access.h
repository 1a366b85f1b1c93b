// File: internal/checkpoint_access.h
//
// Reads and writes the private parts of a learner (its configuration, the
// feature map's frequencies, every RLS engine's state and the counters), for
// checkpoints only: BasicLearner and BasicRls name it a friend.
#ifndef RFFSTREAM_INTERNAL_CHECKPOINT_ACCESS_H_
#define RFFSTREAM_INTERNAL_CHECKPOINT_ACCESS_H_

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "internal/byte_buffer.h"
#include "rffstream/learner.h"

namespace rffstream::internal {

// Reads and writes the private parts of the model, for checkpoints only.
class CheckpointAccess {
 public:
  template <class Real>
  static void Write(ByteWriter& writer, const BasicLearner<Real>& learner) {
    WriteConfig(writer, learner.config());
    const BasicFeatureMap<Real>& map = learner.feature_map();
    writer.Write<std::int32_t>(map.num_frequencies());
    writer.WriteArray(map.projection());
    writer.WriteArray(map.offsets());
    writer.Write<Real>(map.scale());
    writer.WriteArray(map.centres());
    for (const BasicRls<Real>& engine : learner.rls_) engine.SaveState(writer);
    writer.Write<std::int64_t>(learner.samples_learned());
    writer.Write<std::int64_t>(learner.updates());
  }

  // Format 15, at the file's end: each engine's information factor, for
  // one learning in bulk (rls_bulk.cpp), so that it goes on with the same bits.
  template <class Real>
  static void WriteInformationFactors(ByteWriter& writer, const BasicLearner<Real>& learner) {
    for (const BasicRls<Real>& engine : learner.rls_) engine.WriteInformationFactor(writer);
  }
  template <class Real>
  static absl::Status ReadInformationFactors(ByteReader& reader, BasicLearner<Real>& learner) {
    for (BasicRls<Real>& engine : learner.rls_) {
      if (absl::Status status = engine.ReadInformationFactor(reader); !status.ok()) return status;
    }
    return absl::OkStatus();
  }

  template <class Real>
  static absl::StatusOr<BasicLearner<Real>> Read(ByteReader& reader, std::uint32_t version) {
    absl::StatusOr<LearnerConfig> config = ReadConfig(reader, version);
    if (!config.ok()) return config.status();
    std::int32_t num_frequencies = 0;
    if (absl::Status status = reader.Read("number of frequencies", num_frequencies); !status.ok()) {
      return status;
    }
    const FeatureMapConfig& features = config->features;
    const int expected_frequencies =
        features.map == FeatureMapKind::kPair ? features.num_features / 2 : features.num_features;
    if (num_frequencies != expected_frequencies) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": ", num_frequencies,
                                              " frequencies do not fit the configuration (",
                                              expected_frequencies, " expected)"));
    }
    std::vector<Real> projection, offsets;
    Real scale = 0;
    const auto rows = static_cast<std::uint64_t>(num_frequencies);
    if (absl::Status status = reader.ReadArray(
            "frequencies", rows * static_cast<std::uint64_t>(features.input_dimension), projection);
        !status.ok()) {
      return status;
    }
    if (absl::Status status = reader.ReadArray("phases", rows, offsets); !status.ok()) return status;
    if (absl::Status status = reader.Read("feature scale", scale); !status.ok()) return status;
    // Before format 13 every mean was folded into the phases: no centres.
    std::vector<double> centres(static_cast<std::size_t>(features.input_dimension), 0.0);
    if (version >= 13) {
      if (absl::Status status = reader.ReadArray("input centres", centres.size(), centres);
          !status.ok()) {
        return status;
      }
      for (const double centre : centres) {
        if (!std::isfinite(centre)) {
          return absl::DataLossError(absl::StrCat(reader.source(), ": an input centre is ", centre));
        }
      }
    }
    // A damaged size must not make us allocate P before the bytes of P are
    // known to be there.
    const std::uint64_t dimension =
        static_cast<std::uint64_t>(features.num_features) + (config->intercept ? 1 : 0);
    const std::uint64_t outputs = static_cast<std::uint64_t>(config->num_outputs);
    const std::uint64_t engines = config->loss == Loss::kHinge ? outputs : 1;  // one P each
    if (reader.remaining() / sizeof(Real) <
        engines * dimension * (dimension + 1) / 2 + dimension * outputs) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": truncated: ", dimension,
                                              " features and ", outputs,
                                              " outputs need a larger RLS state"));
    }
    BasicFeatureMap<Real> map(features, num_frequencies, std::move(projection), std::move(offsets),
                              scale, std::move(centres));
    BasicLearner<Real> learner(*std::move(config), std::move(map));
    for (BasicRls<Real>& engine : learner.rls_) {
      // The factor form's triangle: P before format 6 (float32) or 9
      // (float64), the Cholesky factor S before 12, then L with D on its
      // diagonal, which from 16 is empty when Q follows.
      const std::uint32_t first_with_factor = std::is_same_v<Real, float> ? 6 : 9;
      using Stored = typename BasicRls<Real>::StoredTriangle;
      const Stored stored = version < first_with_factor ? Stored::kCovariance
                            : version < 12              ? Stored::kCholeskyFactor
                            : version < 16              ? Stored::kUnitFactorAndScales
                                                        : Stored::kFactorsOrNone;
      if (absl::Status status = engine.LoadState(reader, stored); !status.ok()) {
        return status;
      }
    }
    if (absl::Status status = reader.Read("sample count", learner.samples_learned_); !status.ok()) {
      return status;
    }
    learner.updates_ = learner.samples_learned_;  // version 3: squared loss, every sample
    if (version >= 4) {
      if (absl::Status status = reader.Read("update count", learner.updates_); !status.ok()) {
        return status;
      }
    }
    return learner;
  }

 private:
  static void WriteConfig(ByteWriter& writer, const LearnerConfig& config) {
    const FeatureMapConfig& features = config.features;
    writer.Write<std::int32_t>(features.input_dimension);
    writer.Write<std::int32_t>(features.num_features);
    writer.Write<std::uint32_t>(static_cast<std::uint32_t>(features.map));
    writer.Write<std::uint32_t>(static_cast<std::uint32_t>(features.kernel));
    writer.Write<std::uint32_t>(static_cast<std::uint32_t>(features.sampler));
    writer.Write<double>(features.gamma);
    writer.Write<std::uint64_t>(features.seed);
    writer.WriteArray<double>(features.lengthscales);
    writer.WriteArray<double>(features.input_offset);
    writer.WriteArray<double>(features.input_scale);
    if (features.sampler == FrequencySampler::kLeverage) {
      writer.Write<std::int32_t>(features.selection.candidates);
      writer.WriteArray<std::int32_t>(features.selection.selected);
      writer.WriteArray<double>(features.selection.weights);
    }
    writer.Write<double>(config.ridge);
    writer.Write<double>(config.forgetting);
    writer.Write<std::uint8_t>(config.intercept ? 1 : 0);
    writer.Write<std::int32_t>(config.num_outputs);
    writer.Write<std::uint32_t>(static_cast<std::uint32_t>(config.loss));
  }

  static absl::StatusOr<LearnerConfig> ReadConfig(ByteReader& reader, std::uint32_t version) {
    LearnerConfig config;
    FeatureMapConfig& features = config.features;
    std::uint32_t map = 0, kernel = 0, sampler = 0;
    std::uint8_t intercept = 0;
    absl::Status status = reader.Read("input dimension", features.input_dimension);
    if (status.ok()) status = reader.Read("number of features", features.num_features);
    if (status.ok()) status = reader.Read("feature map kind", map);
    if (status.ok()) status = reader.Read("kernel kind", kernel);
    if (status.ok()) status = reader.Read("frequency sampler", sampler);
    if (status.ok()) status = reader.Read("gamma", features.gamma);
    if (status.ok()) status = reader.Read("seed", features.seed);
    if (!status.ok()) return status;
    if (map > static_cast<std::uint32_t>(FeatureMapKind::kPhase) ||
        kernel > static_cast<std::uint32_t>(KernelKind::kMatern52) ||
        sampler > static_cast<std::uint32_t>(FrequencySampler::kLeverage) ||
        features.input_dimension <= 0) {
      return absl::DataLossError(
          absl::StrCat(reader.source(), ": the configuration is not valid (map kind ", map,
                       ", kernel kind ", kernel, ", input dimension ", features.input_dimension, ")"));
    }
    features.map = static_cast<FeatureMapKind>(map);
    features.kernel = static_cast<KernelKind>(kernel);
    features.sampler = static_cast<FrequencySampler>(sampler);
    const auto dimension = static_cast<std::uint64_t>(features.input_dimension);
    status = reader.ReadOptionalArray("lengthscales", dimension, features.lengthscales);
    if (status.ok()) status = reader.ReadOptionalArray("input offsets", dimension, features.input_offset);
    if (status.ok()) status = reader.ReadOptionalArray("input scales", dimension, features.input_scale);
    if (status.ok() && features.sampler == FrequencySampler::kLeverage &&
        features.num_features > 0) {
      const auto frequencies = static_cast<std::uint64_t>(features.num_frequencies());
      FrequencySelection& selection = features.selection;
      status = reader.Read("leverage candidates", selection.candidates);
      if (status.ok()) status = reader.ReadArray("leverage selection", frequencies, selection.selected);
      if (status.ok()) status = reader.ReadArray("leverage weights", frequencies, selection.weights);
    }
    if (status.ok()) status = reader.Read("ridge", config.ridge);
    if (status.ok()) status = reader.Read("forgetting factor", config.forgetting);
    if (status.ok()) status = reader.Read("intercept flag", intercept);
    if (status.ok()) status = reader.Read("number of outputs", config.num_outputs);
    std::uint32_t loss = 0;  // version 3: squared
    if (status.ok() && version >= 4) status = reader.Read("loss", loss);
    if (!status.ok()) return status;
    if (loss > static_cast<std::uint32_t>(Loss::kHinge)) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": unknown loss ", loss));
    }
    config.loss = static_cast<Loss>(loss);
    config.intercept = intercept != 0;
    if (absl::Status valid = config.Validate(); !valid.ok()) {
      return absl::DataLossError(absl::StrCat(reader.source(), ": invalid configuration: ",
                                              std::string(valid.message())));
    }
    return config;
  }
};

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_CHECKPOINT_ACCESS_H_
