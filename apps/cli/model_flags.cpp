// The model flags (learn, predict, serve; checked against a loaded model).
// Their defaults are the library's (rffstream/stream/options.h), spelled as
// the library's option parser reads them (rffstream/stream/option_text.h).
#include <cstdint>
#include <string>
#include <utility>

#include "cli/flags.h"
#include "rffstream/stream/option_text.h"

namespace {

std::string DefaultText(std::string_view name) {
  return rffstream::ModelOptionText(rffstream::ModelOptions(), name);
}

}  // namespace

ABSL_FLAG(int, features, rffstream::ModelOptions().features, "number of random Fourier features D (the RLS costs O(D^2))");
ABSL_FLAG(std::string, map, DefaultText("map"),
          "feature map: phase = sqrt(2/D) cos(w.x + b), pair = sqrt(2/D) [cos(w.x), sin(w.x)]");
ABSL_FLAG(std::string, kernel, DefaultText("kernel"),
          "kernel: gaussian exp(-gamma |x-y|^2), laplacian exp(-gamma |x-y|_1), cauchy "
          "prod 1/(1 + gamma (x_j-y_j)^2), matern12, matern32 or matern52 (Matern nu = 1/2, 3/2, "
          "5/2 with lengthscale 1/sqrt(2 gamma)); auto = the one with the least leave-one-out "
          "error on the warm-up window, with its gamma and ridge");
ABSL_FLAG(std::string, sampler, DefaultText("sampler"),
          "frequencies: iid, orthogonal (orthogonal random features) or qmc (randomized "
          "quasi-Monte Carlo); the last two for the gaussian kernel, lower variance");
ABSL_FLAG(std::string, lengthscales, DefaultText("lengthscales"),
          "ARD: one lengthscale per input, comma-separated (each input difference is divided by "
          "its lengthscale; --gamma and --lengthscale are then not used)");
ABSL_FLAG(std::string, gamma, DefaultText("gamma"),
          "kernel bandwidth gamma: a number, or auto = chosen on the warm-up window by exact "
          "leave-one-out error over a grid around the median heuristic (with --ridge=auto, "
          "jointly). Exclusive with --lengthscale and --lengthscales");
ABSL_FLAG(double, lengthscale, rffstream::ModelOptions().lengthscale,
          "kernel lengthscale l, gamma = 1/(2 l^2); 0 = unset. Exclusive with --gamma");
ABSL_FLAG(std::string, ridge, DefaultText("ridge"),
          "ridge regularization strength lambda: a number, or auto = chosen on the warm-up "
          "window by exact leave-one-out error");
ABSL_FLAG(std::string, forget, DefaultText("forget"),
          "forgetting factor beta in (0, 1]: a sample t steps old weighs beta^t; auto = 1 "
          "(every sample weighs the same, exact ridge) until the a-priori errors rise to a new "
          "level and stay there (drift): the model then forgets all but the most recent lines");
ABSL_FLAG(bool, intercept, rffstream::ModelOptions().intercept, "fit a constant offset as an extra feature");
ABSL_FLAG(uint64_t, seed, rffstream::ModelOptions().seed, "seed of the random frequencies (the same on every platform)");
ABSL_FLAG(std::string, precision, DefaultText("precision"),
          "float32 or float64: the precision of the model's arithmetic and storage (float32 "
          "halves the memory traffic of the O(D^2) update, on one thread, a block a line at a "
          "time; float64 for a ridge given far below what the data supports, sums exact to 1e-9, "
          "or --threads and --block at large D)");
ABSL_FLAG(std::string, targets, "",
          "several target columns learned together (names from the header or 0-based indices, "
          "comma-separated); they share the features and P. Output lines hold one prediction "
          "per target");
ABSL_FLAG(int, classes, 0,
          "K > 0: the target column holds a class 0..K-1, learned one-vs-rest as K outputs with "
          "targets +1/-1; the output is the predicted class (argmax), the metrics accuracy and "
          "confusion counts");
ABSL_FLAG(std::string, loss, DefaultText("loss"),
          "squared (ridge regression; one-vs-rest least squares with --classes) or hinge (with "
          "--classes=K: a large-margin classifier, AROW, that learns only from the outputs "
          "inside their margin; one D x D matrix per class)");
ABSL_FLAG(int64_t, max_model_memory_mb, rffstream::ModelOptions().max_model_memory_mb,
          "refuse a model larger than this many MiB (its estimate is printed); 0 = half of the "
          "physical memory");
ABSL_FLAG(int, standardize, rffstream::ModelOptions().standardize,
          "standardize inputs with the mean and standard deviation of the first N lines "
          "(while it fills, its lines are answered by a provisional model; a shorter input uses "
          "what it has); 0 = off");

namespace rffstream::app {

absl::StatusOr<ModelOptions> ModelOptionsFromFlags() {
  ModelOptions options;
  options.features = absl::GetFlag(FLAGS_features);
  options.lengthscale = absl::GetFlag(FLAGS_lengthscale);
  options.intercept = absl::GetFlag(FLAGS_intercept);
  options.seed = absl::GetFlag(FLAGS_seed);
  // The options spelled as words or "auto", read by the library's one parser.
  for (const auto& [name, flag] : {std::pair{"map", &FLAGS_map}, {"kernel", &FLAGS_kernel},
                                   {"sampler", &FLAGS_sampler}, {"lengthscales", &FLAGS_lengthscales},
                                   {"gamma", &FLAGS_gamma}, {"ridge", &FLAGS_ridge},
                                   {"forget", &FLAGS_forget}, {"precision", &FLAGS_precision},
                                   {"loss", &FLAGS_loss}}) {
    if (absl::Status set = SetModelOption(options, name, absl::GetFlag(*flag)); !set.ok()) {
      return set;
    }
  }
  options.max_model_memory_mb = absl::GetFlag(FLAGS_max_model_memory_mb);
  options.standardize = absl::GetFlag(FLAGS_standardize);
  for (const auto* flag : {&FLAGS_map, &FLAGS_kernel, &FLAGS_sampler, &FLAGS_lengthscales,
                           &FLAGS_gamma, &FLAGS_ridge, &FLAGS_precision, &FLAGS_loss}) {
    NoteIfGiven(*flag, options.given);
  }
  NoteIfGiven(FLAGS_features, options.given);
  NoteIfGiven(FLAGS_standardize, options.given);
  NoteIfGiven(FLAGS_lengthscale, options.given);
  NoteIfGiven(FLAGS_forget, options.given);
  NoteIfGiven(FLAGS_intercept, options.given);
  NoteIfGiven(FLAGS_seed, options.given);
  return options;
}

}  // namespace rffstream::app
