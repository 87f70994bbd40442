#pragma once
// The layout of trajectory.h5: trajectory.csv's numbers as plain HDF5 datasets, one frame per index
// of the first axis (the CSV's `frame` column is that index):
//   /time      float64 [frames]               simulated time of the state shown (s)
//   /body      UTF-8 strings [bodies]         body names, scene order (meshes.json's); fixed-length,
//                                             null-padded to the longest
//   /position  float64 [frames][bodies][3]    p = (x, y, z) (m)
//   /rotation  float64 [frames][bodies][3][3] A, row-major: [i][j] = a_ij; a rest point x̄ lands at A·x̄ + p
// The frame axis is chunked and extendible; frames are appended as the run goes. /position and
// /rotation are chunked by one frame and at most 8192 bodies and compressed with HDF5's built-in shuffle
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

}  // namespace affix::h5_layout
