// File: internal/chunked_prediction.h
//
// The one arithmetic of a prediction w·z, shared by every path so that they
// give the same bits: the row z (the features, then the intercept's 1) is
// taken in chunks of kPredictionChunk values, and the chunks' dot products
// are added in order, starting from zero. Learner::Predict() maps one chunk
// of features at a time into a stack buffer (const, thread-safe, no
// scratch); the row paths and the RLS's a-priori predictions take the same
// chunks of a mapped row. Both functions live in one translation unit, so
// that every caller gets the same compiled arithmetic.
#ifndef RFFSTREAM_INTERNAL_CHUNKED_PREDICTION_H_
#define RFFSTREAM_INTERNAL_CHUNKED_PREDICTION_H_

#include <cstddef>

namespace rffstream::internal {

inline constexpr int kPredictionChunk = 128;

// Σ weights_i row_i over one chunk (count <= kPredictionChunk).
template <class Real>
Real PredictionChunkTerm(const Real* weights, const Real* row, int count);

// Σ over the chunks of a whole row of `count` values.
template <class Real>
Real ChunkedPrediction(const Real* weights, const Real* row, std::size_t count);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_CHUNKED_PREDICTION_H_
