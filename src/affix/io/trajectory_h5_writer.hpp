#pragma once
// trajectory.h5 (trajectory_h5_layout.hpp): trajectory.csv's numbers in binary, for runs with many
// bodies (`affix run --format hdf5`). Every double is stored as computed. Frames are appended along
// the extendible first axis and the file is flushed after each one, so that a run that stops — a
// diverging solver, a signal, a full disk — leaves every frame written before it readable, as the CSV
// does. A frame's numbers reach the disk before the metadata that counts them, the flush starts only
// once the disk has room for it, and when a write fails the file is never touched again (closing it
// would write more): it stays as the last flush left it.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "affix/io/h5_handle.hpp"
#include "affix/io/joint_table.hpp"
#include "affix/io/trajectory_sink.hpp"

namespace affix {

class TrajectoryH5Writer final : public TrajectorySink {
 public:
  /// Creates (truncates) `path` with its datasets and attributes and no frame yet; `body_names` (at
  /// least one) in scene order. Throws OutputError naming the file and HDF5's reason.
  TrajectoryH5Writer(const std::filesystem::path& path, const std::vector<std::string>& body_names);
  /// The same with joints.csv's records in it too (the /joint… datasets): `joints` (at least one) in
  /// scene order, written by the write_frame that takes records.
  TrajectoryH5Writer(const std::filesystem::path& path, const std::vector<std::string>& body_names, JointTable joints);
  TrajectoryH5Writer(const TrajectoryH5Writer&) = delete;
  TrajectoryH5Writer& operator=(const TrajectoryH5Writer&) = delete;
  /// Closes the file, or abandons it after a failed write (h5_handle.hpp, prepare()).
  ~TrajectoryH5Writer() override;

  /// Appends frame `frame` (the next one: 0, 1, 2, …) and flushes the file. After an OutputError the
  /// writer writes nothing more.
  void write_frame(int frame, double time, const std::vector<BodyPose>& poses) override;
  /// The same with the frame's joint records (a writer made with joints): one per joint, in joint order.
  void write_frame(int frame, double time, const std::vector<BodyPose>& poses, const std::vector<JointRecord>& joints);
  /// The joints it writes (none for a writer made without).
  const JointTable& joints() const { return joints_; }

 private:
  void append(double time, const std::vector<BodyPose>& poses, const std::vector<JointRecord>& joints);
  void create_joint_datasets();
  /// Extends the /joint… datasets to `frames` frames and writes this frame's records into the last.
  void append_joints(const std::vector<JointRecord>& joints, unsigned long long frames);
  /// Flushes the file, once the disk has room for what the flush writes; throws OutputError otherwise.
  void flush();

  std::filesystem::path path_;
  std::size_t bodies_ = 0;
  JointTable joints_;
  unsigned long long frames_ = 0;  // frames written
  bool failed_ = false;            // a write failed: the file is never touched again
  // The file first: members are destroyed last to first, and the datasets must close before it.
  h5::Handle file_;
  h5::Handle time_;
  h5::Handle position_;
  h5::Handle rotation_;
  h5::Handle joint_anchor1_, joint_anchor2_, joint_axis1_, joint_axis2_, joint_error_;  // joints_ not empty
};

}  // namespace affix
