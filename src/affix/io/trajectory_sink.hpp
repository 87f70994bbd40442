#pragma once
// Where the run loop sends its frames: trajectory.csv (trajectory_writer.hpp) or trajectory.h5
// (trajectory_h5_writer.hpp). Both hold the same numbers — frame, time, and each body's p and A — and
// both have every frame on disk as soon as write_frame returns.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "affix/io/trajectory_format.hpp"
#include "affix/model/body_state.hpp"

namespace affix {

class TrajectorySink {
 public:
  virtual ~TrajectorySink() = default;
  /// Writes frame `frame` (0, 1, 2, … in turn) showing the state at simulated time `time`; `poses`
  /// has one entry per body, in scene order. Throws OutputError when it cannot be written.
  virtual void write_frame(int frame, double time, const std::vector<BodyPose>& poses) = 0;
};

/// Creates out_dir/trajectory.csv or out_dir/trajectory.h5 (trajectory_file_name(format)) for the
/// bodies `body_names`. Throws OutputError when the file cannot be created.
std::unique_ptr<TrajectorySink> open_trajectory(const std::filesystem::path& out_dir, TrajectoryFormat format,
                                                const std::vector<std::string>& body_names);

}  // namespace affix
