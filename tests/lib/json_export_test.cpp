// The exported JSON must let an independent program reproduce predictions:
// this test parses it with its own small JSON reader and recomputes them with
// the formula documented in json_export.h, in plain double arithmetic.
#include "rffstream/json_export.h"
#include "rffstream/leverage_features.h"

#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace rffstream {
namespace {

struct JsonValue {
  double number = 0;
  std::string text;
  bool boolean = false;
  std::vector<JsonValue> items;
  std::map<std::string, JsonValue> fields;
};

class JsonReader {
 public:
  explicit JsonReader(std::string text) : text_(std::move(text)) {}

  JsonValue Parse() {
    SkipSpace();
    JsonValue value;
    const char c = text_[position_];
    if (c == '{') {
      ++position_;
      while (Next() != '}') {
        if (Peek() == ',') ++position_;
        const std::string key = Parse().text;
        REQUIRE(Next() == ':');
        ++position_;
        value.fields[key] = Parse();
      }
      ++position_;
    } else if (c == '[') {
      ++position_;
      while (Next() != ']') {
        if (Peek() == ',') ++position_;
        value.items.push_back(Parse());
      }
      ++position_;
    } else if (c == '"') {
      const size_t end = text_.find('"', position_ + 1);
      value.text = text_.substr(position_ + 1, end - position_ - 1);
      position_ = end + 1;
    } else if (text_.compare(position_, 4, "true") == 0 || text_.compare(position_, 5, "false") == 0) {
      value.boolean = c == 't';
      position_ += value.boolean ? 4 : 5;
    } else {
      size_t used = 0;
      value.number = std::stod(text_.substr(position_, 40), &used);
      position_ += used;
    }
    return value;
  }

 private:
  void SkipSpace() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
  }
  char Next() {
    SkipSpace();
    return text_[position_];
  }
  char Peek() { return Next(); }

  std::string text_;
  size_t position_ = 0;
};

double PredictFromJson(const JsonValue& model, const std::vector<double>& x) {
  const auto& frequencies = model.fields.at("frequencies").items;
  const auto& phases = model.fields.at("phases").items;
  const auto& weights = model.fields.at("weights").items;
  const double scale = model.fields.at("scale").number;
  const auto& feature_weights = model.fields.at("feature_weights").items;
  const auto weighed = [&](size_t feature) {
    return feature_weights.empty() ? scale : scale * feature_weights[feature].number;
  };
  const bool pair = model.fields.at("map").text == "pair";
  const size_t m = frequencies.size();
  double prediction = model.fields.at("intercept_weight").number;
  for (size_t i = 0; i < m; ++i) {
    double argument = phases[i].number;
    for (size_t j = 0; j < x.size(); ++j) argument += frequencies[i].items[j].number * x[j];
    prediction += weights[i].number * weighed(i) * std::cos(argument);
    if (pair) prediction += weights[m + i].number * weighed(m + i) * std::sin(argument);
  }
  return prediction;
}

template <class Real>
void CheckExportReproducesPredictions(FeatureMapKind map, bool intercept, bool leverage) {
  LearnerConfig config;
  config.features.input_dimension = 3;
  config.features.num_features = 40;
  config.features.gamma = 0.4;
  config.features.map = map;
  config.features.input_offset = {1.0, 2.0, -1.0};
  config.features.input_scale = {0.5, 2.0, 1.0};
  config.intercept = intercept;
  if (leverage) {
    std::vector<double> window;
    for (int t = 0; t < 50; ++t) {
      window.insert(window.end(), {std::sin(0.1 * t), 2 * std::cos(0.3 * t), 0.01 * t});
    }
    absl::StatusOr<FeatureMapConfig> selected =
        SelectFeaturesByLeverage(config.features, config.ridge, window);
    REQUIRE(selected.ok());
    config.features = *selected;
  }
  absl::StatusOr<BasicLearner<Real>> learner = BasicLearner<Real>::Create(config);
  REQUIRE(learner.ok());
  for (int t = 0; t < 300; ++t) {
    const std::vector<double> x = {std::sin(0.1 * t), std::cos(0.3 * t), 0.01 * t};
    learner->Learn(x, Real(x[0] * x[1] + 3));
  }
  std::stringstream json;
  ExportJson(*learner, json, {.include_covariance = true});
  const JsonValue model = JsonReader(json.str()).Parse();
  CHECK(model.fields.at("format").text == "rffstream-model");
  CHECK(model.fields.at("covariance").items.size() == learner->weights().size());
  for (int t = 0; t < 20; ++t) {
    const std::vector<double> x = {std::cos(0.7 * t), std::sin(0.2 * t), 0.1 * t};
    const double expected = learner->Predict(x);
    CHECK(PredictFromJson(model, x) == Approx(expected).epsilon(1e-6));
  }
}

TEST_CASE("Predictions recomputed from the JSON export match the library", "[json_export]") {
  for (FeatureMapKind map : {FeatureMapKind::kPhase, FeatureMapKind::kPair}) {
    for (bool intercept : {true, false}) {
      for (bool leverage : {false, true}) {
        CheckExportReproducesPredictions<double>(map, intercept, leverage);
        CheckExportReproducesPredictions<float>(map, intercept, leverage);
      }
    }
  }
}

}  // namespace
}  // namespace rffstream
