// Merging models learned on disjoint shards: against one model that learned
// every sample, from scratch and from a common base, and the refusals.
#include "rffstream/merge.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "Eigen/Dense"
#include "rffstream/information_delta.h"

namespace rffstream {
namespace {

LearnerConfig ShardConfig(int outputs = 1) {
  LearnerConfig config;
  config.features.input_dimension = 4;
  config.features.num_features = 64;
  config.features.gamma = 0.3;
  config.features.seed = 9;
  config.ridge = 0.01;
  config.num_outputs = outputs;
  return config;
}

std::vector<double> Input(int t) {
  return {std::sin(0.31 * t), std::cos(0.17 * t), std::sin(0.07 * t + 1), std::cos(0.53 * t)};
}

std::vector<double> Targets(int t, int outputs) {
  std::vector<double> targets;
  for (int k = 0; k < outputs; ++k) targets.push_back(std::sin(0.31 * t + k) * std::cos(0.17 * t));
  return targets;
}

template <class Real>
struct Model {
  explicit Model(const LearnerConfig& config)
      : checkpoint{*BasicLearner<Real>::Create(config), CheckpointRecord{DefaultTask(config)}} {
    checkpoint.record.further_targets.resize(static_cast<std::size_t>(config.num_outputs - 1));
    checkpoint.record.target_range = TargetRange(config.num_outputs);
  }

  void Learn(int t) {
    const int outputs = checkpoint.learner.config().num_outputs;
    const std::vector<double> x = Input(t), y64 = Targets(t, outputs);
    const std::vector<Real> y(y64.begin(), y64.end());
    std::vector<Real> priors(outputs);
    REQUIRE(checkpoint.learner.LearnOutputs(x, y, priors));
    checkpoint.record.metrics.Add(priors[0], y[0]);
    for (int k = 1; k < outputs; ++k) checkpoint.record.further_targets[k - 1].Add(priors[k], y[k]);
    checkpoint.record.target_range.Add(y64);
  }

  BasicCheckpoint<Real> checkpoint;
};

// The largest prediction difference over new inputs, relative to the largest prediction.
template <class Real>
double LargestRelativeDifference(const BasicLearner<Real>& a, const BasicLearner<Real>& b) {
  const int outputs = a.config().num_outputs;
  std::vector<Real> pa(outputs), pb(outputs);
  double difference = 0, largest = 0;
  for (int t = 5000; t < 5200; ++t) {
    const std::vector<double> x = Input(t);
    a.PredictOutputs(x, pa);
    b.PredictOutputs(x, pb);
    for (int k = 0; k < outputs; ++k) {
      difference = std::max(difference, std::abs(static_cast<double>(pa[k] - pb[k])));
      largest = std::max(largest, std::abs(static_cast<double>(pa[k])));
    }
  }
  return difference / largest;
}

TEST_CASE("Shards merge into the model that learned all their samples", "[merge]") {
  constexpr int kOutputs = 2;
  Model<double> all(ShardConfig(kOutputs));
  std::vector<Model<double>> shards(3, Model<double>(ShardConfig(kOutputs)));
  Model<double> empty(ShardConfig(kOutputs));  // a shard that got no lines
  // Uneven shards: lines 0..999 dealt 1:2:3 round-robin.
  for (int t = 0; t < 1000; ++t) {
    all.Learn(t);
    shards[t % 6 == 0 ? 0 : t % 6 < 3 ? 1 : 2].Learn(t);
  }
  std::vector<NamedCheckpoint<double>> named = {{"a", &shards[0].checkpoint},
                                                {"b", &shards[1].checkpoint},
                                                {"empty", &empty.checkpoint},
                                                {"c", &shards[2].checkpoint}};
  absl::StatusOr<Checkpoint> merged = MergeCheckpoints<double>(named);
  REQUIRE(merged.ok());
  CHECK(LargestRelativeDifference(merged->learner, all.checkpoint.learner) < 1e-9);
  CHECK(merged->learner.samples_learned() == 1000);
  // The metrics are those of the shards' own predictions, together.
  RegressionMetrics expected = shards[0].checkpoint.record.metrics;
  expected.Merge(shards[1].checkpoint.record.metrics);
  expected.Merge(shards[2].checkpoint.record.metrics);
  CHECK(merged->record.metrics.count() == 1000);
  CHECK(merged->record.metrics.sum_squared_error() == Approx(expected.sum_squared_error()));
  REQUIRE(merged->record.further_targets.size() == 1);
  CHECK(merged->record.further_targets[0].count() == 1000);
  // The targets' range of every shard's lines, output by output.
  CHECK(merged->record.target_range == all.checkpoint.record.target_range);
  // The merged model learns on as the single one does.
  Model<double> continued(ShardConfig(kOutputs));
  continued.checkpoint = *std::move(merged);
  for (int t = 1000; t < 1200; ++t) {
    continued.Learn(t);
    all.Learn(t);
  }
  CHECK(LargestRelativeDifference(continued.checkpoint.learner, all.checkpoint.learner) < 1e-9);
}

TEST_CASE("Shards that started from a common base merge without counting it twice", "[merge]") {
  Model<double> all(ShardConfig()), base(ShardConfig());
  for (int t = 0; t < 300; ++t) {
    all.Learn(t);
    base.Learn(t);
  }
  Model<double> first = base, second = base;
  for (int t = 300; t < 900; ++t) {
    all.Learn(t);
    (t % 3 == 0 ? first : second).Learn(t);
  }
  const NamedCheckpoint<double> named_base{"base", &base.checkpoint};
  std::vector<NamedCheckpoint<double>> named = {{"first", &first.checkpoint},
                                                {"second", &second.checkpoint}};
  absl::StatusOr<Checkpoint> merged = MergeCheckpoints<double>(named, &named_base);
  REQUIRE(merged.ok());
  CHECK(LargestRelativeDifference(merged->learner, all.checkpoint.learner) < 1e-9);
  CHECK(merged->learner.samples_learned() == 900);
  CHECK(merged->record.metrics.count() == 900);
  CHECK(merged->record.target_range == all.checkpoint.record.target_range);
  // Without the base, its samples would count once per shard.
  absl::StatusOr<Checkpoint> doubled = MergeCheckpoints<double>(named);
  REQUIRE(doubled.ok());
  CHECK(doubled->learner.samples_learned() == 1200);
  CHECK(LargestRelativeDifference(doubled->learner, all.checkpoint.learner) > 1e-6);
}

TEST_CASE("float32 shards merge within float32 rounding", "[merge]") {
  Model<float> all(ShardConfig()), first(ShardConfig()), second(ShardConfig());
  for (int t = 0; t < 600; ++t) {
    all.Learn(t);
    (t < 250 ? first : second).Learn(t);
  }
  std::vector<NamedCheckpoint<float>> named = {{"first", &first.checkpoint}, {"second", &second.checkpoint}};
  absl::StatusOr<CheckpointF32> merged = MergeCheckpoints<float>(named);
  REQUIRE(merged.ok());
  CHECK(LargestRelativeDifference(merged->learner, all.checkpoint.learner) < 1e-3);
}

TEST_CASE("A classifier's shards merge their confusion counts, hinge engines merge too", "[merge]") {
  for (Loss loss : {Loss::kSquared, Loss::kHinge}) {
    LearnerConfig config = ShardConfig(3);
    config.loss = loss;
    CheckpointRecord record{DefaultTask(config)};
    record.task.num_classes = 3;
    record.task.target_columns = {4};
    record.task.num_fields = 5;
    record.classification = ClassificationMetrics(3);
    BasicCheckpoint<double> first{*Learner::Create(config), record}, second = first;
    std::vector<double> priors(3);
    for (int t = 0; t < 200; ++t) {
      const int label = t % 3;
      std::vector<double> targets(3, -1.0);
      targets[label] = 1.0;
      BasicCheckpoint<double>& shard = t % 2 ? first : second;
      shard.learner.LearnOutputs(Input(t), targets, priors);
      shard.record.classification.Add(static_cast<int>(std::max_element(priors.begin(), priors.end()) -
                                                       priors.begin()),
                                      label);
    }
    std::vector<NamedCheckpoint<double>> named = {{"first", &first}, {"second", &second}};
    absl::StatusOr<Checkpoint> merged = MergeCheckpoints<double>(named);
    REQUIRE(merged.ok());
    CHECK(merged->record.classification.count() == 200);
    CHECK(merged->record.classification.correct() ==
          first.record.classification.correct() + second.record.classification.correct());
    CHECK(merged->learner.updates() == first.learner.updates() + second.learner.updates());
    CHECK(merged->learner.config().loss == loss);
  }
}

TEST_CASE("Learners that sum their information deltas at syncs end at the single model",
          "[merge][delta]") {
  // Two data-parallel learners, simulated in one process: each continues
  // from the merged model at every sync, every 70 of its samples.
  Model<double> all(ShardConfig()), base(ShardConfig());
  for (int t = 0; t < 100; ++t) {
    all.Learn(t);
    base.Learn(t);
  }
  absl::StatusOr<Rls::InformationForm> global = base.checkpoint.learner.rls().ToInformationForm();
  REQUIRE(global.ok());
  std::int64_t global_samples = 100;
  std::vector<Learner> ranks(2, base.checkpoint.learner);
  const int row_length = ranks[0].row_length();
  std::vector<InformationDelta> deltas(2, InformationDelta(row_length, 1));
  std::vector<double> row(row_length);
  const auto sync = [&] {
    std::vector<double> total(deltas[0].Sums().size(), 0.0);
    for (InformationDelta& delta : deltas) {
      const std::span<double> sums = delta.Sums();
      for (std::size_t i = 0; i < total.size(); ++i) total[i] += sums[i];
      delta.Clear();
    }
    const std::size_t square = static_cast<std::size_t>(row_length) * row_length;
    for (std::size_t i = 0; i < square; ++i) global->information[i] += total[i];
    for (int i = 0; i < row_length; ++i) global->target_sums[i] += total[square + i];
    global_samples += static_cast<std::int64_t>(total.back());
    for (Learner& rank : ranks) REQUIRE(rank.SetInformationForm(*global, global_samples).ok());
  };
  for (int t = 100; t < 800; ++t) {
    all.Learn(t);
    const int r = t % 2;
    ranks[r].MapRow(Input(t), row);
    const std::vector<double> target = Targets(t, 1);
    double prior = 0;
    REQUIRE(ranks[r].LearnRowOutputs(row, target, std::span<double>(&prior, 1)));
    deltas[r].Add(row, target);
    if (deltas[r].count() == 70) sync();
  }
  sync();
  CHECK(ranks[0].samples_learned() == 800);
  CHECK(LargestRelativeDifference(ranks[0], all.checkpoint.learner) < 1e-9);
  CHECK(LargestRelativeDifference(ranks[1], all.checkpoint.learner) < 1e-9);
  // Only the squared loss takes an information form.
  LearnerConfig hinge = ShardConfig();
  hinge.loss = Loss::kHinge;
  CHECK(Learner::Create(hinge)->SetInformationForm(*global, 1).code() ==
        absl::StatusCode::kFailedPrecondition);
}

TEST_CASE("With forgetting, deltas on one clock sum to the closed form of one learner",
          "[merge][delta][forgetting]") {
  // One learner with β < 1 over samples 1..600, against two deltas that got
  // the samples interleaved (odd clocks, even clocks) from an untrained start
  // and were summed at clock 600.
  LearnerConfig config = ShardConfig();
  config.forgetting = 0.99;
  Model<double> all(config);
  const Learner untrained = all.checkpoint.learner;
  const int row_length = untrained.row_length();
  const double refresh = row_length * (1 - config.forgetting) * config.ridge;
  std::vector<InformationDelta> deltas(2, InformationDelta(row_length, 1, config.forgetting, refresh));
  std::vector<double> row(row_length);
  Eigen::MatrixXd closed_form =
      std::pow(config.forgetting, 600) * config.ridge * Eigen::MatrixXd::Identity(row_length, row_length);
  for (int t = 1; t <= 600; ++t) {
    all.Learn(t);
    untrained.MapRow(Input(t), row);
    deltas[t % 2].Add(row, Targets(t, 1), t);
    const Eigen::Map<Eigen::VectorXd> z(row.data(), row_length);
    const double weight = std::pow(config.forgetting, 600 - t);
    closed_form += weight * z * z.transpose();
    closed_form((t - 1) % row_length, (t - 1) % row_length) += weight * refresh;
  }
  absl::StatusOr<Rls::InformationForm> total = untrained.rls().ToInformationForm();
  REQUIRE(total.ok());
  const double decay = std::pow(config.forgetting, 600);
  for (double& value : total->information) value *= decay;
  for (InformationDelta& delta : deltas) {
    const std::span<double> sums = delta.Sums(600);
    for (std::size_t i = 0; i < total->information.size(); ++i) total->information[i] += sums[i];
    for (int i = 0; i < row_length; ++i) total->target_sums[i] += sums[total->information.size() + i];
  }
  const Eigen::Map<const Eigen::MatrixXd> information(total->information.data(), row_length, row_length);
  CHECK((information - closed_form).norm() < 1e-9 * closed_form.norm());
  // The single learner's own A is that closed form; its predictions are the merged model's.
  total->next_refreshed_coordinate = 600 % row_length;
  Learner merged = untrained;
  REQUIRE(merged.SetInformationForm(*total, 600).ok());
  CHECK(LargestRelativeDifference(merged, all.checkpoint.learner) < 1e-9);
}

TEST_CASE("Models that cannot be merged exactly are refused by name", "[merge][errors]") {
  Model<double> a(ShardConfig()), b(ShardConfig());
  LearnerConfig other_gamma = ShardConfig();
  other_gamma.features.gamma = 0.5;
  Model<double> c(other_gamma);
  LearnerConfig forgetting = ShardConfig();
  forgetting.forgetting = 0.99;
  Model<double> d(forgetting), e(forgetting);
  Model<double> f(ShardConfig());
  f.checkpoint.record.task.header = true;
  f.checkpoint.record.task.column_names = {"a", "b", "c", "d", "y"};
  for (int t = 0; t < 10; ++t) a.Learn(t);
  const auto merge = [](std::vector<NamedCheckpoint<double>> named,
                        const NamedCheckpoint<double>* base = nullptr) {
    return std::string(MergeCheckpoints<double>(named, base).status().message());
  };
  CHECK(merge({{"a.rff", &a.checkpoint}, {"c.rff", &c.checkpoint}}) ==
        "c.rff and a.rff are different models: gamma 0.5 against 0.3");
  CHECK(merge({{"d.rff", &d.checkpoint}, {"e.rff", &e.checkpoint}}) ==
        "d.rff: a model with forgetting (beta 0.99 < 1) weighs its samples by their age in its "
        "own stream, so no merge is exact");
  CHECK(merge({{"a.rff", &a.checkpoint}, {"f.rff", &f.checkpoint}}) ==
        "f.rff and a.rff read their input differently (columns, header, classes or warm-up)");
  const NamedCheckpoint<double> base{"a.rff", &a.checkpoint};
  CHECK(merge({{"b.rff", &b.checkpoint}}, &base) ==
        "b.rff has learned 0 samples, fewer than the 10 of the base a.rff it should have started "
        "from");
  CHECK(merge({}) == "merge: no models to merge");
}

}  // namespace
}  // namespace rffstream
