// File: tests/checkpoint_fixtures.h
//
// A small model fed a known stream, and the byte edits that turn a new
// checkpoint into one of an older format: the checkpoint tests' helpers.
#ifndef RFFSTREAM_TESTS_CHECKPOINT_FIXTURES_H_
#define RFFSTREAM_TESTS_CHECKPOINT_FIXTURES_H_

#include <catch2/catch.hpp>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "internal/crc32c.h"
#include "rffstream/checkpoint.h"

namespace rffstream::testing {

LearnerConfig SmallConfig(FeatureMapKind map, double forgetting, int features = 32,
                          Loss loss = Loss::kSquared) {
  LearnerConfig config;
  config.features.input_dimension = 3;
  config.features.num_features = features;
  config.features.gamma = 0.3;
  config.features.map = map;
  config.features.seed = 5;
  config.features.input_offset = {0.1, -0.2, 0.3};
  config.features.input_scale = {1.5, 0.5, 2.0};
  config.forgetting = forgetting;
  config.ridge = 0.01;
  config.loss = loss;
  return config;
}

template <class Real>
std::vector<double> Input(int t) {  // rounded to Real: the numbers a Real stream holds
  return {static_cast<Real>(std::sin(0.3 * t)), static_cast<Real>(std::cos(0.17 * t)),
          static_cast<Real>(std::sin(0.05 * t + 1))};
}

template <class Real>
Real Target(int t) {
  return static_cast<Real>(std::sin(0.3 * t) * std::cos(0.17 * t));
}

template <class Real>
void Feed(BasicLearner<Real>& learner, RegressionMetrics& metrics, int from, int to) {
  for (int t = from; t < to; ++t) {
    const std::vector<double> x = Input<Real>(t);
    metrics.Add(learner.Learn(x, Target<Real>(t)), Target<Real>(t));
  }
}

// Rewrites a checkpoint's format version and its checksum.
inline void MarkAsVersion(std::string& bytes, std::uint32_t version) {
  std::memcpy(bytes.data() + 8, &version, 4);
  const std::uint32_t checksum = internal::ExtendCrc32c(
      0, std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(bytes.data()),
                                        bytes.size() - 4));
  std::memcpy(bytes.data() + bytes.size() - 4, &checksum, 4);
}

// Removes what version 13 added, for files of version 12 made from new
// ones: `map`'s input centres (a u64 count and as many doubles) after the
// phases and the feature scale; the bytes are marked as version 12.
template <class Real>
void RemoveInputCentres(std::string& bytes, const BasicFeatureMap<Real>& map) {
  const std::size_t phase_bytes = map.offsets().size() * sizeof(Real);
  const std::size_t phases_at = bytes.find(
      std::string(reinterpret_cast<const char*>(map.offsets().data()), phase_bytes));
  REQUIRE(phases_at != std::string::npos);
  const std::size_t centres_at = phases_at + phase_bytes + sizeof(Real);
  std::uint64_t count = 0;
  std::memcpy(&count, bytes.data() + centres_at, sizeof(count));
  REQUIRE(count == map.centres().size());
  bytes.erase(centres_at, sizeof(count) + count * sizeof(double));
  MarkAsVersion(bytes, 12);
}

// The same for the bytes of a new file (read to find its map); nothing
// for bytes already of an older layout.
template <class Real>
void RemoveInputCentresOfFile(std::string& bytes) {
  std::stringstream file(bytes);
  absl::StatusOr<BasicCheckpoint<Real>> read = ReadCheckpoint<Real>(file, "new.rff");
  REQUIRE(read.ok());
  RemoveInputCentres(bytes, read->learner.feature_map());
}

// Erases the last `arrays` arrays before the checksum, each a u64 count n
// and n doubles, all of one n (below 64); false when no n fits.
inline bool EraseTrailingArrays(std::string& bytes, int arrays) {
  constexpr std::size_t kChecksumBytes = 4, kCountBytes = 8;
  const std::size_t end = bytes.size() - kChecksumBytes;
  for (std::uint64_t n = 0; n < 64; ++n) {
    const std::size_t array_bytes = kCountBytes + n * sizeof(double);
    if (arrays * array_bytes > end) return false;
    bool fits = true;
    for (int a = 1; a <= arrays && fits; ++a) {
      std::uint64_t count = 0;
      std::memcpy(&count, bytes.data() + end - a * array_bytes, kCountBytes);
      fits = count == n;
    }
    if (!fits) continue;
    bytes.erase(end - arrays * array_bytes, arrays * array_bytes);
    return true;
  }
  return false;
}

// Removes what version 17 added, for files of version 16 made from new
// ones: the target offsets (a u64 count n and n doubles), the metrics
// after the warm-up window (an i64 count and 4 doubles) and the class
// labels' kind (a byte) before the checksum; the bytes are marked as
// version 16.
inline void RemoveVersion17Fields(std::string& bytes) {
  std::uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, sizeof(version));
  if (version < 17) return;
  constexpr std::size_t kChecksumBytes = 4, kMetricsBytes = 8 + 4 * sizeof(double) + 1;
  bytes.erase(bytes.size() - kChecksumBytes - kMetricsBytes, kMetricsBytes);
  if (!EraseTrailingArrays(bytes, 1)) FAIL("no target offsets at the end of the checkpoint");
  MarkAsVersion(bytes, 16);
}

// Removes what versions 15 and 17 added, for files of version 14 made from
// new ones of one RLS engine not learning in bulk: version 17's (above) and
// the engine's flag, a 0 byte before the checksum; the bytes are marked as
// version 14.
inline void RemoveVersion15Fields(std::string& bytes) {
  RemoveVersion17Fields(bytes);
  std::uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, sizeof(version));
  if (version < 15) return;
  constexpr std::size_t kChecksumBytes = 4;
  REQUIRE(bytes[bytes.size() - kChecksumBytes - 1] == '\0');
  bytes.erase(bytes.size() - kChecksumBytes - 1, 1);
  MarkAsVersion(bytes, 14);
}

// Removes what versions 14 and 15 added, for files of version 13 made from
// new ones: version 15's (above) and the targets' range before the checksum,
// two arrays of n doubles (a u64 count n and the numbers each; n = 0 when
// nothing was learned or for a classifier); the bytes are marked as version 13.
inline void RemoveVersion14Fields(std::string& bytes) {
  RemoveVersion15Fields(bytes);
  std::uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, sizeof(version));
  if (version < 14) return;
  if (!EraseTrailingArrays(bytes, 2)) FAIL("no target range at the end of the checkpoint");
  MarkAsVersion(bytes, 13);
}

inline void RemoveVersion13Fields(std::string& bytes) {
  RemoveVersion14Fields(bytes);
  std::uint32_t version = 0, real_bytes = 0;
  std::memcpy(&version, bytes.data() + 8, sizeof(version));
  std::memcpy(&real_bytes, bytes.data() + 16, sizeof(real_bytes));
  if (version < 13) return;
  if (real_bytes == sizeof(float)) {
    RemoveInputCentresOfFile<float>(bytes);
  } else {
    RemoveInputCentresOfFile<double>(bytes);
  }
}

// Removes what versions 11 and 13 added, for files of version 10 made from
// new ones: version 13's (above) and the bandwidth follower's
// standardizations, none (a u64 0) before the checksum.
inline void RemoveVersion11Fields(std::string& bytes) {
  RemoveVersion13Fields(bytes);
  constexpr std::size_t kNoChangesBytes = 8, kChecksumBytes = 4;
  const std::uint64_t none = 0;
  REQUIRE(std::memcmp(bytes.data() + bytes.size() - kChecksumBytes - kNoChangesBytes, &none,
                      kNoChangesBytes) == 0);
  bytes.erase(bytes.size() - kChecksumBytes - kNoChangesBytes, kNoChangesBytes);
}

// Removes what versions 10 and 11 added, for files of version 9 made from
// new ones: version 11's (above) and the bandwidth follow state, none (an
// i32 0, a double 0 and a u64 0) before the checksum.
inline void RemoveVersion10Fields(std::string& bytes) {
  RemoveVersion11Fields(bytes);
  constexpr std::size_t kNoFollowBytes = 20, kChecksumBytes = 4;
  const std::array<char, kNoFollowBytes> none{};
  REQUIRE(std::memcmp(bytes.data() + bytes.size() - kChecksumBytes - kNoFollowBytes, none.data(),
                      kNoFollowBytes) == 0);
  bytes.erase(bytes.size() - kChecksumBytes - kNoFollowBytes, kNoFollowBytes);
}

// Removes what versions 9 to 11 added, for files of version 8 made from
// new ones: versions 10 and 11's (above) and the drift tracking state, none (a u32
// 0) before the checksum.
inline void RemoveVersion9Fields(std::string& bytes) {
  RemoveVersion10Fields(bytes);
  constexpr std::size_t kNoTrackingBytes = 4, kChecksumBytes = 4;
  const std::uint32_t none = 0;
  REQUIRE(std::memcmp(bytes.data() + bytes.size() - kChecksumBytes - kNoTrackingBytes, &none, 4) == 0);
  bytes.erase(bytes.size() - kChecksumBytes - kNoTrackingBytes, kNoTrackingBytes);
}

// Removes what versions 8 to 11 added, for files of version 7 made from new
// ones: versions 9 to 11's (above) and the ridge follow state, none (an i64 0).
inline void RemoveVersion8Fields(std::string& bytes) {
  RemoveVersion9Fields(bytes);
  constexpr std::size_t kNoFollowBytes = 8, kChecksumBytes = 4;
  const std::int64_t none = 0;
  REQUIRE(std::memcmp(bytes.data() + bytes.size() - kChecksumBytes - kNoFollowBytes, &none, 8) == 0);
  bytes.erase(bytes.size() - kChecksumBytes - kNoFollowBytes, kNoFollowBytes);
}

// Removes what versions 7 and 8 added, for files of older formats made from
// new ones: version 8's (above); the task's category columns (an empty
// list, a u64, and the bucket count, an i32) and drift flag (a byte, 0)
// after the task's other flags, and the metrics' warm-up part (5 numbers of
// regression metrics and 2 counts, before the checksum).
inline void RemoveVersion7Fields(std::string& bytes) {
  RemoveVersion8Fields(bytes);
  const std::uint64_t no_columns = 0;
  const std::int32_t buckets = Task::kDefaultCategoryBuckets;
  const std::string fields =
      std::string(reinterpret_cast<const char*>(&no_columns), sizeof(no_columns)) +
      std::string(reinterpret_cast<const char*>(&buckets), sizeof(buckets)) + std::string(1, '\0');
  const std::size_t at = bytes.find(fields);
  REQUIRE(at != std::string::npos);
  REQUIRE(bytes.find(fields, at + 1) == std::string::npos);
  bytes.erase(at, fields.size());
  constexpr std::size_t kWarmUpBytes = 8 * 8, kChecksumBytes = 4;  // and the restarts
  bytes.erase(bytes.size() - kChecksumBytes - kWarmUpBytes, kWarmUpBytes);
}


// `bytes` of the current format read as a file of an older `version`:
// what the later versions added is taken out by `remove` first.
template <class Real>
absl::StatusOr<BasicCheckpoint<Real>> ReadAsVersion(std::string bytes,
                                                    void (*remove)(std::string&),
                                                    std::uint32_t version) {
  remove(bytes);
  MarkAsVersion(bytes, version);
  std::stringstream file(bytes);
  return ReadCheckpoint<Real>(file, "v" + std::to_string(version) + ".rff");
}

// A learner fed `samples` samples, and its checkpoint's bytes.
struct FedModel {
  Learner learner;
  std::string bytes;
};

inline FedModel FeedAndSerialize(const LearnerConfig& config, int samples) {
  absl::StatusOr<Learner> learner = Learner::Create(config);
  REQUIRE(learner.ok());
  RegressionMetrics metrics;
  Feed(*learner, metrics, 0, samples);
  std::stringstream stream;
  REQUIRE(WriteCheckpoint(stream, *learner, CheckpointRecord{DefaultTask(learner->config()), metrics}).ok());
  return {*std::move(learner), stream.str()};
}


}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_CHECKPOINT_FIXTURES_H_
