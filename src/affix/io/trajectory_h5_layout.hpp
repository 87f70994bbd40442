#pragma once
// The layout of trajectory.h5: trajectory.csv's numbers as plain HDF5 datasets, one frame per index
// of the first axis (the CSV's `frame` column is that index):
//   /time      float64 [frames]               simulated time of the state shown (s)
//   /body      UTF-8 strings [bodies]         body names, scene order (meshes.json's); fixed-length,
//                                             null-padded to the longest
//   /position  float64 [frames][bodies][3]    p = (x, y, z) (m)
//   /rotation  float64 [frames][bodies][3][3] A, row-major: [i][j] = a_ij; a rest point x̄ lands at A·x̄ + p
// A run with joints stores joints.csv's records here too (joints.csv is still written, DESIGN §4; here a
// 10⁶-link chain's take about 21 MB a frame against its 185 MB), one row per joint in scene order, on the same frame axis:
//   /joint         UTF-8 strings [joints]         joint names (joints.csv's `joint`), as /body
//   /joint_body1   UTF-8 strings [joints]         body1's name (`body1`)
//   /joint_body2   UTF-8 strings [joints]         body2's name (`body2`, `world` for none)
//   /joint_anchor1 float64 [frames][joints][3]    (x1, y1, z1): the joint frame's origin as body1 carries it (m)
//   /joint_anchor2 float64 [frames][joints][3]    (x2, y2, z2), as body2 carries it (m)
//   /joint_axis1   float64 [frames][joints][3]    (ax1, ay1, az1): the frame's x axis as body1 carries it
//   /joint_axis2   float64 [frames][joints][3]    (ax2, ay2, az2), as body2 carries it
//   /joint_error   float64 [frames][joints]       `error`: the gap the anchors show (m, joints_writer.hpp)
// The frame axis is chunked and extendible; frames are appended as the run goes. /position,
// /rotation and the joint records are chunked by one frame and at most 8192 bodies or joints and
// compressed with HDF5's built-in shuffle
// and deflate filters (readers decompress them without being asked). The root carries the
// attributes affix_format = "trajectory" and affix_format_version = 1, each dataset `units` and
// `description`. Written by trajectory_h5_writer.hpp, read by trajectory_h5_reader.hpp.
namespace affix::h5_layout {

inline constexpr int kFormatVersion = 1;
inline constexpr const char* kFormatName = "trajectory";

inline constexpr const char* kFormatAttribute = "affix_format";
inline constexpr const char* kVersionAttribute = "affix_format_version";

inline constexpr const char* kTime = "time";
inline constexpr const char* kBody = "body";
inline constexpr const char* kPosition = "position";
inline constexpr const char* kRotation = "rotation";
inline constexpr const char* kJoint = "joint";
inline constexpr const char* kJointBody1 = "joint_body1";
inline constexpr const char* kJointBody2 = "joint_body2";
inline constexpr const char* kJointAnchor1 = "joint_anchor1";
inline constexpr const char* kJointAnchor2 = "joint_anchor2";
inline constexpr const char* kJointAxis1 = "joint_axis1";
inline constexpr const char* kJointAxis2 = "joint_axis2";
inline constexpr const char* kJointError = "joint_error";

}  // namespace affix::h5_layout
