#include "commands/chaotic_series.h"

#include <array>
#include <cmath>
#include <deque>
#include <string>

#include "absl/strings/str_cat.h"

namespace rffstream::app {
namespace {

std::vector<double> MackeyGlassSeries(int length) {
  constexpr double kA = 0.2, kB = 0.1, kStep = 0.1, kInitial = 1.2;
  constexpr int kDelaySteps = 170;  // τ = 17 at step 0.1
  constexpr int kStepsPerSample = 10;
  constexpr int kBurnInSamples = 300;  // leave the transient from the constant history
  const auto derivative = [](double s, double delayed) {
    return kA * delayed / (1.0 + std::pow(delayed, 10)) - kB * s;
  };
  std::deque<double> history(kDelaySteps + 1, kInitial);  // s(t - τ) .. s(t)
  std::vector<double> series;
  series.reserve(length);
  double s = kInitial;
  for (long step = 0; static_cast<int>(series.size()) < length; ++step) {
    const double delayed_now = history.front();
    const double delayed_next = history[1];
    const double delayed_half = 0.5 * (delayed_now + delayed_next);
    const double k1 = derivative(s, delayed_now);
    const double k2 = derivative(s + 0.5 * kStep * k1, delayed_half);
    const double k3 = derivative(s + 0.5 * kStep * k2, delayed_half);
    const double k4 = derivative(s + kStep * k3, delayed_next);
    s += kStep / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
    history.pop_front();
    history.push_back(s);
    if ((step + 1) % kStepsPerSample == 0 && (step + 1) / kStepsPerSample > kBurnInSamples) {
      series.push_back(s);
    }
  }
  return series;
}

std::vector<double> LorenzSeries(int length) {
  constexpr double kSigma = 10.0, kRho = 28.0, kBeta = 8.0 / 3.0, kStep = 0.01;
  constexpr int kStepsPerSample = 5;
  constexpr int kBurnInSamples = 200;
  using State = std::array<double, 3>;
  const auto derivative = [](const State& v) {
    return State{kSigma * (v[1] - v[0]), v[0] * (kRho - v[2]) - v[1], v[0] * v[1] - kBeta * v[2]};
  };
  const auto add = [](const State& v, const State& d, double h) {
    return State{v[0] + h * d[0], v[1] + h * d[1], v[2] + h * d[2]};
  };
  State v{1.0, 1.0, 1.0};
  std::vector<double> series;
  series.reserve(length);
  for (long step = 0; static_cast<int>(series.size()) < length; ++step) {
    const State k1 = derivative(v);
    const State k2 = derivative(add(v, k1, 0.5 * kStep));
    const State k3 = derivative(add(v, k2, 0.5 * kStep));
    const State k4 = derivative(add(v, k3, kStep));
    for (int i = 0; i < 3; ++i) v[i] += kStep / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    if ((step + 1) % kStepsPerSample == 0 && (step + 1) / kStepsPerSample > kBurnInSamples) {
      series.push_back(v[0]);
    }
  }
  return series;
}

}  // namespace

absl::StatusOr<std::vector<double>> GenerateSeries(std::string_view name, int length) {
  if (name == "mackey-glass") return MackeyGlassSeries(length);
  if (name == "lorenz") return LorenzSeries(length);
  return absl::InvalidArgumentError(
      absl::StrCat("unknown series '", std::string(name), "' (expected mackey-glass or lorenz)"));
}

}  // namespace rffstream::app
