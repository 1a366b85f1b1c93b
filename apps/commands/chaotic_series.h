// File: apps/commands/chaotic_series.h
//
// Chaotic time series generated in-process, for the built-in demo and the
// tests (through `rffstream generate`): deterministic, no data files needed.
//
// Mackey–Glass (Mackey & Glass 1977), the classic kernel-adaptive-filtering
// benchmark:  ds/dt = a s(t-τ) / (1 + s(t-τ)^10) - b s(t), with a = 0.2,
// b = 0.1, τ = 17, s = 1.2 on t ≤ 0, integrated by fourth-order Runge–Kutta
// with step 0.1 (the delayed term linearly interpolated at half steps) and
// sampled every 1 time unit.
//
// Lorenz (Lorenz 1963): dx/dt = σ(y - x), dy/dt = x(ρ - z) - y,
// dz/dt = xy - βz with σ = 10, ρ = 28, β = 8/3 from (1, 1, 1), RK4 with step
// 0.01, x sampled every 0.05 time units.
#ifndef RFFSTREAM_APPS_CHAOTIC_SERIES_H_
#define RFFSTREAM_APPS_CHAOTIC_SERIES_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rffstream::app {

// "mackey-glass" or "lorenz".
[[nodiscard]] absl::StatusOr<std::vector<double>> GenerateSeries(std::string_view name, int length);

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_CHAOTIC_SERIES_H_
