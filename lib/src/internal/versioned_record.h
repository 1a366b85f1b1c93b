// File: internal/versioned_record.h
//
// A checkpoint's record (everything after the learner and the task: the
// metrics, the followers' and the drift tracker's states, the targets'
// range) read as each format version wrote it: a field a version did not
// have gets the value that version implied.
#ifndef RFFSTREAM_INTERNAL_VERSIONED_RECORD_H_
#define RFFSTREAM_INTERNAL_VERSIONED_RECORD_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "internal/byte_buffer.h"
#include "rffstream/checkpoint.h"
#include "rffstream/task.h"

namespace rffstream::internal {

[[nodiscard]] absl::StatusOr<CheckpointRecord> ReadRecord(ByteReader& reader, std::uint32_t version,
                                                          Task task);

}  // namespace rffstream::internal

#endif  // RFFSTREAM_INTERNAL_VERSIONED_RECORD_H_
