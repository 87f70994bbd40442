#pragma once
// trajectory.h5 (io/trajectory_h5_layout.hpp) read into the Trajectory that trajectory.csv gives
// (trajectory_reader.hpp), so that the renderer draws either the same way.
#include <filesystem>
#include <string>
#include <vector>

#include "affix/render/trajectory_reader.hpp"

namespace affix {

/// Reads `file`, keeping frames 0, every, 2·every, … (`every` ≥ 1); its checks are
/// TrajectoryH5Reader's (io/trajectory_h5_reader.hpp), and it holds at most kMaxHeldPoses poses.
/// Throws InputError naming the file.
Trajectory read_trajectory_h5(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                              int every);

}  // namespace affix
