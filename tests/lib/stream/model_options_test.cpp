// What the model options mean: the configuration they build, the memory
// limit, their agreement with a loaded model, and the model's precision.
#include "rffstream/stream/model_options.h"

#include <string>

#include "catch2/catch.hpp"
#include "rffstream/stream/model_loading.h"
#include "rffstream/checkpoint.h"
#include "rffstream/learner.h"
#include "tests/temp_dir.h"

namespace rffstream {
namespace {

TEST_CASE("Options build the learner configuration", "[model_options]") {
  ModelOptions options;
  options.features = 128;
  options.kernel = KernelKind::kLaplacian;
  options.gamma = 0.25;
  options.ridge = 0.5;
  options.forget = 0.99;
  absl::StatusOr<LearnerConfig> config = LearnerConfigFromOptions(options, 3, 2);
  REQUIRE(config.ok());
  CHECK(config->features.num_features == 128);
  CHECK(config->features.kernel == KernelKind::kLaplacian);
  CHECK(config->features.gamma == 0.25);
  CHECK(config->ridge == 0.5);
  CHECK(config->forgetting == 0.99);
  CHECK(config->num_outputs == 2);
  options.lengthscale = 2.0;
  options.given.Add("gamma");
  CHECK(LearnerConfigFromOptions(options, 3, 1).status().message() ==
        "--gamma and --lengthscale are exclusive: give one");
  ModelOptions zero_gamma;
  zero_gamma.gamma = 0.0;  // not a stand-in for auto
  CHECK(LearnerConfigFromOptions(zero_gamma, 3, 1).status().message() ==
        "--gamma=0: must be a positive number (or auto, to choose it)");
}

TEST_CASE("Automatic choices and outputs follow the options", "[model_options]") {
  ModelOptions options;
  CHECK(GammaFromWarmUp(options));
  CHECK(RidgeFromWarmUp(options));
  CHECK_FALSE(KernelFromWarmUp(options));
  options.lengthscales = {1, 2};
  CHECK_FALSE(GammaFromWarmUp(options));
  InputOptions input;
  CHECK(OutputsFor(input) == 1);
  input.targets = "a,b,c";
  CHECK(OutputsFor(input) == 3);
  input.targets.clear();
  input.classes = 26;
  CHECK(OutputsFor(input) == 26);
  input.targets = "a";
  CHECK(ValidateModelOptions(ModelOptions(), input, /*loads_model=*/false).message() ==
        "--classes and --targets are exclusive");
}

TEST_CASE("Options set away from their defaults count as given, as flags do", "[model_options]") {
  ModelOptions model;
  model.gamma = 0.5;
  model.precision = Precision::kFloat64;
  model.standardize = 100;
  model.given.Add("ridge");  // named at its default: stays given
  NoteChangedOptions(model);
  CHECK(model.given.Has("gamma"));
  CHECK(model.given.Has("precision"));
  CHECK(model.given.Has("standardize"));
  CHECK(model.given.Has("ridge"));
  CHECK_FALSE(model.given.Has("kernel"));
  CHECK_FALSE(model.given.Has("features"));
  InputOptions input;
  input.header = true;
  NoteChangedOptions(input);
  CHECK(input.given.Has("header"));
  CHECK_FALSE(input.given.Has("target"));
}

TEST_CASE("A model larger than the memory limit is refused with its estimate", "[model_options]") {
  ModelOptions options;
  options.features = 20000;
  options.max_model_memory_mb = 100;
  const absl::Status refused = CheckModelFitsMemory(*LearnerConfigFromOptions(options, 4, 1), options);
  CHECK(refused.code() == absl::StatusCode::kResourceExhausted);
  CHECK(refused.message().find("more than the limit of 100 MiB") != std::string::npos);
}

TEST_CASE("Options given with a loaded model repeat it or are named as conflicts",
          "[model_options]") {
  testing::TempDir dir;
  const std::string path = dir.File("model.rff");
  ModelOptions trained;
  trained.features = 16;
  trained.gamma = 0.123456789;
  trained.ridge = 0.1;
  absl::StatusOr<LearnerConfig> config = LearnerConfigFromOptions(trained, 2, 1);
  REQUIRE(config.ok());
  absl::StatusOr<Learner> learner = Learner::Create(*config);
  REQUIRE(learner.ok());
  REQUIRE(SaveCheckpoint(path, *learner, RegressionMetrics()).ok());
  absl::StatusOr<Checkpoint> loaded = LoadCheckpoint<double>(path);
  REQUIRE(loaded.ok());
  ModelOptions repeated = trained;
  repeated.given.Add("features");
  repeated.given.Add("gamma");
  CHECK(CheckOptionsAgreeWithModel(repeated, InputOptions(), loaded->learner.config(),
                                   loaded->record.task, path)
            .ok());
  ModelOptions other = repeated;
  other.features = 32;
  other.seed = 7;
  other.given.Add("seed");
  CHECK(CheckOptionsAgreeWithModel(other, InputOptions(), loaded->learner.config(),
                                   loaded->record.task, path)
            .message() == "flags conflict with the model loaded from " + path +
                              ": --features=32 (the model has 16), --seed=7 (the model has 1)");
  // The model's values as exactly as the user would type them back.
  ModelOptions wider = repeated;
  wider.gamma = 0.5;
  CHECK(CheckOptionsAgreeWithModel(wider, InputOptions(), loaded->learner.config(),
                                   loaded->record.task, path)
            .message() == "flags conflict with the model loaded from " + path +
                              ": --gamma=0.5 (the model has 0.123456789)");
  // The checkpoint decides the precision; --precision may only agree.
  CHECK(*ModelBytesPerNumber(ModelOptions(), path) == 8);
  ModelOptions single;
  single.precision = Precision::kFloat32;
  CHECK(*ModelBytesPerNumber(single, path) == 8);  // not given: the model's
  single.given.Add("precision");
  CHECK(ModelBytesPerNumber(single, path).status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(ModelBytesPerNumber(ModelOptions(), dir.File("missing.rff")).status().code() ==
        absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace rffstream
