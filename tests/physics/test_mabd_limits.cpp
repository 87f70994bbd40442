// Joint limits in the mabd solver (joint_limits.hpp, He 2026 §4.6: out-of-range DOFs clamped by an
// extra compact row for further Newton iterations), measured from the poses the Simulator reports:
//   - a prismatic block falling along a tilted axis onto its stop at h = 1e-2: before the stop its slide
//     follows implicit Euler's free-fall recurrence v ← v + h a, s ← s + h v; from the stop on it stays
//     at the bound, passed by no more than JointLimits::kTolerance·ℓ;
//   - a hinge pendulum released from horizontal swinging into its stop at h = 1e-2: it comes to rest on
//     the stop, and its angle (the polar rotation of its pose) never passes the bound by more than
//     kTolerance plus twice the body's elastic strain max|σ(A) − 1| at that step (the clamp holds the
//     control tetrahedron's edge; the pose's polar rotation differs from that edge's direction by
//     asin(strain/(1 − strain)) at most);
//   - a cone-twist bob swinging into its swing limits: the same bound on every swing angle.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "affix/math/rotation.hpp"
#include "affix/solvers/mabd/joint_limits.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kG = 9.81;
constexpr double kDeg = std::numbers::pi / 180.0;

Scene mabd_scene(std::vector<BodyDef> bodies, double dt) {
  Scene scene = test::scene_with(std::move(bodies), dt, std::nullopt);
  scene.settings.solver = "mabd";
  return scene;
}

/// max |σ − 1| over A's singular values: 0 for a rotation.
double strain(const Mat3& A) {
  const Vec3 s = Eigen::JacobiSVD<Mat3>(A).singularValues();
  return (s.array() - 1.0).abs().maxCoeff();
}

TEST(MabdLimits, PrismaticBlockFallsOntoItsStopAndStaysThere) {
  const Vec3 axis = Vec3(0.6, 0, -0.8);  // gravity's component along it: 0.8 g
  const double hi = 0.1, h = 1e-2;
  BodyDef block = test::box_body("block", Vec3(0.2, 0.2, 0.2), Vec3::Zero());
  Scene scene = mabd_scene({block}, h);
  JointDef& j = test::add_joint(scene, JointType::prismatic, "block", "world");
  j.anchor = Vec3::Zero();
  j.axis = axis;
  j.limits = std::array<double, 2>{-0.1, hi};
  const auto model = test::compiled(scene, "mabd");
  const auto sim = make_simulator(model);
  const double ell = model->bodies[0].bounding_radius;
  double v = 0.0, s_free = 0.0, worst_excess = -1.0, worst_deviation = 0.0, max_A = 0.0;
  int stopped_at = -1;
  for (int n = 1; n <= 60; ++n) {
    sim->step();
    v += h * 0.8 * kG;  // implicit Euler, constant force: v ← v + h a, then s ← s + h v
    s_free += h * v;
    const BodyPose pose = sim->poses()[0];
    const double s = pose.p.dot(axis);  // the anchor is the centre: p moves along the axis
    max_A = std::max(max_A, (pose.A - Mat3::Identity()).cwiseAbs().maxCoeff());
    worst_excess = std::max(worst_excess, s - hi);
    worst_deviation = std::max(worst_deviation, std::abs(s - std::min(s_free, hi)));
    if (stopped_at < 0 && s_free > hi) stopped_at = n;
  }
  std::printf("prismatic onto its stop: stopped at step %d, worst excess %.2e m (tolerance %.2e m), worst "
              "deviation from min(free fall, bound) %.2e m, max |A - I| %.2e\n",
              stopped_at, worst_excess, JointLimits::kTolerance * ell, worst_deviation, max_A);
  ASSERT_GT(stopped_at, 0) << "the block never reached its stop";
  ASSERT_LT(stopped_at, 50) << "the block rested on its stop too briefly to test";
  EXPECT_LE(worst_excess, JointLimits::kTolerance * ell);
  EXPECT_LT(worst_deviation, 1e-9);
}

/// Angle of the rotation R about the unit axis n (right-handed), read from a vector u ⟂ n.
double angle_about(const Mat3& R, const Vec3& n, const Vec3& u) {
  const Vec3 w = R * u;
  return std::atan2(n.dot(u.cross(w)), u.dot(w));
}

TEST(MabdLimits, HingePendulumSwingsIntoItsStopAndRestsOnIt) {
  // A rod along +x hinged at the origin about y: released horizontal, it swings down (positive angle
  // about y turns x towards −z) and meets its stop at 60°, where gravity keeps it pressed.
  const double h = 1e-2, top = 60 * kDeg;
  BodyDef rod = test::box_body("rod", Vec3(0.4, 0.05, 0.05), Vec3(0.2, 0, 0));
  Scene scene = mabd_scene({rod}, h);
  JointDef& j = test::add_joint(scene, JointType::hinge, "rod", "world");
  j.anchor = Vec3::Zero();
  j.axis = Vec3::UnitY();
  j.angle_limits = AngleRange{-10 * kDeg, top};
  const auto sim = test::simulate(scene, "mabd");
  double worst_excess = -1.0, beyond_bound = -1.0, max_strain = 0.0, theta = 0.0, omega = 0.0;
  int first_stop = -1;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    const Mat3 A = sim->poses()[0].A;
    max_strain = std::max(max_strain, strain(A));
    theta = angle_about(polar_rotation(A), Vec3::UnitY(), Vec3::UnitX());
    omega = sim->velocities()[0].angular.y();
    worst_excess = std::max(worst_excess, theta - top);
    beyond_bound = std::max(beyond_bound, theta - top - 2.0 * strain(A));  // vs kTolerance, per step
    if (first_stop < 0 && theta > top - 1e-3) first_stop = n;
  }
  const double bound = JointLimits::kTolerance + 2.0 * max_strain;
  std::printf("hinge into its stop: reached at step %d, worst excess %.2e rad (bound %.2e = tolerance + 2 x max "
              "strain %.2e), final angle %.9f deg, final angular velocity %.2e rad/s\n",
              first_stop, worst_excess, bound, max_strain, theta / kDeg, omega);
  ASSERT_GT(first_stop, 0) << "the stop was never reached";
  ASSERT_LT(first_stop, 120) << "too little time on the stop to test resting";
  EXPECT_LT(max_strain, 1e-5) << "the bound below would be loose";
  EXPECT_LE(beyond_bound, JointLimits::kTolerance);
  EXPECT_NEAR(theta, top, bound) << "not resting on its stop";
  EXPECT_LT(std::abs(omega), 1e-4) << "not at rest on its stop";
}

TEST(MabdLimits, ConeTwistBobSwingsIntoItsSwingLimits) {
  const double h = 1e-2, limit = 20 * kDeg;
  Mat3 frame;  // x: twist axis down the hanging bob, y: swing1, z: swing2
  frame.col(0) = -Vec3::UnitZ();
  frame.col(1) = Vec3::UnitX();
  frame.col(2) = frame.col(0).cross(frame.col(1));
  BodyDef bob = test::box_body("bob", Vec3(0.1, 0.12, 0.3), Vec3(0, 0, -0.2));
  const Vec3 omega = 4.0 * frame.col(1) + 3.0 * frame.col(2) + 1.0 * frame.col(0);
  bob.angular_velocity = omega;
  bob.velocity = omega.cross(bob.position);  // turning about the anchor at the origin
  Scene scene = mabd_scene({bob}, h);
  JointDef& j = test::add_joint(scene, JointType::cone_twist, "bob", "world");
  j.anchor = Vec3::Zero();
  j.frame = frame;
  j.swing1_limits = AngleRange{-limit, limit};
  j.swing2_limits = AngleRange{-limit, limit};
  const auto sim = test::simulate(scene, "mabd");
  double worst_excess = -1.0, beyond_bound = -1.0, max_strain = 0.0, gap = 0.0;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    const BodyPose pose = sim->poses()[0];
    max_strain = std::max(max_strain, strain(pose.A));
    gap = std::max(gap, (pose.A * (-bob.position) + pose.p).norm());  // the anchor's rest point stays put
    // R in the joint frame = R_z(swing2)·R_y(swing1)·R_x(twist).
    const Mat3 R = frame.transpose() * polar_rotation(pose.A) * frame;
    const double swing1 = std::atan2(-R(2, 0), std::hypot(R(2, 1), R(2, 2)));
    const double swing2 = std::atan2(R(1, 0), R(0, 0));
    const double excess = std::max(std::abs(swing1), std::abs(swing2)) - limit;
    worst_excess = std::max(worst_excess, excess);
    beyond_bound = std::max(beyond_bound, excess - 2.0 * strain(pose.A));  // vs kTolerance, per step
  }
  const double bound = JointLimits::kTolerance + 2.0 * max_strain;
  std::printf("cone_twist swing limits: worst excess %.2e rad (bound %.2e, max strain %.2e), anchor gap %.2e m\n",
              worst_excess, bound, max_strain, gap);
  EXPECT_GT(worst_excess, -1e-3) << "no swing limit was reached";
  EXPECT_LT(max_strain, 1e-5) << "the bound below would be loose";
  EXPECT_LE(beyond_bound, JointLimits::kTolerance);
  EXPECT_LT(gap, 1e-9);
}

}  // namespace
}  // namespace affix
