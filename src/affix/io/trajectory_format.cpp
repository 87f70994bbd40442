#include "affix/io/trajectory_format.hpp"

#include <string>
#include <system_error>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {

namespace fs = std::filesystem;

TrajectoryFormat parse_trajectory_format(std::string_view text) {
  if (text == "csv") return TrajectoryFormat::csv;
  if (text == "hdf5") return TrajectoryFormat::hdf5;
  throw InputError("--format " + excerpt(text) + ": expected csv or hdf5");
}

TrajectoryFormat default_trajectory_format(std::size_t bodies) {
  return bodies > kMaxCsvTrajectoryBodies ? TrajectoryFormat::hdf5 : TrajectoryFormat::csv;
}

const char* trajectory_file_name(TrajectoryFormat format) {
  return format == TrajectoryFormat::hdf5 ? "trajectory.h5" : "trajectory.csv";
}

fs::path trajectory_file(const fs::path& run_dir) {
  const fs::path csv = run_dir / trajectory_file_name(TrajectoryFormat::csv);
  const fs::path h5 = run_dir / trajectory_file_name(TrajectoryFormat::hdf5);
  std::error_code missing;  // an unreadable directory: report the CSV, whose reader names the reason
  return !fs::exists(csv, missing) && fs::exists(h5, missing) ? h5 : csv;
}

bool is_hdf5_trajectory(const fs::path& file) { return file.extension() == ".h5"; }

}  // namespace affix
