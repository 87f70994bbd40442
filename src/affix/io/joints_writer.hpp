#pragma once
// joints.csv (DESIGN §4), written for every run with joints: one row per joint per output frame (the
// frames of trajectory.csv, with the same frame number and time),
//   frame,time,joint,body1,body2,x1,y1,z1,x2,y2,z2,ax1,ay1,az1,ax2,ay2,az2,error
// `joint` is the joint's name, body1 and body2 its bodies' names (`world` for none); (x1, y1, z1) and
// (x2, y2, z2) the joint frame's origin as body1 and as body2 carry it (world coordinates), (ax1, …)
// and (ax2, …) the frame's x axis as each body carries it (model/records.hpp: the hinge axis, the
// slide direction, the slider's direction or normal, …). Every number round-trips (number_format.hpp).
//
// `error` is the positional gap the two anchors show, in metres (joint_gap below): the same test the
// reader can make from the anchors alone. Angular errors (a hinge's axes drifting apart) are not in it.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "affix/io/csv_file.hpp"
#include "affix/io/joint_table.hpp"
#include "affix/model/records.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// The gap a joint record shows (m), by type:
///   ball, hinge, universal, fixed, cone_twist: |a₁ − a₂| (the anchors coincide in an exact joint);
///   prismatic, slider with `direction`: the part of a₁ − a₂ off the line through a₂ along axis2;
///   slider with `normal`: |(a₁ − a₂)·axis2|, the part off the plane through a₂;
///   distance: | |a₁ − a₂| − length | (length: `length`, else the distance at t = 0); a distance joint
///     with only `min`/`max` and no `length`: how far |a₁ − a₂| lies outside [min, max] (0 inside).
///   cable: |a₁ − a₂|; a cable that can go slack (settings.compliant.slack_cables, through
///     JointTable(scene)): how far a₁ − a₂ lies from its rope's range (model/slack_cable.hpp).
/// Limits (hinge angles, sliding ranges) are not errors.
double joint_gap(const JointDef& joint, const JointRecord& record);

class JointsWriter {
 public:
  static constexpr std::string_view kHeader =
      "frame,time,joint,body1,body2,x1,y1,z1,x2,y2,z2,ax1,ay1,az1,ax2,ay2,az2,error";

  /// Creates the file and writes the header. `joints` in scene order (JointRecord::joint indexes it),
  /// their body names as the scene gives them (body2 "world" for none): a JointTable, or the scene's
  /// joints themselves.
  JointsWriter(const std::filesystem::path& path, JointTable joints);

  /// Writes frame `frame` at simulated time `time`: one row per record, in record order, flushed.
  void write_frame(int frame, double time, const std::vector<JointRecord>& records);
  /// The joints it writes (their gap rules: the run loop's tear check reads them too).
  const JointTable& joints() const { return joints_; }

 private:
  CsvFile file_;
  JointTable joints_;
};

}  // namespace affix
