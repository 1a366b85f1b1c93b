#include "internal/information_update.h"

#include <vector>

#include "internal/simd_kernels.h"

namespace rffstream::internal {

template <>
void UpdateInformation(const InformationUpdateArguments<float>& update) {
  ActiveSimdKernelTable().update_information_float(update);
}

template <>
void UpdateInformation(const InformationUpdateArguments<double>& update) {
  ActiveSimdKernelTable().update_information_double(update);
}

template <class Real>
Real InformationQuadraticForm(const Real* factor, std::size_t stride, int dimension, const Real* z) {
  // Solved from the last row up: column i of Q holds Q_ji for j >= i.
  const auto d = static_cast<std::size_t>(dimension);
  // Each thread's scratch, grown once to the largest D it meets: a const
  // model predicts from many threads, and a prediction allocates nothing.
  thread_local std::vector<double> u;
  if (u.size() < d) u.resize(d);
  double form = 0;
  for (std::size_t i = d; i-- > 0;) {
    const Real* column = factor + i * stride;
    double sum = z[i];
    for (std::size_t j = i + 1; j < d; ++j) sum -= static_cast<double>(column[j]) * u[j];
    u[i] = sum / static_cast<double>(column[i]);
    form += u[i] * u[i];
  }
  return static_cast<Real>(form);
}

template float InformationQuadraticForm(const float*, std::size_t, int, const float*);
template double InformationQuadraticForm(const double*, std::size_t, int, const double*);

void InvertLowerTriangular(double* matrix, int dimension) {
  ActiveSimdKernelTable().invert_lower_triangular(matrix, dimension);
}

bool CholeskyLower(double* matrix, int dimension) {
  return ActiveSimdKernelTable().cholesky_lower(matrix, dimension);
}

}  // namespace rffstream::internal
