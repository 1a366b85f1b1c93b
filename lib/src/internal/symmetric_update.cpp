#include "internal/symmetric_update.h"

#include "internal/simd_kernels.h"

namespace rffstream::internal {

void UpdateAndMultiplySymmetric(float* matrix, int dimension, float scale, const float* u,
                                float a, const float* g, float b, bool bottom_up, const float* z,
                                float* product, int first_row, int end_row) {
  ActiveSimdKernelTable().update_and_multiply_float(matrix, dimension, scale, u, a, g, b,
                                                    bottom_up, z, product, first_row, end_row);
}

void UpdateAndMultiplySymmetric(double* matrix, int dimension, double scale, const double* u,
                                double a, const double* g, double b, bool bottom_up,
                                const double* z, double* product, int first_row, int end_row) {
  ActiveSimdKernelTable().update_and_multiply_double(matrix, dimension, scale, u, a, g, b,
                                                     bottom_up, z, product, first_row, end_row);
}

}  // namespace rffstream::internal
