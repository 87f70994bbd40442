#pragma once
// Continuous joint angles across steps: a per-joint revolution count beside a solver's joints.
//
// rigid_limit_coordinates and rigid_coordinate (rigid_jacobian.hpp) read an angle by atan2, in (−π, π].
// A hinge turned past ±180° reads as an angle near the opposite side, so a bound past ±180° was never
// seen passed (hostile pass 16, issue 15: `limits_deg` [−270, 270], [0, 300] or a URDF's ±360° held
// nothing), and an unbounded motor's cut at its stop (drive_rows.hpp) read the wrong distance to it.
// JointTurns keeps each tracked angle as a continuous value θ = atan2 + 2πk, k the turns, taken
// nearest the value the solver expects:
//   θ = θ̂ + remainder(atan2 − θ̂, 2π),   θ̂ = θ_ref + Δ,
// θ_ref the continuous angle at the start of the (sub)step and Δ = h ṡ its change over the drift that
// ends it, ṡ = J₁u₁ + J₂u₂ at the velocities the bodies drift with (the drift turns a body by hω, so the
// angle by h ṡ to first order). With Δ = 0 ("nearest the previous") a step that turns a joint by more
// than π would count the wrong turn: a wheel at 40 rad/s turns 4 rad per step at h = 0.1, and a
// speculative limit row lets a fast motor reach a stop 300° away within one step. The choice is right
// while |θ − θ̂| < π: the drift's second order O(h²|ω|²) and the projection's small correction.
// Lengths and slides are not tracked; swing1 lies in [−π/2, π/2] and never wraps, but is tracked alike.
//
// A solver sets θ_ref from the poses at t = 0 (commit), leads it before its drift (lead), reads every
// angle through unwrap, and commits the read values once the (sub)step's poses are final; a restarted
// substep restores the copy it kept. No allocation after construction.
#include <array>
#include <cstddef>
#include <vector>

#include "affix/joints/rigid_jacobian.hpp"

namespace affix {

using Vec6 = Eigen::Matrix<double, 6, 1>;

class JointTurns {
 public:
  JointTurns() = default;
  explicit JointTurns(std::size_t joints) : reference_(joints, std::array<double, 3>{}), expected_(joints, std::array<double, 3>{}) {}

  /// Whether `coordinate` is an angle (twist, swing1, swing2), which wraps.
  static bool is_angle(RigidCoordinate coordinate) {
    return coordinate == RigidCoordinate::twist || coordinate == RigidCoordinate::swing1 ||
           coordinate == RigidCoordinate::swing2;
  }

  /// The continuous value of joint j's `coordinate` read as `raw` by atan2 (header); a length or slide
  /// is returned as it is.
  double unwrap(std::size_t joint, RigidCoordinate coordinate, double raw) const;
  /// Every limited coordinate of joint j (`values`: rigid_limit_coordinates, in its limits' order) made
  /// continuous in place.
  void unwrap_limits(std::size_t joint, const RigidJoint& rj, RigidVector& values) const;

  /// Expects `coordinate` of joint j at θ_ref + change from now on (header: change = h ṡ of the drift).
  void lead(std::size_t joint, RigidCoordinate coordinate, double change);
  /// Takes the continuous `value` as θ_ref (and θ̂) of `coordinate` of joint j.
  void commit(std::size_t joint, RigidCoordinate coordinate, double value);

 private:
  static int slot(RigidCoordinate coordinate) { return static_cast<int>(coordinate); }  // twist 0 … swing2 2
  std::vector<std::array<double, 3>> reference_, expected_;  // per joint: twist, swing1, swing2
};

/// lead() for every limited angle of joint j from its limit rows at the start of the drift and the
/// bodies' velocities u1, u2 over it (u2 ignored against the world): change = h (J₁u₁ + J₂u₂).
void lead_limits(JointTurns& turns, std::size_t joint, const RigidJoint& rj, const RigidRows& rows, const Vec6& u1,
                 const Vec6& u2, double h);
/// commit() for every limited angle of joint j: `values` are rigid_limit_coordinates at the final poses,
/// raw; they are made continuous (unwrap_limits) and taken as the references.
void commit_limits(JointTurns& turns, std::size_t joint, const RigidJoint& rj, RigidVector values);

}  // namespace affix
