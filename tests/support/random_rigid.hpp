#pragma once
// Random rigid configurations for the tests of the rigid joint rows (rigid_jacobian.hpp) and their
// geometric stiffness (geometric_stiffness.hpp): poses, bodies with an off-origin centre of mass, joints
// with unrelated random frames (so C ≠ 0 and every part of J and K̃ matters), and the pose moved along
// one velocity direction — the finite-difference step of both tests; and plain random vectors, whose
// entries are drawn one after another from U(−1, 1).
#include <random>
#include <vector>

#include "affix/joints/rigid_jacobian.hpp"
#include "affix/math/rotation.hpp"

namespace affix::test {

/// N entries from U(−1, 1), drawn in order (so a test's stream of draws is the same on every platform).
template <int N>
Eigen::Matrix<double, N, 1> random_vector(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::Matrix<double, N, 1> x;
  for (int k = 0; k < N; ++k) x[k] = u(rng);
  return x;
}

inline Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

inline Mat3 random_rotation(std::mt19937& rng) { return rotation_from_rotation_vector(random_vec(rng, 3.0)); }

inline RigidPose random_pose(std::mt19937& rng) { return {random_vec(rng, 2.0), random_rotation(rng)}; }

inline ModelBody random_body(std::mt19937& rng) {
  ModelBody b;
  b.center_of_mass = random_vec(rng, 0.5);
  return b;
}

/// A joint of `type` between body 0 and body2 (−1: world) with random frames; a slider is a plane
/// (`normal`) when `plane`, else a line (`direction`); a distance joint has length 0.7.
inline ModelJoint random_joint(JointType type, bool plane, int body2, std::mt19937& rng) {
  ModelJoint j;
  j.def.type = type;
  if (plane) j.def.normal = Vec3::UnitZ();
  else if (type == JointType::slider) j.def.direction = Vec3::UnitZ();
  j.def.length = 0.7;
  j.body1 = 0;
  j.body2 = body2;
  j.frame1 = {random_vec(rng, 1.0), random_rotation(rng)};
  j.frame2 = {random_vec(rng, 1.0), random_rotation(rng)};
  return j;
}

/// The pose moved along velocity direction k (0–2: v, c += h e_k; 3–5: ω, R ← exp(h[e_{k−3}]ₓ)R) by h.
inline RigidPose moved(RigidPose pose, int k, double h) {
  if (k < 3) pose.c[k] += h;
  else pose.R = rotation_from_rotation_vector(h * Vec3::Unit(k - 3)) * pose.R;
  return pose;
}

/// Central differences of value(pose1, pose2) along the velocity directions of both poses (`columns`
/// 6: pose1 only; 12: pose1 then pose2), step 1e-6: the reference for a rigid Jacobian [J1 J2].
template <class Value>
MatX rigid_finite_differences(const Value& value, const RigidPose& p1, const RigidPose& p2, int rows, int columns) {
  const double h = 1e-6;
  MatX fd(rows, columns);
  for (int k = 0; k < columns; ++k) {
    const bool first = k < 6;
    const auto at = [&](double s) { return value(first ? moved(p1, k, s) : p1, first ? p2 : moved(p2, k - 6, s)); };
    fd.col(k) = (at(h) - at(-h)) / (2.0 * h);
  }
  return fd;
}

}  // namespace affix::test
