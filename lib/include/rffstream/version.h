// File: rffstream/version.h
#ifndef RFFSTREAM_VERSION_H_
#define RFFSTREAM_VERSION_H_

#define RFFSTREAM_VERSION_MAJOR 0
#define RFFSTREAM_VERSION_MINOR 1
#define RFFSTREAM_VERSION_PATCH 0

namespace rffstream {
inline constexpr char kVersion[] = "0.1.0";
}  // namespace rffstream

#endif  // RFFSTREAM_VERSION_H_
