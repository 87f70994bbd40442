#pragma once
// Reads trajectory.csv (DESIGN §4) back into poses: the renderer's view of a run. Rows are grouped
// into frames by their `frame` column; within a frame the bodies must come in the order of
// `body_names` (scene order, as meshes.json lists them), which is the order the writer uses.
#include <filesystem>
#include <string>
#include <vector>

#include "affix/solvers/simulator.hpp"

namespace affix {

struct TrajectoryFrame {
  int index = 0;       ///< the `frame` column
  double time = 0.0;   ///< simulated time of the state shown (s)
  std::vector<BodyPose> poses;  ///< one per body, in scene order
};

/// A trailing incomplete frame (a run killed while writing) is left out. Throws InputError naming the
/// file (and the line) when it is missing, has another header, a malformed row, a body out of order, or
/// a frame before the last with bodies missing.
std::vector<TrajectoryFrame> read_trajectory(const std::filesystem::path& file,
                                             const std::vector<std::string>& body_names);

}  // namespace affix
