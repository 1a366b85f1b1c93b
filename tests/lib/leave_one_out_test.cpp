#include "rffstream/leave_one_out.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>
#include <vector>

#include "Eigen/Dense"

namespace rffstream {
namespace {

struct BruteForce {
  double squared_error = 0;
  double misclassification = 0;
  double squared_error_spread = 0;  // the standard error of the rows' mean
  double misclassification_spread = 0;
};

// The definition: refit without row i, predict row i.
BruteForce BruteForceLeaveOneOut(const Eigen::MatrixXd& z, const Eigen::MatrixXd& y, double ridge) {
  BruteForce result;
  std::vector<double> row_errors;
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
    const Eigen::RowVectorXd prediction = z.row(i) * w;
    row_errors.push_back((y.row(i) - prediction).squaredNorm() / static_cast<double>(y.cols()));
    Eigen::Index predicted = 0, actual = 0;
    prediction.maxCoeff(&predicted);
    y.row(i).maxCoeff(&actual);
    result.misclassification += predicted == actual ? 0 : 1;
  }
  const double n = static_cast<double>(z.rows());
  for (double error : row_errors) result.squared_error += error / n;
  double deviations = 0;
  for (double error : row_errors) deviations += std::pow(error - result.squared_error, 2);
  // The sample standard deviation over √n.
  result.squared_error_spread = std::sqrt(deviations / (n - 1) / n);
  result.misclassification /= n;
  const double p = result.misclassification;
  result.misclassification_spread = std::sqrt(p * (1 - p) / (n - 1));
  return result;
}

TEST_CASE("Leave-one-out errors equal refitting without each row", "[leave_one_out]") {
  // Tall (rows > features) and wide (rows < features), one output, and three
  // one-vs-rest outputs (±1) whose argmax is the class.
  for (const auto& [rows, dimension, outputs] :
       {std::tuple{40, 7, 1}, std::tuple{12, 30, 3}, std::tuple{60, 9, 3}}) {
    Eigen::MatrixXd z(rows, dimension), y(rows, outputs);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < dimension; ++j) z(i, j) = std::cos(0.7 * i * (j + 1) + j);
      if (outputs == 1) {
        y(i, 0) = std::sin(0.3 * i) + 0.1 * std::cos(5.0 * i);
        continue;
      }
      const int label = static_cast<int>(std::floor(1.5 * (1 + std::sin(0.3 * i + 0.2 * (i % 7)))));
      for (int k = 0; k < outputs; ++k) y(i, k) = k == std::min(label, outputs - 1) ? 1 : -1;
    }
    const Eigen::Matrix<double, -1, -1, Eigen::RowMajor> z_rows = z, y_rows = y;
    const std::vector<double> ridges = {1e-3, 0.1, 10};
    absl::StatusOr<LeaveOneOutTable> errors = LeaveOneOutErrors(
        std::span<const double>(z_rows.data(), z_rows.size()), rows, dimension,
        std::span<const double>(y_rows.data(), y_rows.size()), outputs, ridges);
    REQUIRE(errors.ok());
    REQUIRE(errors->squared_error.size() == ridges.size());
    REQUIRE(errors->misclassification.size() == ridges.size());
    for (std::size_t r = 0; r < ridges.size(); ++r) {
      INFO(rows << " x " << dimension << ", " << outputs << " outputs, ridge " << ridges[r]);
      const BruteForce expected = BruteForceLeaveOneOut(z, y, ridges[r]);
      CHECK(errors->squared_error[r] == Approx(expected.squared_error).epsilon(1e-8));
      CHECK(errors->misclassification[r] == expected.misclassification);
      CHECK(errors->squared_error_spread[r] ==
            Approx(expected.squared_error_spread).epsilon(1e-6));
      CHECK(errors->misclassification_spread[r] ==
            Approx(expected.misclassification_spread).margin(1e-12));
      CHECK(&errors->spread_by(LeaveOneOutCriterion::kMisclassification) ==
            &errors->misclassification_spread);
      CHECK(&errors->by(LeaveOneOutCriterion::kSquaredError) == &errors->squared_error);
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
