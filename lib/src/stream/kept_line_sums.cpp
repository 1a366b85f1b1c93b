#include "stream/kept_line_sums.h"

#include <algorithm>
#include <array>
#include <vector>

namespace rffstream::internal {
namespace {

// The kept lines mapped by `map` (the model's precision, as it maps them),
// with a column of ones for an intercept: one row each.
template <class Real>
Eigen::MatrixXd MappedRows(const BasicFeatureMap<Real>& map, bool intercept,
                           std::span<const double> inputs) {
  const Eigen::Index rows = static_cast<Eigen::Index>(inputs.size()) / map.input_dimension();
  const Eigen::Index features = map.num_features();
  std::vector<Real> mapped(static_cast<std::size_t>(rows * features));
  map.MapBlock(inputs, mapped);
  Eigen::MatrixXd result(rows, features + (intercept ? 1 : 0));
  result.leftCols(features) =
      Eigen::Map<const Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          mapped.data(), rows, features)
          .template cast<double>();
  if (intercept) result.col(features).setOnes();
  return result;
}

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr int kGramParts = 2;

}  // namespace

template <class Real>
LineSums SumsOverLines(const BasicFeatureMap<Real>& map, bool intercept,
                       const BandwidthFollowState& state, ThreadPool* pool) {
  const Eigen::MatrixXd rows = MappedRows(map, intercept, state.inputs);
  const Eigen::Map<const RowMajor> targets(
      state.targets.data(), rows.rows(),
      static_cast<Eigen::Index>(state.targets.size()) / std::max<Eigen::Index>(rows.rows(), 1));
  std::array<Eigen::MatrixXd, kGramParts> grams;
  auto gram_of_part = [&](int part) {
    const Eigen::Index first = rows.rows() * part / kGramParts;
    const Eigen::Index end = rows.rows() * (part + 1) / kGramParts;
    grams[part] = Eigen::MatrixXd::Zero(rows.cols(), rows.cols());
    grams[part].selfadjointView<Eigen::Lower>().rankUpdate(
        rows.middleRows(first, end - first).transpose());
  };
  if (pool != nullptr && pool->size() >= kGramParts) {
    pool->Run(kGramParts, gram_of_part);
  } else {
    for (int part = 0; part < kGramParts; ++part) gram_of_part(part);
  }
  LineSums sums;
  sums.gram = grams[0];
  for (int part = 1; part < kGramParts; ++part) sums.gram += grams[part];
  sums.gram.triangularView<Eigen::StrictlyUpper>() = sums.gram.transpose();
  sums.target_sums = rows.transpose() * targets;
  sums.target_squares = targets.colwise().squaredNorm().transpose();
  sums.lines = rows.rows();
  return sums;
}


void SumOverRanks(const std::function<void(std::span<double>)>& sum, LineSums& sums) {
  std::vector<double> all(sums.gram.data(), sums.gram.data() + sums.gram.size());
  all.insert(all.end(), sums.target_sums.data(), sums.target_sums.data() + sums.target_sums.size());
  all.insert(all.end(), sums.target_squares.data(),
             sums.target_squares.data() + sums.target_squares.size());
  all.push_back(static_cast<double>(sums.lines));
  sum(all);
  const double* next = all.data();
  for (Eigen::MatrixXd* part : {&sums.gram, &sums.target_sums}) {
    std::copy_n(next, part->size(), part->data());
    next += part->size();
  }
  std::copy_n(next, sums.target_squares.size(), sums.target_squares.data());
  sums.lines = static_cast<Eigen::Index>(all.back());
}

template LineSums SumsOverLines(const BasicFeatureMap<float>&, bool, const BandwidthFollowState&,
                                ThreadPool*);
template LineSums SumsOverLines(const BasicFeatureMap<double>&, bool, const BandwidthFollowState&,
                                ThreadPool*);

}  // namespace rffstream::internal
