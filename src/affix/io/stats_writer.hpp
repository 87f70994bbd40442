#pragma once
// stats.csv (DESIGN §4): one row per step. The first ten columns are the contract,
//   step,time,iterations,residual,min_distance,active_contacts,max_joint_error,kinetic_energy,
//   potential_energy,wall_ms
// and the solver diagnostics of StepStats follow:
//   hit_iteration_cap (0 or 1),line_search_evaluations,barrier_stiffness,warnings,max_penetration
// min_distance is `inf` when nothing is near. Every number round-trips (number_format.hpp).
#include <filesystem>
#include <string_view>

#include "affix/io/csv_file.hpp"
#include "affix/model/simulator.hpp"

namespace affix {

class StatsWriter {
 public:
  static constexpr std::string_view kHeader =
      "step,time,iterations,residual,min_distance,active_contacts,max_joint_error,kinetic_energy,"
      "potential_energy,wall_ms,hit_iteration_cap,line_search_evaluations,barrier_stiffness,warnings,"
      "max_penetration";

  /// Creates the file and writes the header.
  explicit StatsWriter(const std::filesystem::path& path);

  /// Writes one step's row, flushed.
  void write_step(const StepStats& stats);

 private:
  CsvFile file_;
};

}  // namespace affix
