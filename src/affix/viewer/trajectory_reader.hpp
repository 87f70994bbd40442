#pragma once
// trajectory.csv (DESIGN §4) read back for the page: only the frames a FrameSelection keeps, as
// float32 poses. Two passes — count the rows, then parse the kept ones — so a run larger than memory
// can still be viewed.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "affix/math/types.hpp"
#include "affix/viewer/decimation.hpp"

namespace affix::viewer {

struct PoseFrames {
  FrameSelection selection;  ///< which frames of the file these are
  std::vector<double> times; ///< simulated time of each kept frame (s)
  /// kept frames × bodies × 12: x y z a00 a01 a02 a10 a11 a12 a20 a21 a22, so that a rest point x̄ of
  /// body b lands at A·x̄ + p.
  std::vector<float> poses;
};

/// Reads `file` (trajectory.h5 instead when its name ends in .h5: trajectory_h5_reader.hpp), whose
/// frames hold one row per name of `body_names` in that order (meshes.json's), and
/// keeps the frames select_frames(frames, bodies, budget_bytes) picks. A trailing incomplete frame (a
/// run killed while writing) is left out. Throws InputError naming the file and line for a missing
/// file, a wrong header, a body out of order, or a field that is not a number.
/// World point x in body b's rest frame at the first kept frame, x̄ = A₀⁻¹(x − p₀), where the joint layers
/// carry anchors from (joints.csv or trajectory.h5); NaN where that pose is not finite and invertible.
Vec3 first_frame_rest_point(const PoseFrames& frames, int b, const Vec3& x);

PoseFrames read_trajectory(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                           std::size_t budget_bytes);

}  // namespace affix::viewer
