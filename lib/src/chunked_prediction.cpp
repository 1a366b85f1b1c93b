#include "internal/chunked_prediction.h"

#include <algorithm>

#include "internal/dot_product.h"

namespace rffstream::internal {

template <class Real>
Real PredictionChunkTerm(const Real* weights, const Real* row, int count) {
  return DotProduct(weights, row, static_cast<std::size_t>(count));
}

template <class Real>
Real ChunkedPrediction(const Real* weights, const Real* row, std::size_t count) {
  Real sum = 0;
  for (std::size_t first = 0; first < count; first += kPredictionChunk) {
    const auto chunk = static_cast<int>(std::min<std::size_t>(kPredictionChunk, count - first));
    sum += PredictionChunkTerm(weights + first, row + first, chunk);
  }
  return sum;
}

template float PredictionChunkTerm(const float*, const float*, int);
template double PredictionChunkTerm(const double*, const double*, int);
template float ChunkedPrediction(const float*, const float*, std::size_t);
template double ChunkedPrediction(const double*, const double*, std::size_t);

}  // namespace rffstream::internal
