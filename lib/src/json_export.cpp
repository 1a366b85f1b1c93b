#include "rffstream/json_export.h"

#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "rffstream/version.h"

namespace rffstream {
namespace {

// JSON has no NaN or infinity: null says "no number" in a file that still parses.
std::string Number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

template <class Real>
void WriteArray(std::ostream& out, std::span<const Real> values) {
  out << '[';
  for (size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << Number(values[i]);
  out << ']';
}

// A row-major matrix as an array of rows.
template <class Real>
void WriteMatrix(std::ostream& out, std::span<const Real> values, size_t columns,
                 const char* indent) {
  out << '[';
  for (size_t row = 0; row * columns < values.size(); ++row) {
    out << (row ? ",\n" : "\n") << indent;
    WriteArray(out, values.subspan(row * columns, columns));
  }
  out << ']';
}

void WriteColumns(std::ostream& out, const std::vector<int>& columns) {
  out << "[";
  for (std::size_t i = 0; i < columns.size(); ++i) out << (i ? ", " : "") << columns[i];
  out << "]";
}

// The rules are the parser's (csv_line_parser.h), spelled out for a reader
// that reproduces x without rffstream.
void WriteInput(std::ostream& out, const Task& task) {
  out << ",\n  \"input\": {\n    \"format\": \"" << std::string(InputFormatName(task.format))
      << "\",\n    \"column_names\": [";
  for (std::size_t i = 0; i < task.column_names.size(); ++i) {
    out << (i ? ", " : "") << '"';
    for (const char c : task.column_names[i]) {
      if (c == '"' || c == '\\') out << '\\';
      if (static_cast<unsigned char>(c) >= 0x20) out << c;
    }
    out << '"';
  }
  out << "],\n    \"target_columns\": ";
  WriteColumns(out, task.target_columns);
  out << ",\n    \"ignored_columns\": ";
  WriteColumns(out, task.ignored_columns);
  out << ",\n    \"categorical_columns\": ";
  WriteColumns(out, task.categorical_columns);
  out << ",\n    \"category_buckets\": " << task.category_buckets << ",\n";
  out << "    \"layout\": \"x holds the input columns (neither target nor ignored) in order: a "
         "number column one value, a categorical column category_buckets values\",\n";
  out << "    \"category_rule\": \"h = 64-bit FNV-1a of the value's text (quotes and surrounding "
         "blanks removed); buckets h mod B and (h >> 32) mod B (if equal, the second is the next "
         "one mod B) are sqrt(1/2), the others 0; a missing value sets none\",\n";
  out << "    \"missing_rule\": \"a missing number (an empty field, NA, N/A, NaN, null, None or ?, "
         "any case) is input_offset of its input (0 when input_offset is empty)\"\n  }";
}

// The model's settings, from "format" to "num_outputs".
template <class Real>
void WriteSettings(const BasicLearner<Real>& learner, std::ostream& out) {
  const LearnerConfig& config = learner.config();
  const BasicFeatureMap<Real>& map = learner.feature_map();
  const size_t num_features = static_cast<size_t>(map.num_features());
  out << "  \"format\": \"rffstream-model\",\n";
  out << "  \"library_version\": \"" << kVersion << "\",\n";
  out << "  \"precision\": \"float" << 8 * sizeof(Real) << "\",\n";
  out << "  \"kernel\": \"" << std::string(KernelKindName(config.features.kernel)) << "\",\n";
  out << "  \"map\": \"" << std::string(FeatureMapKindName(config.features.map)) << "\",\n";
  out << "  \"sampler\": \"" << std::string(FrequencySamplerName(config.features.sampler)) << "\",\n";
  out << "  \"loss\": \"" << std::string(LossName(config.loss)) << "\",\n";
  out << "  \"input_dimension\": " << map.input_dimension() << ",\n";
  out << "  \"num_features\": " << num_features << ",\n";
  out << "  \"num_frequencies\": " << map.num_frequencies() << ",\n";
  out << "  \"gamma\": " << Number(config.features.gamma) << ",\n";
  out << "  \"seed\": " << config.features.seed << ",\n";
  out << "  \"ridge\": " << Number(config.ridge) << ",\n";
  out << "  \"forgetting\": " << Number(config.forgetting) << ",\n";
  out << "  \"samples_learned\": " << learner.samples_learned() << ",\n";
  out << "  \"lengthscales\": ";
  WriteArray<double>(out, config.features.lengthscales);
  out << ",\n  \"input_offset\": ";
  WriteArray<double>(out, config.features.input_offset);
  out << ",\n  \"input_scale\": ";
  WriteArray<double>(out, config.features.input_scale);
  out << ",\n  \"scale\": " << Number(map.scale()) << ",\n";
  out << "  \"feature_weights\": ";
  WriteArray<Real>(out, map.feature_weights());
  out << ",\n";
  out << "  \"intercept\": " << (config.intercept ? "true" : "false") << ",\n";
  out << "  \"num_outputs\": " << config.num_outputs << ",\n";
}

// The phases of the raw inputs: the map centres some inputs before the
// projection (FeatureMap::centres()); the export folds them back, in double.
template <class Real>
std::vector<double> RawInputPhases(const BasicFeatureMap<Real>& map) {
  std::vector<double> phases(map.offsets().begin(), map.offsets().end());
  const auto d = static_cast<size_t>(map.input_dimension());
  for (size_t i = 0; i < phases.size(); ++i) {
    for (size_t j = 0; j < d; ++j) {
      phases[i] -= static_cast<double>(map.projection()[i * d + j]) * map.centres()[j];
    }
  }
  return phases;
}

}  // namespace

template <class Real>
void ExportJson(const BasicLearner<Real>& learner, std::ostream& out,
                const JsonExportOptions& options) {
  const LearnerConfig& config = learner.config();
  const BasicFeatureMap<Real>& map = learner.feature_map();
  const std::span<const Real> weights = learner.weights();  // for the covariance's size
  const size_t num_features = static_cast<size_t>(map.num_features());
  out << "{\n";
  WriteSettings(learner, out);
  // One output: numbers; several: one array entry per output. The targets'
  // offsets, which the model learned the targets less, are folded in.
  const std::vector<double> none;
  const std::vector<double>& offsets = options.task != nullptr ? options.task->target_offsets : none;
  const auto intercept_of = [&](int output) {
    const double weight = config.intercept ? learner.weights(output)[num_features] : 0.0;
    return Number(weight + (offsets.empty() ? 0.0 : offsets[static_cast<std::size_t>(output)]));
  };
  const bool several = config.num_outputs > 1;
  out << "  \"intercept_weight\": " << (several ? "[" : "");
  for (int output = 0; output < config.num_outputs; ++output) {
    out << (output ? ", " : "") << intercept_of(output);
  }
  out << (several ? "]" : "") << ",\n  \"weights\": " << (several ? "[" : "");
  for (int output = 0; output < config.num_outputs; ++output) {
    out << (output ? ",\n    " : "");
    WriteArray(out, learner.weights(output).first(num_features));
  }
  out << (several ? "]" : "");
  out << ",\n  \"phases\": ";
  WriteArray<double>(out, RawInputPhases(map));
  out << ",\n  \"frequencies\": ";
  WriteMatrix(out, map.projection(), static_cast<size_t>(map.input_dimension()), "    ");
  if (options.include_covariance) {
    // The squared loss: the P all outputs share. The hinge loss: one P per
    // output, in an array like the weights.
    const int covariances = config.loss == Loss::kHinge ? config.num_outputs : 1;
    out << ",\n  \"covariance\": " << (covariances > 1 ? "[" : "");
    for (int output = 0; output < covariances; ++output) {
      out << (output ? ",\n    " : "");
      const std::vector<Real> covariance = learner.rls(output).CovarianceMatrix();
      WriteMatrix<Real>(out, covariance, weights.size(), "    ");
    }
    out << (covariances > 1 ? "]" : "");
  }
  if (options.task != nullptr && options.task->format != InputFormat::kLibsvm) {
    WriteInput(out, *options.task);
  }
  if (options.target_range != nullptr && !options.target_range->empty() &&
      !options.target_range->unbounded()) {
    out << ",\n  \"target_range\": [";
    for (int output = 0; output < options.target_range->num_outputs(); ++output) {
      out << (output ? ", [" : "[") << Number(options.target_range->lows()[output]) << ", "
          << Number(options.target_range->highs()[output]) << "]";
    }
    out << "]";
  }
  out << "\n}\n";
}

template void ExportJson(const BasicLearner<float>&, std::ostream&, const JsonExportOptions&);
template void ExportJson(const BasicLearner<double>&, std::ostream&, const JsonExportOptions&);

}  // namespace rffstream
