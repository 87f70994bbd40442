#pragma once
// stats.csv (DESIGN §4) read back for the page's plots. A run of many steps is summarised in at most
// `max_points` points, each standing for `stride` consecutive steps and keeping what a plot must not
// hide: the largest iterations, residual, contacts, joint error and wall time, the smallest distance,
// and the last time and energies of its steps.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace affix::viewer {

struct StatsSeries {
  int source_rows = 0;                       ///< steps in stats.csv
  int stride = 1;                            ///< steps per point
  std::vector<std::string> names;            ///< columns read, those of kStatsColumns the file has
  std::vector<std::vector<double>> columns;  ///< one per name, one value per point
};

/// The columns the page plots (and `time`, their x axis), in this order.
inline const std::vector<std::string> kStatsColumns = {
    "time", "iterations", "residual", "min_distance", "active_contacts", "max_joint_error",
    "kinetic_energy", "potential_energy", "wall_ms"};

/// Reads `file`. Throws InputError naming the file (and line) when it is missing, has no `time`
/// column, or holds a field that is not a number.
StatsSeries read_stats(const std::filesystem::path& file, std::size_t max_points);

}  // namespace affix::viewer
