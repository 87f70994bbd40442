#pragma once
// trajectory.h5 (io/trajectory_h5_layout.hpp) read into the PoseFrames that trajectory.csv gives
// (trajectory_reader.hpp): the same frame selection, times and float32 poses, so that the page is
// built the same way from either file.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "affix/viewer/trajectory_reader.hpp"

namespace affix::viewer {

/// Reads `file` for the bodies `body_names` (meshes.json's), keeping the frames
/// select_frames(frames, bodies, budget_bytes) picks; only those are read. Its checks are
/// TrajectoryH5Reader's (io/trajectory_h5_reader.hpp). Throws InputError naming the file.
PoseFrames read_trajectory_h5(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                              std::size_t budget_bytes);

}  // namespace affix::viewer
