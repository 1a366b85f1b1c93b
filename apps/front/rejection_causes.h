// File: apps/front/rejection_causes.h
//
// The rejected lines of a run grouped by cause, for the summary: how many
// each cause rejected and its first line with the whole message (which
// names the fix, as "declare it categorical" does). A cause is a message
// with its quoted values left out: "column 3 'city': 'paris' is not a
// number" and "... 'lyon' ..." are one cause.
#ifndef RFFSTREAM_APPS_REJECTION_CAUSES_H_
#define RFFSTREAM_APPS_REJECTION_CAUSES_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>

namespace rffstream::app {

class RejectionCauses {
 public:
  // At most this many causes are kept; later new ones count as "other".
  static constexpr std::size_t kMaxCauses = 64;

  void Add(std::int64_t line_number, std::string_view reason);

  // The model came from a checkpoint: its columns are decided, so a text
  // value is no cue to declare the column categorical.
  void set_model_loaded() { model_loaded_ = true; }

  // "rejected lines by cause:" and a line per cause, the most frequent
  // first (up to `shown`); nothing when no line was rejected.
  void Print(std::FILE* log, std::size_t shown = 5) const;

 private:
  struct Cause {
    std::int64_t count = 0;
    std::int64_t first_line = 0;
    std::string first_reason;
  };
  std::map<std::string, Cause> causes_;
  std::int64_t others_ = 0;
  bool model_loaded_ = false;
};

}  // namespace rffstream::app

#endif  // RFFSTREAM_APPS_REJECTION_CAUSES_H_
