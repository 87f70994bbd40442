#pragma once
// trajectory.h5 (trajectory_h5_layout.hpp) read back for `affix view` and `affix render`, which turn
// its frames into what they make of trajectory.csv. The file is untrusted input, like the CSV: it is
// checked when opened — an HDF5 file, an affix trajectory of format version 1, datasets of the
// layout's shapes, exactly the bodies of meshes.json in order, times finite, ≥ 0 and never going
// back — and every failure, a truncated or damaged file included, is one InputError naming the file
// (see try_reading_in_child for damage that would crash libhdf5). Frames are read one at a time, so
// that only those kept are held.
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "affix/io/h5_handle.hpp"

namespace affix {

class TrajectoryH5Reader {
 public:
  /// Opens and checks `file` against `body_names` (meshes.json's, in order). A frame that only some
  /// datasets hold (a run killed while writing it) is left out.
  TrajectoryH5Reader(const std::filesystem::path& file, const std::vector<std::string>& body_names);

  /// Complete frames in the file.
  int frames() const { return static_cast<int>(times_.size()); }
  /// The simulated time of frame f (s).
  double time(int f) const { return times_[static_cast<std::size_t>(f)]; }
  /// Frame f: per body (in order) the 12 numbers x y z a00 a01 a02 a10 a11 a12 a20 a21 a22 — a row of
  /// trajectory.csv after its first three fields. Throws InputError when the file cannot be read there.
  std::vector<double> frame(int f) const;

  /// Whether the file holds joint records (the /joint… datasets of a run with joints).
  bool has_joints() const;
  /// The first `max_joints` joint records of frame 0 (has_joints()), checked: the names' datasets of one
  /// length J, /joint_anchor1 and /joint_anchor2 of shape [frames][J][3].
  struct JointStart {
    std::size_t total = 0;                  ///< J
    std::vector<std::string> joint, body1, body2;
    std::vector<double> anchor1, anchor2;   ///< 3 per joint kept, world (m)
  };
  JointStart joints_at_start(std::size_t max_joints) const;

  const std::filesystem::path& file() const { return file_; }
  /// Throws InputError("FILE: what").
  [[noreturn]] void fail(std::string_view what) const;

 private:
  void check_format() const;
  void check_bodies(const std::vector<std::string>& body_names);
  std::vector<std::string> read_names() const;
  /// The fixed-length strings of dataset `name`, `count` of them.
  std::vector<std::string> read_strings(h5::Id dataset, const char* name, std::size_t count) const;
  void read_times();

  std::filesystem::path file_;
  std::size_t bodies_ = 0;
  std::vector<double> times_;
  h5::Handle h5_file_;  // before the datasets: they close first
  h5::Handle time_;
  h5::Handle body_;
  h5::Handle position_;
  h5::Handle rotation_;
};

/// Runs `read`, a reading of `file` through TrajectoryH5Reader, in a child process first
/// (child_process_trial.hpp): a damaged file that crashes libhdf5 there is an InputError naming it, and
/// one that the reader refuses is that InputError. The caller then reads for real.
void try_reading_in_child(const std::filesystem::path& file, const std::function<void()>& read);

}  // namespace affix
