#include "commands/ranks_drift_report.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"

namespace rffstream::app {
namespace {

// The lines named for each rank; the count says how many there were.
constexpr std::size_t kShown = 4;

}  // namespace

std::string RanksDriftReport(const MpiWorld& world, std::span<const std::int64_t> lines,
                             std::int64_t restarts) {
  std::vector<double> row(1 + kShown, 0.0);
  row[0] = static_cast<double>(lines.size());
  for (std::size_t i = 0; i < std::min(kShown, lines.size()); ++i) {
    row[1 + i] = static_cast<double>(lines[i]);
  }
  const std::vector<double> rows = world.Gather(row);
  if (world.rank() != 0) return "";
  std::string report = absl::StrCat("drift (--forget=auto) on the ranks: ", restarts,
                                    restarts == 1 ? " merge" : " merges",
                                    " restarted the shared model");
  for (int rank = 0; rank < world.size(); ++rank) {
    const double* at = rows.data() + static_cast<std::size_t>(rank) * row.size();
    const auto count = static_cast<std::size_t>(at[0]);
    absl::StrAppend(&report, rank == 0 ? "; " : ", ", "rank ", rank, ": ");
    if (count == 0) {
      absl::StrAppend(&report, "none");
      continue;
    }
    absl::StrAppend(&report, count, count == 1 ? " change (line" : " changes (lines");
    for (std::size_t i = 0; i < std::min(kShown, count); ++i) {
      absl::StrAppend(&report, i == 0 ? " " : ", ", static_cast<std::int64_t>(at[1 + i]));
    }
    absl::StrAppend(&report, count > kShown ? ", ...)" : ")");
  }
  return report;
}

}  // namespace rffstream::app
