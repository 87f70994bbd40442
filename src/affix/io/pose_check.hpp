#pragma once
// What the run loop checks on every body's pose after every step, whatever the back-end:
//   - a non-finite pose: the state diverged, and the run stops;
//   - an inverted body, det A ≤ 0: the affine map turned it inside out, which no stiff body can do,
//     so the result is not physics, and the run stops;
//   - a collapsed or blown-up body, a singular value σ of A below kCollapseLimit or above
//     1/kCollapseLimit: squashed to a tenth of its size (a pancake) or stretched tenfold along some
//     direction, which is as far from a stiff body as inverted, and the run stops;
//   - a strained body, a singular value σ of A with |σ − 1| > kStrainLimit: a stiff body that
//     stretched or shrank that much is no longer rigid (the loads beat its `stiffness`); the run goes
//     on, but each such body counts as a warning of the step, and the largest strain is reported.
// A rigid back-end's A is a rotation (σ = 1, det = 1) and never trips either test.
#include <string>
#include <utility>
#include <vector>

#include "affix/model/simulator.hpp"

namespace affix {

/// Largest |σ − 1| of a body's A that is not counted as a warning (10 % stretch or shrinkage).
inline constexpr double kStrainLimit = 0.1;
/// Smallest σ (and 1/largest σ) of a body's A before the run stops.
inline constexpr double kCollapseLimit = 0.1;

struct PoseCheck {
  std::string failure;      ///< why the run must stop (names the body), or empty
  int strained_bodies = 0;  ///< bodies with strain > kStrainLimit
  double max_strain = 0.0;  ///< largest max|σ − 1| of any body
  int most_strained = -1;   ///< index of the body with max_strain
};

/// The smallest and largest singular values of A.
std::pair<double, double> singular_value_range(const Mat3& A);

/// Checks `poses` (scene order, names alongside): the failure names the first body whose pose is not
/// finite or whose A is inverted; the strain census covers the bodies checked before it.
PoseCheck check_poses(const std::vector<BodyPose>& poses, const std::vector<std::string>& names);

}  // namespace affix
