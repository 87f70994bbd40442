#pragma once
// Joints as position-level constraints C and their Jacobians on rigid bodies with 6 DOFs each, for
// the impulse (Tomcin 2014) and compliant (Andrews 2017) back-ends.
//
// State of body b: its centre of mass c_b (world) and rotation R_b. A rest point x̄ (the body's rest
// frame, DESIGN §3) lies at x = R_b (x̄ − c̄_b) + c_b, c̄_b the rest-frame centre of mass, so the body
// origin is at c_b − R_b c̄_b. Velocities are u_b = [v_b; ω_b]: the world velocity of the centre of mass
// and the world angular velocity, Ṙ_b = [ω_b]ₓ R_b (Andrews Eq. 18), so a body point moves at
// ẋ = v_b + ω_b × r, r = x − c_b. The rows satisfy Ċ = J₁ u₁ + J₂ u₂ (Tomcin §3, ċ = J u between Eq. 2 and 3;
// Andrews App. A). The world has no state and no J₂.
//
// Parts, on the joint frames of model.hpp: x₁, x₂ the frame origins carried by each body; a₁ = R₁ā an
// axis of body 1's frame, u₂ = R₂ū an axis of body 2's (fixed for the world); d = x₁ − x₂; e_k a world
// axis:
//   point   C = e_k·d             J₁ = [e_kᵀ, (r₁ × e_k)ᵀ]   J₂ = [−e_kᵀ, −(r₂ × e_k)ᵀ]   Andrews φ_bs
//   dot-1   C = a₁·u₂             J₁ = [0, (a₁ × u₂)ᵀ]       J₂ = [0, −(a₁ × u₂)ᵀ]        Andrews Eq. 24
//   dot-2   C = d·u₂              J₁ = [u₂ᵀ, (r₁ × u₂)ᵀ]     J₂ = [−u₂ᵀ, (u₂ × (r₂ + d))ᵀ] Andrews Eq. 26
//   length  C = ‖d‖ − L, n = d/‖d‖ J₁ = [nᵀ, (r₁ × n)ᵀ]      J₂ = [−nᵀ, −(r₂ × n)ᵀ]
// (dot-2 takes its direction from body 2, whose frame the joint displacement is measured in; Andrews
// puts it on body i, which moves the d-term of J to ω₁.)
//
// Joints (x, y, z: the frame axes, model.hpp; subscript: the body carrying them):
//   ball, cone_twist  point ×3                                  (3; cone-twist limits are elsewhere)
//   hinge             point ×3, x₁·y₂, x₁·z₂                    (5: body 2's perpendicular axes stay ⟂ x₁)
//   universal         point ×3, x₁·y₂                           (4: a₁ ⟂ a₂, Andrews φ_d1)
//   fixed             point ×3, x₁·y₂, x₁·z₂, y₁·z₂             (6)
//   prismatic         d·y₂, d·z₂, x₁·y₂, x₁·z₂, y₁·z₂           (5: Andrews' prismatic, dot-2 on body 2)
//   slider            plane d·x₂ (1, x = normal) or line d·y₂, d·z₂ (2, x = direction)
//   cable             d·x₂, d·y₂, d·z₂, x₁·y₂, x₁·z₂, y₁·z₂     (6: Andrews' rigid 6-D joint in dot-2 and
//                     dot-1 rows: axial, shear ×2, bending ×2, torsion, which the compliant solver relaxes
//                     each by its own compliance, App. A "Flexible cable joint")
//   distance          length (1) when a length applies (`length` given, or neither `min` nor `max`:
//                     the initial distance); bounds only: 0 rows. Singular at ‖d‖ = 0.
// Every row vanishes at t = 0. The dot-1 rows also vanish where an axis flips (x₁ = −x₂), far from
// the start; a solver that starts at C = 0 never reaches that branch.
//
// Limits bound a joint coordinate s ∈ [min, max]; rigid_limit_coordinates gives s and ṡ = J₁u₁ + J₂u₂
// (a solver turns a violated bound into the unilateral row ±(s − bound) ≥ 0):
//   twist, swing1, swing2  M = F₂ᵀF₁ (F the frame axes in the world) = R_z(swing2)·R_y(swing1)·R_x(twist),
//                          the cone-twist convention of compact_rows.hpp (a hinge's angle is its twist):
//                          twist = atan2(M₂₁, M₂₂), swing1 = atan2(−M₂₀, ‖(M₂₁, M₂₂)‖), swing2 = atan2(M₁₀, M₀₀).
//                          Ṁ = [w]ₓM with w = F₂ᵀ(ω₁ − ω₂), and for these Euler angles
//                          w = B (ṫwist, ṡwing1, ṡwing2), B = [R_z R_y e_x, R_z e_y, e_z], so the rate of
//                          angle k is g_k·(ω₁ − ω₂) with g_k = F₂ B⁻ᵀ e_k: J₁ = [0, g_kᵀ], J₂ = [0, −g_kᵀ].
//                          Singular at swing1 = ±90° (B loses rank), as the angles are. The values are
//                          atan2's, in (−π, π]: a solver makes them continuous across steps (joint_turns.hpp).
//   cone                   s = θ − θ_lim ≤ 0 of swing_cone.hpp, one row for both swings of a cone_twist
//                          whose swing1 and swing2 ranges each hold 0 (else each swing angle is bounded
//                          alone, a box); a = M e_x, J₁ = [0, gᵀ], J₂ = [0, −gᵀ], g = x₁ × F₂ ∂s/∂a.
//   slide                  s = d·x₂, the dot-2 part (prismatic `limits`, slider `limits` along `direction`)
//   length                 s = ‖d‖, the length part with L = 0 (distance `min`/`max` without `length`)
#include <array>
#include <vector>

#include "affix/joints/swing_cone.hpp"
#include "affix/math/types.hpp"
#include "affix/model/model.hpp"

namespace affix {

/// Up to 6 rows: fixed-capacity Eigen types, so no row allocates.
using RigidVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 6, 1>;
using RigidBlock = Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::ColMajor, 6, 6>;

/// A rigid body's state: centre of mass c (world) and rotation R.
struct RigidPose {
  Vec3 c = Vec3::Zero();
  Mat3 R = Mat3::Identity();
};

/// The state at t = 0: c = position + rotation·c̄, R = rotation.
RigidPose initial_rigid_pose(const ModelBody& body);

/// A joint coordinate a limit bounds (header comment).
enum class RigidCoordinate { twist, swing1, swing2, slide, length, cone };

/// One limited coordinate: min ≤ s ≤ max (radians or metres).
struct RigidLimit {
  RigidCoordinate coordinate = RigidCoordinate::twist;
  double min = 0.0, max = 0.0;
};

/// A joint as the rigid rows see it: the model's frames with origins relative to each body's centre
/// of mass (x̄ − c̄; the world's stay in world coordinates).
struct RigidJoint {
  JointType type = JointType::ball;
  int body1 = -1, body2 = -1;  ///< model body indices, −1: the world
  JointFrame frame1, frame2;
  double length = 0.0;         ///< distance: L
  int count = 0;               ///< m, the number of rows
  std::array<RigidLimit, 3> limits{};  ///< the joint's limited coordinates, the first limit_count
  int limit_count = 0;
  SwingCone cone;              ///< cone_twist: the swing cone's spans, when a limit is RigidCoordinate::cone
};

/// Number of rows of a joint (table in the header comment).
int rigid_row_count(const JointDef& def);

RigidJoint rigid_joint(const ModelJoint& joint, const std::vector<ModelBody>& bodies);

/// C and its Jacobian blocks at the given states.
struct RigidRows {
  RigidVector value;  ///< C (m)
  RigidBlock J1;      ///< m × 6, against [v₁; ω₁]
  RigidBlock J2;      ///< m × 6, against [v₂; ω₂]; 0 rows when body 2 is the world
};

/// The joint's rows at pose1 (body 1) and pose2 (body 2; ignored when body 2 is the world).
RigidRows rigid_rows(const RigidJoint& joint, const RigidPose& pose1, const RigidPose& pose2);

/// The limited coordinates s of the joint (one row per limit, in `limits` order) and their Jacobians.
RigidRows rigid_limit_coordinates(const RigidJoint& joint, const RigidPose& pose1, const RigidPose& pose2);

/// One coordinate s of the joint and its Jacobian (one row), limited or not: what a motor or a servo
/// drives (a hinge's twist, a prismatic joint's or a line slider's slide).
RigidRows rigid_coordinate(const RigidJoint& joint, RigidCoordinate coordinate, const RigidPose& pose1,
                           const RigidPose& pose2);

}  // namespace affix
