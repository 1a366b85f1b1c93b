#include "rffstream/change_detector.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

namespace rffstream {
namespace {

// Squared errors of Gaussian noise of standard deviation `sigma`.
class SquaredNoise {
 public:
  explicit SquaredNoise(unsigned seed) : engine_(seed) {}
  double operator()(double sigma) {
    const double error = sigma * normal_(engine_);
    return error * error;
  }

 private:
  std::mt19937_64 engine_;
  std::normal_distribution<double> normal_;
};

TEST_CASE("A stationary stream raises no alarm", "[change_detector]") {
  for (unsigned seed : {1u, 2u, 3u}) {
    ChangeDetector detector;
    SquaredNoise noise(seed);
    int alarms = 0;
    for (int t = 0; t < 200000; ++t) alarms += detector.Add(noise(1.0)) ? 1 : 0;
    CHECK(alarms == 0);
  }
}

TEST_CASE("A lasting rise of the errors is a change, found within tens of samples",
          "[change_detector]") {
  ChangeDetector detector;
  SquaredNoise noise(7);
  for (int t = 0; t < 5000; ++t) REQUIRE_FALSE(detector.Add(noise(1.0)));
  int found_after = -1;
  for (int t = 0; t < 1000 && found_after < 0; ++t) {
    if (detector.Add(noise(3.0))) found_after = t;  // nine times the squared error
  }
  CHECK(found_after >= 0);
  CHECK(found_after < 60);
  CHECK(detector.last_change_ratio() >= 2.0);
  // It starts over: the new level is the reference, and nothing more fires.
  CHECK(detector.samples_since_change() == 0);
  int alarms = 0;
  for (int t = 0; t < 20000; ++t) alarms += detector.Add(noise(3.0)) ? 1 : 0;
  CHECK(alarms == 0);
}

TEST_CASE("Outliers alone raise no alarm, nor a change before min_samples", "[change_detector]") {
  ChangeDetector detector;
  SquaredNoise noise(11);
  int alarms = 0;
  for (int t = 0; t < 50000; ++t) {
    // One error in 100 is a thousand times the usual squared error.
    alarms += detector.Add(t % 100 == 0 ? 1000.0 : noise(1.0)) ? 1 : 0;
  }
  CHECK(alarms == 0);
  ChangeDetector young;
  for (int t = 0; t < 100; ++t) young.Add(noise(1.0));
  for (int t = 0; t < 150; ++t) CHECK_FALSE(young.Add(noise(10.0)));  // 250 < 300 samples
  CHECK_FALSE(young.Add(std::nan("")));
}

}  // namespace
}  // namespace rffstream
