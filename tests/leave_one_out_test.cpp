#include "rffstream/leave_one_out.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>
#include <vector>

#include "Eigen/Dense"

namespace rffstream {
namespace {

// The definition: refit without row i, predict row i.
double BruteForceLeaveOneOut(const Eigen::MatrixXd& z, const Eigen::MatrixXd& y, double ridge) {
  double sum = 0;
  for (int i = 0; i < z.rows(); ++i) {
    Eigen::MatrixXd z_rest(z.rows() - 1, z.cols());
    Eigen::MatrixXd y_rest(y.rows() - 1, y.cols());
    for (int r = 0, k = 0; r < z.rows(); ++r) {
      if (r == i) continue;
      z_rest.row(k) = z.row(r);
      y_rest.row(k++) = y.row(r);
    }
    const Eigen::MatrixXd a =
        z_rest.transpose() * z_rest + ridge * Eigen::MatrixXd::Identity(z.cols(), z.cols());
    const Eigen::MatrixXd w = a.ldlt().solve(z_rest.transpose() * y_rest);
    sum += (y.row(i) - z.row(i) * w).squaredNorm();
  }
  return sum / static_cast<double>(z.rows() * y.cols());
}

TEST_CASE("Leave-one-out errors equal refitting without each row", "[leave_one_out]") {
  // Tall (rows > features) and wide (rows < features), one and two outputs.
  for (const auto& [rows, dimension, outputs] : {std::tuple{40, 7, 1}, std::tuple{12, 30, 2}}) {
    Eigen::MatrixXd z(rows, dimension), y(rows, outputs);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < dimension; ++j) z(i, j) = std::cos(0.7 * i * (j + 1) + j);
      for (int k = 0; k < outputs; ++k) y(i, k) = std::sin(0.3 * i + k) + 0.1 * std::cos(5.0 * i);
    }
    const Eigen::Matrix<double, -1, -1, Eigen::RowMajor> z_rows = z, y_rows = y;
    const std::vector<double> ridges = {1e-3, 0.1, 10};
    absl::StatusOr<std::vector<double>> errors = LeaveOneOutErrors(
        std::span<const double>(z_rows.data(), z_rows.size()), rows, dimension,
        std::span<const double>(y_rows.data(), y_rows.size()), outputs, ridges);
    REQUIRE(errors.ok());
    for (std::size_t r = 0; r < ridges.size(); ++r) {
      INFO(rows << " x " << dimension << ", ridge " << ridges[r]);
      CHECK((*errors)[r] == Approx(BruteForceLeaveOneOut(z, y, ridges[r])).epsilon(1e-8));
    }
  }
}

TEST_CASE("Leave-one-out input errors are named", "[leave_one_out][errors]") {
  const std::vector<double> one_row = {1, 2}, target = {1};
  const std::vector<double> ridges = {0.1};
  CHECK(LeaveOneOutErrors(one_row, 1, 2, target, 1, ridges).status().message() ==
        "leave-one-out: needs at least 2 rows, 1 feature and 1 output, got 1, 2 and 1");
  const std::vector<double> rows = {1, 2, 3, 4}, targets = {1, std::nan("")};
  CHECK(LeaveOneOutErrors(rows, 2, 2, targets, 1, ridges).status().message() ==
        "leave-one-out: a feature or target is not finite");
  const std::vector<double> zero = {0};
  CHECK(LeaveOneOutErrors(rows, 2, 2, std::vector<double>{1, 2}, 1, zero).status().message() ==
        "leave-one-out: ridge 0 is not positive");
}

}  // namespace
}  // namespace rffstream
