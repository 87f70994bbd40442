#pragma once
// Which file holds a run's trajectory: trajectory.csv (DESIGN §4, the contract) or trajectory.h5, the
// same numbers in binary for runs too large for text (about 300 bytes per body per frame as CSV, 96
// as HDF5). `affix run --format` chooses; without it the body count does. The readers of `affix view`
// and `affix render` take whichever the directory holds.
#include <cstddef>
#include <filesystem>
#include <string_view>

namespace affix {

enum class TrajectoryFormat { csv, hdf5 };

/// Without --format, a scene of more bodies than this writes trajectory.h5.
inline constexpr std::size_t kMaxCsvTrajectoryBodies = 10'000;

/// `--format` as given: "csv" or "hdf5". Throws InputError naming the option and the choices.
TrajectoryFormat parse_trajectory_format(std::string_view text);

/// csv up to kMaxCsvTrajectoryBodies bodies, hdf5 above.
TrajectoryFormat default_trajectory_format(std::size_t bodies);

/// "trajectory.csv" or "trajectory.h5".
const char* trajectory_file_name(TrajectoryFormat format);

/// The trajectory of the run in `run_dir`: trajectory.h5 when that is there and trajectory.csv is not,
/// else trajectory.csv (so that a directory with neither is reported as missing the contract's file).
std::filesystem::path trajectory_file(const std::filesystem::path& run_dir);

/// Whether `file` is read as HDF5: its name ends in .h5.
bool is_hdf5_trajectory(const std::filesystem::path& file);

}  // namespace affix
