#include "rffstream/libsvm_line_parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"

namespace rffstream {
namespace {

constexpr size_t kQuotedTokenLimit = 32;

std::string Quote(std::string_view token) {
  return absl::StrCat("'", std::string(token.substr(0, kQuotedTokenLimit)),
                      token.size() > kQuotedTokenLimit ? "...'" : "'");
}

bool ParseDouble(std::string_view text, double& value) {
  if (text.size() > 1 && text.front() == '+') text.remove_prefix(1);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

}  // namespace

int MaxLibsvmIndex(std::string_view line) {
  int largest = 0;
  for (size_t colon = line.find(':'); colon != std::string_view::npos;
       colon = line.find(':', colon + 1)) {
    size_t start = colon;
    while (start > 0 && line[start - 1] >= '0' && line[start - 1] <= '9') --start;
    int index = 0;
    const auto [end, error] = std::from_chars(line.data() + start, line.data() + colon, index);
    if (error == std::errc() && end == line.data() + colon) largest = std::max(largest, index);
  }
  return largest;
}

absl::StatusOr<bool> LibsvmLineParser::ParseTargets(std::string_view line, std::span<double> inputs,
                                                    std::span<double> targets) const {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::fill(inputs.begin(), inputs.end(), 0.0);
  // Indices in increasing order (the usual case) cannot repeat; out of
  // order, an index whose slot already holds a nonzero value is a repeat.
  int previous_index = 0;
  bool ordered = true;
  bool labelled = false;
  size_t position = 0;
  int token_number = 0;
  while (position < line.size()) {
    while (position < line.size() && (line[position] == ' ' || line[position] == '\t')) ++position;
    if (position >= line.size()) break;
    size_t end = position;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
    const std::string_view token = line.substr(position, end - position);
    position = end;
    ++token_number;
    const size_t colon = token.find(':');
    if (token_number == 1 && colon == std::string_view::npos) {
      double label = 0;
      if (!ParseDouble(token, label)) {
        return absl::InvalidArgumentError(
            absl::StrCat("label ", Quote(token), " is not a finite number"));
      }
      targets[0] = label;
      labelled = true;
      continue;
    }
    if (colon == std::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("token ", token_number, ": ", Quote(token), " is not idx:val"));
    }
    int index = 0;
    const std::string_view index_text = token.substr(0, colon);
    const auto [index_end, index_error] =
        std::from_chars(index_text.data(), index_text.data() + index_text.size(), index);
    if (index_error != std::errc() || index_end != index_text.data() + index_text.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("token ", token_number, ": ", Quote(token), " has no integer index"));
    }
    if (index < 1 || index > dimension_) {
      return absl::InvalidArgumentError(absl::StrCat("token ", token_number, ": index ", index,
                                                     " is outside 1..", dimension_, " (--dim)"));
    }
    double value = 0;
    if (!ParseDouble(token.substr(colon + 1), value)) {
      return absl::InvalidArgumentError(absl::StrCat("token ", token_number, ": value in ",
                                                     Quote(token), " is not a finite number"));
    }
    if (index <= previous_index) ordered = false;
    if (!ordered && inputs[index - 1] != 0.0) {
      return absl::InvalidArgumentError(absl::StrCat("index ", index, " is repeated"));
    }
    inputs[index - 1] = value;
    previous_index = index;
  }
  return labelled;
}

}  // namespace rffstream
