#include "rffstream/information_delta.h"

#include <algorithm>

#include "Eigen/Dense"

namespace rffstream {
namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace

InformationDelta::InformationDelta(int dimension, int outputs)
    : dimension_(dimension),
      outputs_(outputs),
      sums_(static_cast<std::size_t>(dimension) * dimension + static_cast<std::size_t>(outputs) * dimension + 1, 0.0),
      rows_(static_cast<std::size_t>(kBlockRows) * dimension),
      targets_(static_cast<std::size_t>(kBlockRows) * outputs) {}

template <class Real>
void InformationDelta::Add(std::span<const Real> row, std::span<const Real> targets) {
  std::copy(row.begin(), row.end(), rows_.begin() + static_cast<std::ptrdiff_t>(waiting_) * dimension_);
  std::copy(targets.begin(), targets.end(),
            targets_.begin() + static_cast<std::ptrdiff_t>(waiting_) * outputs_);
  ++count_;
  if (++waiting_ == kBlockRows) Fold();
}

void InformationDelta::Fold() {
  if (waiting_ == 0) return;
  const Eigen::Map<const RowMatrix> rows(rows_.data(), waiting_, dimension_);
  const Eigen::Map<const RowMatrix> targets(targets_.data(), waiting_, outputs_);
  Eigen::Map<RowMatrix> information(sums_.data(), dimension_, dimension_);
  information.selfadjointView<Eigen::Lower>().rankUpdate(rows.transpose());
  Eigen::Map<RowMatrix> target_sums(sums_.data() + static_cast<std::size_t>(dimension_) * dimension_,
                                    outputs_, dimension_);
  target_sums.noalias() += targets.transpose() * rows;
  waiting_ = 0;
}

std::span<double> InformationDelta::Sums() {
  Fold();
  // The rank-k products fill the lower triangle: mirror it.
  Eigen::Map<RowMatrix> information(sums_.data(), dimension_, dimension_);
  information.triangularView<Eigen::StrictlyUpper>() = information.transpose();
  sums_.back() = static_cast<double>(count_);
  return sums_;
}

void InformationDelta::Clear() {
  std::fill(sums_.begin(), sums_.end(), 0.0);
  waiting_ = 0;
  count_ = 0;
}

template void InformationDelta::Add(std::span<const float>, std::span<const float>);
template void InformationDelta::Add(std::span<const double>, std::span<const double>);

}  // namespace rffstream
