#pragma once
// Reads trajectory.csv (DESIGN §4) back into poses: the renderer's view of a run. Rows are grouped
// into frames by their `frame` column, which counts 0, 1, 2, … as the writer writes it; within a frame
// the bodies must come in the order of `body_names` (scene order, as meshes.json lists them), with one
// time. Every row is checked (io/trajectory_row.hpp), but only the frames to be drawn are kept, so that
// `--every` also bounds the memory a long run takes.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "affix/model/body_state.hpp"

namespace affix {

struct TrajectoryFrame {
  int index = 0;       ///< the `frame` column
  double time = 0.0;   ///< simulated time of the state shown (s)
  std::vector<BodyPose> poses;  ///< one per body, in scene order
};

struct Trajectory {
  int frame_count = 0;                  ///< complete frames in the file
  std::vector<TrajectoryFrame> frames;  ///< the kept ones: frames 0, every, 2·every, … < frame_count
};

/// The most poses (frames kept × bodies) read_trajectory holds: about 1 GB of them.
inline constexpr std::size_t kMaxHeldPoses = 10'000'000;

/// Reads `file` — trajectory.csv, or trajectory.h5 when its name ends in .h5 (trajectory_h5_reader.hpp)
/// — keeping frames 0, every, 2·every, … (`every` ≥ 1). A trailing incomplete frame (a
/// run killed while writing) is left out. Throws InputError naming the file (and the line) when it is
/// missing, has another header, a malformed row (trajectory_row.hpp), a body out of order or unknown,
/// a frame number out of sequence, a time that goes back or differs within a frame, a frame before the
/// last with bodies missing, or more than kMaxHeldPoses poses to keep.
Trajectory read_trajectory(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                           int every = 1);

}  // namespace affix
