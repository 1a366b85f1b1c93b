#include "front/rejection_causes.h"

#include <algorithm>
#include <cinttypes>
#include <string>
#include <vector>

#include "core/printable_text.h"

namespace rffstream::app {
namespace {

// The reason with each quoted value ('...') as '…'.
std::string CauseOf(std::string_view reason) {
  std::string cause;
  bool quoted = false;
  for (const char c : reason) {
    if (c == '\'') {
      if (!quoted) cause += "'…'";
      quoted = !quoted;
      continue;
    }
    if (!quoted) cause += c;
  }
  return cause;
}

// The command line's fix for a text value in a number column ("column 3
// 'city': 'paris' is not a number (a text column? ..."): the flags that
// name the column (for a loaded model, whose columns are decided: a new
// model's); empty for other causes. The header name when the flags would
// read it back as that column (not cut short in the message, not a number,
// a list or a word the flags reserve), else the 0-based index.
std::string FixFor(std::string_view reason, bool model_loaded) {
  constexpr std::string_view kPrefix = "column ", kTextHint = "(a text column?";
  if (reason.substr(0, kPrefix.size()) != kPrefix || reason.find(kTextHint) == reason.npos) return {};
  std::string_view label = reason.substr(kPrefix.size());
  label = label.substr(0, label.find(": "));
  const std::size_t quote = label.find(" '");
  const std::string_view index = label.substr(0, quote);
  std::string_view name = quote == label.npos ? "" : label.substr(quote + 2);
  if (!name.empty() && name.back() == '\'') name.remove_suffix(1);
  const bool digits_only = std::all_of(name.begin(), name.end(),
                                       [](char c) { return c >= '0' && c <= '9'; });
  const bool usable = !name.empty() && !digits_only && name.find("...") == name.npos &&
                      name.find_first_of(",'\\") == name.npos && name != "first" &&
                      name != "last" && name != "auto" && name != "none";
  const std::string column(usable ? name : index);
  if (model_loaded) {
    return "the model reads column " + std::string(label) + " as numbers: correct the value, or learn a "
           "new model with --categorical=" + column;
  }
  return "--categorical=" + column + " (or --ignore=" + column + " to leave it out)";
}

}  // namespace

void RejectionCauses::Add(std::int64_t line_number, std::string_view reason) {
  std::string key = CauseOf(reason);
  auto found = causes_.find(key);
  if (found == causes_.end()) {
    if (causes_.size() == kMaxCauses) {
      ++others_;
      return;
    }
    found = causes_.emplace(std::move(key), Cause{0, line_number, std::string(reason)}).first;
  }
  ++found->second.count;
}

void RejectionCauses::Print(std::FILE* log, std::size_t shown) const {
  if (causes_.empty()) return;
  std::vector<const Cause*> ordered;
  for (const auto& [key, cause] : causes_) ordered.push_back(&cause);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const Cause* a, const Cause* b) { return a->count > b->count; });
  std::fprintf(log, "rejected lines by cause (the first of each):\n");
  std::int64_t rest = others_;
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    if (i >= shown) {
      rest += ordered[i]->count;
      continue;
    }
    std::fprintf(log, "  %" PRId64 " x line %" PRId64 ": %s\n", ordered[i]->count,
                 ordered[i]->first_line, EscapeForLog(ordered[i]->first_reason).c_str());
    if (const std::string fix = FixFor(ordered[i]->first_reason, model_loaded_); !fix.empty()) {
      std::fprintf(log, "      the fix: %s\n", EscapeForLog(fix).c_str());
    }
  }
  if (rest > 0) std::fprintf(log, "  %" PRId64 " for other causes\n", rest);
}

}  // namespace rffstream::app
