#pragma once
// The joint-anchor layer of a run whose joint records are in trajectory.h5 (its /joint… datasets,
// io/trajectory_h5_layout.hpp) rather than joints.csv: the same JointLayer as read_joint_layer
// (records_reader.hpp) makes of joints.csv, from frame 0's anchors and trajectory.h5's frame 0 poses.
// The file is untrusted input: shapes and body names are checked, a file that crashes libhdf5 is read
// in a child process first (try_reading_in_child), and every failure is an InputError naming the file.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "affix/viewer/records_reader.hpp"

namespace affix::viewer {

/// The joints of `file` (trajectory.h5) against meshes.json's `body_names`, placed in their bodies'
/// rest frames by `frames` (whose first kept frame is frame 0); no joints when the file has none.
JointLayer read_joint_layer_h5(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                               const PoseFrames& frames, std::size_t max_joints);

}  // namespace affix::viewer
