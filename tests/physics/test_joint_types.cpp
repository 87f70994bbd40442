// Every DESIGN §3 joint type, on every solver that keeps it, against the closed-form kinematics it
// promises, read from the bodies' poses alone (a rest point x̄ lands at A x̄ + p) after every step,
// never from the solver's own joint error. Linear joints (in ipc: rows eliminated by change of
// variables) must hold to round-off; penalty joints to a small stretch; limits keep their range
// (joint_model.hpp). Two tests are about ipc's own joint model and run on ipc alone (JointTypesIpc).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>

#include "affix/error.hpp"
#include "affix/math/rotation.hpp"
#include "affix/joints/joint_model.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

using test::Feature;

constexpr double kG = 9.81;
constexpr double kPenaltyTolerance = 1e-4;  // line and plane penalties (m)
constexpr double kAngleTolerance = 1e-6;    // a limit the joint does not start on (rad)
constexpr double kDeg = std::numbers::pi / 180.0;
constexpr int kWorld = -1;

// ------------------------------------------------------------ scenes built in code

Scene scene_of(std::vector<BodyDef> bodies) { return test::scene_with(std::move(bodies), 0.01, std::nullopt); }

/// Rigid motion turning about `pivot` with angular velocity ω while the pivot moves at `pivot_velocity`.
void spin_about(BodyDef& body, const Vec3& pivot, const Vec3& omega, const Vec3& pivot_velocity = Vec3::Zero()) {
  body.angular_velocity = omega;
  body.velocity = pivot_velocity + omega.cross(body.position - pivot);
}

/// A box of size `size` whose local z runs from `from` to `to` (a link of a linkage).
BodyDef link_body(const std::string& name, const Vec3& from, const Vec3& to, double thickness) {
  BodyDef b = test::box_body(name, Vec3(thickness, 0.05, (to - from).norm()), 0.5 * (from + to));
  b.rotation = Quat::FromTwoVectors(Vec3::UnitZ(), to - from);
  return b;
}

// ------------------------------------------------------------ reading the poses

/// Material points and motions of scene bodies, from Simulator::poses() only. A body's material point is
/// named by where it was in the world at t = 0; the world (kWorld) does not move.
class Tracker {
 public:
  explicit Tracker(const Simulator& sim) : initial_(sim.poses()), now_(initial_) {}
  void update(const Simulator& sim) { now_ = sim.poses(); }

  /// Where the material point of `body` that was at `world` at t = 0 is now: A x̄ + p, x̄ = A₀⁻¹(w − p₀).
  Vec3 point(int body, const Vec3& world) const {
    if (body == kWorld) return world;
    const Vec3 x_bar = initial_[body].A.inverse() * (world - initial_[body].p);
    return now_[body].A * x_bar + now_[body].p;
  }
  /// The linear map taking the body's material vectors at t = 0 to now: A·A₀⁻¹ (I for the world).
  Mat3 motion(int body) const {
    if (body == kWorld) return Mat3::Identity();
    return now_[body].A * initial_[body].A.inverse();
  }
  /// Rotation of body1 relative to body2 since t = 0, in world-at-t = 0 coordinates.
  Mat3 relative_rotation(int body1, int body2) const {
    return polar_rotation(motion(body2).inverse() * motion(body1));
  }
  /// Distance between the material points of two bodies that were both at `world` at t = 0.
  double gap(int body1, int body2, const Vec3& world) const {
    return (point(body1, world) - point(body2, world)).norm();
  }
  const BodyPose& pose(int body) const { return now_[body]; }
  const BodyPose& initial_pose(int body) const { return initial_[body]; }

 private:
  std::vector<BodyPose> initial_, now_;
};

/// Any unit vector perpendicular to the unit vector n.
Vec3 perpendicular(const Vec3& n) {
  return n.cross(std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).normalized();
}

/// The angle of the rotation R about the unit axis n (right-handed), from a vector u ⟂ n.
double angle_about(const Mat3& R, const Vec3& n) {
  const Vec3 u = perpendicular(n), w = R * u;
  return std::atan2(n.dot(u.cross(w)), u.dot(w));
}

/// A limit's tolerance when the joint starts on one of its bounds: joint_model.hpp widens the chord
/// bound 2ℓ sin(half/2) by ĉ, and dchord/dθ = ℓ cos(half/2) at the bound, so the angle may pass it by
/// about ĉ / (ℓ cos(half/2)) (the header's ĉ/ℓ rad, to first order in ĉ).
double widened_angle_tolerance(double chat, double ell, double half_range) {
  const double nominal = 2.0 * ell * std::sin(0.5 * half_range);
  return 2.0 * std::asin(std::min(1.0, (nominal + chat) / (2.0 * ell))) - half_range + kAngleTolerance;
}

/// Tracks the smallest and largest value seen.
struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  void add(double x) { lo = std::min(lo, x), hi = std::max(hi, x); }
  double span() const { return hi - lo; }
};

/// The joint gap the solver keeps (SolverCapabilities::joint_gap): ipc's linear rows to round-off.
double row_tolerance(const std::string& solver) { return solver_capabilities(solver).joint_gap; }

class JointTypes : public test::SolverTest {
 protected:
  double row_tolerance() const { return affix::row_tolerance(GetParam()); }
};

// ------------------------------------------------------------ ball

TEST_P(JointTypes, BallBetweenTwoFreeBodiesKeepsTheAnchorCoincident) {
  AFFIX_REQUIRE(GetParam(), JointType::ball);
  const Vec3 anchor(0, 0, -0.125);
  BodyDef upper = test::box_body("upper", Vec3(0.2, 0.2, 0.2), Vec3(0, 0, 0));
  BodyDef lower = test::box_body("lower", Vec3(0.2, 0.2, 0.4), Vec3(0.05, 0, -0.35));
  spin_about(upper, upper.position, Vec3(0, 3, 1));
  spin_about(lower, anchor, Vec3(2, -1, 0.5), upper.velocity + upper.angular_velocity.cross(anchor - upper.position));
  Scene scene = scene_of({lower, upper});
  test::add_joint(scene, JointType::ball, "lower", "upper").anchor = anchor;
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  Tracker track(*sim);
  double max_gap = 0.0, max_relative_angle = 0.0;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    max_gap = std::max(max_gap, track.gap(0, 1, anchor));
    ASSERT_LT(track.gap(0, 1, anchor), row_tolerance()) << "step " << n;
    ASSERT_LT(test::max_anchor_gap(*model, sim->joint_records()), row_tolerance()) << "joint record, step " << n;
    max_relative_angle = std::max(max_relative_angle, Eigen::AngleAxisd(track.relative_rotation(0, 1)).angle());
  }
  std::printf("ball (free-free): max anchor gap %.2e m, max relative rotation %.2f rad\n", max_gap,
              max_relative_angle);
  EXPECT_GT(max_relative_angle, 0.3) << "the joint was not exercised";
}

TEST_P(JointTypes, BallToWorldKeepsTheAnchorInPlace) {
  AFFIX_REQUIRE(GetParam(), JointType::ball);
  const Vec3 anchor(0, 0, 0);
  BodyDef bob = test::box_body("bob", Vec3(0.1, 0.15, 0.3), Vec3(0.1, 0, -0.2));
  spin_about(bob, anchor, Vec3(2, 3, 0.5));
  Scene scene = scene_of({bob});
  test::add_joint(scene, JointType::ball, "bob", "world").anchor = anchor;
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  Tracker track(*sim);
  double travel = 0.0;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    ASSERT_LT((track.point(0, anchor) - anchor).norm(), row_tolerance()) << "step " << n;
    ASSERT_LT(test::max_anchor_gap(*model, sim->joint_records()), row_tolerance()) << "joint record, step " << n;
    travel = std::max(travel, (track.pose(0).p - bob.position).norm());
  }
  EXPECT_GT(travel, 0.1) << "the pendulum did not swing";
}

// ------------------------------------------------------------ hinge

/// A box pendulum on a tilted hinge to the world with a range; returns the angle range seen.
Range run_hinge_pendulum(const std::string& solver, double omega, const AngleRange& limits, double low_tolerance,
                         double high_tolerance, const char* label) {
  const Vec3 anchor(0, 0, 0), axis = Vec3(1, 0.2, 0.3).normalized();
  BodyDef bob = test::box_body("bob", Vec3(0.1, 0.1, 0.4), Vec3(0.02, 0, -0.22));
  spin_about(bob, anchor, omega * axis);
  Scene scene = scene_of({bob});
  JointDef& j = test::add_joint(scene, JointType::hinge, "bob", "world");
  j.anchor = anchor;
  j.axis = axis;
  j.angle_limits = limits;
  const auto sim = test::simulate(scene, solver);
  Tracker track(*sim);
  Range angle;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    // Two points of the axis are held, hence every point of it and the axis direction.
    EXPECT_LT((track.point(0, anchor) - anchor).norm(), row_tolerance(solver)) << "step " << n;
    EXPECT_LT((track.point(0, anchor + 0.3 * axis) - (anchor + 0.3 * axis)).norm(), row_tolerance(solver)) << "step " << n;
    EXPECT_LT((track.motion(0) * axis - axis).norm(), row_tolerance(solver) / 0.3) << "rotation not about the axis, step " << n;
    const double theta = angle_about(track.relative_rotation(0, kWorld), axis);
    angle.add(theta);
    EXPECT_GE(theta, limits.min - low_tolerance) << "step " << n;
    EXPECT_LE(theta, limits.max + high_tolerance) << "step " << n;
  }
  std::printf("%s: angle range [%.6f, %.6f] deg, limits [%.1f, %.1f] deg\n", label, angle.lo / kDeg,
              angle.hi / kDeg, limits.min / kDeg, limits.max / kDeg);
  return angle;
}

TEST_P(JointTypes, HingeToWorldTurnsAboutItsAxisWithinItsLimits) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge, Feature::joint_limits);
  const AngleRange limits{-30 * kDeg, 45 * kDeg};
  const Range angle = run_hinge_pendulum(GetParam(), 8.0, limits, kAngleTolerance, kAngleTolerance, "hinge");
  EXPECT_GT(angle.hi, limits.max - 0.02) << "the upper limit was never reached";
  EXPECT_LT(angle.lo, limits.min + 0.02) << "the lower limit was never reached";
}

TEST_P(JointTypes, HingeStartingOnItsLimitPassesItByAtMostChatOverEll) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge, Feature::joint_limits);
  // The range [0°, 60°] starts on 0°: joint_model.hpp widens the one chord limit that encodes both
  // bounds, so both ends may be passed by the widening (widened_angle_tolerance).
  const AngleRange limits{0.0, 60 * kDeg};
  const double ell = (0.5 * Vec3(0.1, 0.1, 0.4)).norm();  // body1's bounding radius
  const double tolerance = widened_angle_tolerance(1e-3, ell, 0.5 * (limits.max - limits.min));
  std::printf("hinge on its limit: tolerance %.3e rad (chat / ell = %.3e rad)\n", tolerance, 1e-3 / ell);
  // Swings up from 0° towards 60°, then falls back onto its starting bound at speed.
  const Range angle = run_hinge_pendulum(GetParam(), 9.0, limits, tolerance, tolerance, "hinge on its limit");
  // Pressed onto its starting bound: past it (ipc's widened chord) or held on it (impulse holds a limit
  // within ε_P inside it).
  EXPECT_LT(angle.lo, kAngleTolerance) << "the body never pressed on its starting bound";
  EXPECT_GT(angle.hi, limits.max - 0.02) << "the upper limit was never reached";
}

TEST_P(JointTypes, HingeBetweenTwoFreeBodiesTurnsAboutTheSharedAxis) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge);
  const Vec3 anchor(0, 0, -0.125), axis = Vec3(0.3, 1, 0).normalized();
  BodyDef upper = test::box_body("upper", Vec3(0.2, 0.2, 0.2), Vec3(0, 0, 0));
  BodyDef lower = test::box_body("lower", Vec3(0.2, 0.2, 0.4), Vec3(0, 0, -0.35));
  spin_about(upper, upper.position, Vec3(1, 2, 0));
  spin_about(lower, anchor, upper.angular_velocity + 5.0 * axis,
             upper.velocity + upper.angular_velocity.cross(anchor - upper.position));
  Scene scene = scene_of({lower, upper});
  JointDef& j = test::add_joint(scene, JointType::hinge, "lower", "upper");
  j.anchor = anchor;
  j.axis = axis;
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  Tracker track(*sim);
  Range angle;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    ASSERT_LT(track.gap(0, 1, anchor), row_tolerance()) << "step " << n;
    ASSERT_LT(test::max_anchor_gap(*model, sim->joint_records()), row_tolerance()) << "joint record, step " << n;
    ASSERT_LT(track.gap(0, 1, anchor + 0.2 * axis), row_tolerance()) << "step " << n;
    // Both bodies carry the axis to the same world vector (exact: two points of it are held) ...
    ASSERT_LT(((track.motion(0) - track.motion(1)) * axis).norm(), row_tolerance() / 0.2) << "step " << n;
    // ... so their relative rotation is about it, up to the bodies' tiny elastic strain (polar factor),
    // or up to the rows' tolerance where a solver keeps its rows to one (impulse: ε_P per axis row).
    const Mat3 R = track.relative_rotation(0, 1);
    ASSERT_LT((R * axis - axis).norm(), std::max(1e-6, row_tolerance()))
        << "relative rotation not about the axis, step " << n;
    angle.add(angle_about(R, axis));
  }
  std::printf("hinge (free-free): relative angle range [%.3f, %.3f] rad\n", angle.lo, angle.hi);
  EXPECT_GT(angle.span(), 0.3) << "the joint was not exercised";
}

// ------------------------------------------------------------ fixed

TEST_P(JointTypes, FixedKeepsTheRelativeAffineMapConstant) {
  AFFIX_REQUIRE(GetParam(), JointType::fixed, JointType::ball);
  // body2 swings on a ball joint; body1 is welded to its side, turned 30°.
  const Vec3 pivot(0, 0, 0.15), weld(0.15, 0, 0);
  BodyDef carrier = test::box_body("carrier", Vec3(0.2, 0.2, 0.2), Vec3(0, 0, 0));
  BodyDef load = test::box_body("load", Vec3(0.15, 0.1, 0.1), Vec3(0.3, 0, 0));
  load.rotation = Quat(Eigen::AngleAxisd(30 * kDeg, Vec3::UnitZ()));
  spin_about(carrier, pivot, Vec3(1, 3, 2));
  spin_about(load, pivot, Vec3(1, 3, 2));
  Scene scene = scene_of({load, carrier});
  test::add_joint(scene, JointType::fixed, "load", "carrier").anchor = weld;
  test::add_joint(scene, JointType::ball, "carrier", "world").anchor = pivot;
  const auto sim = test::simulate(scene, GetParam());
  Tracker track(*sim);
  const auto relative = [](const BodyPose& a, const BodyPose& b) {
    return std::pair<Mat3, Vec3>(b.A.inverse() * a.A, b.A.inverse() * (a.p - b.p));
  };
  const auto [M0, t0] = relative(track.pose(0), track.pose(1));
  double turned = 0.0;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    const auto [M, t] = relative(track.pose(0), track.pose(1));
    ASSERT_LT((M - M0).cwiseAbs().maxCoeff(), row_tolerance()) << "step " << n;
    ASSERT_LT((t - t0).norm(), row_tolerance()) << "step " << n;
    turned = std::max(turned, Eigen::AngleAxisd(polar_rotation(track.motion(1))).angle());
  }
  EXPECT_GT(turned, 0.5) << "the welded pair did not move";
}

// The welded body is the scene's only free one: the joint-space system has no unknown left (ipc used
// to crash in CHOLMOD on the 0×0 system).
TEST_P(JointTypes, FixedToTheWorldHoldsALoneBodyStill) {
  AFFIX_REQUIRE(GetParam(), JointType::fixed);
  BodyDef box = test::box_body("box", Vec3::Constant(0.2), Vec3(0, 0, 1));
  box.rotation = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
  Scene scene = scene_of({box});
  test::add_joint(scene, JointType::fixed, "box", "world").anchor = Vec3(0, 0, 1.1);
  const auto sim = test::simulate(scene, GetParam());
  const Mat3 R = box.rotation.toRotationMatrix();
  for (int n = 1; n <= 10; ++n) {
    sim->step();
    ASSERT_LT((sim->poses()[0].p - box.position).norm(), row_tolerance()) << "step " << n;
    ASSERT_LT((sim->poses()[0].A - R).cwiseAbs().maxCoeff(), row_tolerance()) << "step " << n;
  }
}

// ------------------------------------------------------------ universal

TEST_P(JointTypes, UniversalKeepsItsAxesPerpendicularAndBothAnglesChange) {
  AFFIX_REQUIRE(GetParam(), JointType::universal);
  const Vec3 anchor(0, 0, 0), a1 = Vec3::UnitX(), a2 = Vec3::UnitY();
  BodyDef bob = test::box_body("bob", Vec3(0.1, 0.1, 0.3), Vec3(0, 0, -0.25));
  spin_about(bob, anchor, Vec3(3, 4, 0));
  Scene scene = scene_of({bob});
  JointDef& j = test::add_joint(scene, JointType::universal, "bob", "world");
  j.anchor = anchor;
  j.axes = {a1, a2};
  const auto sim = test::simulate(scene, GetParam());
  Tracker track(*sim);
  Range theta1, theta2;
  double max_dot = 0.0;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    ASSERT_LT((track.point(0, anchor) - anchor).norm(), row_tolerance()) << "step " << n;
    // a1 is carried by body1, a2 by body2 (the world).
    const Vec3 b1 = (track.motion(0) * a1).normalized(), b2 = (track.motion(kWorld) * a2).normalized();
    max_dot = std::max(max_dot, std::abs(b1.dot(b2)));
    // R = Rot(a2, θ2)·Rot(a1, θ1) (body2 ─hinge(a2)─ link ─hinge(a1)─ body1).
    const Mat3 R = track.relative_rotation(0, kWorld);
    const Vec3 w = R * a1;
    const double t2 = std::atan2(a2.dot(a1.cross(w)), a1.dot(w));
    const Vec3 v = Eigen::AngleAxisd(-t2, a2) * (R * a2);
    const double t1 = std::atan2(a1.cross(a2).dot(v), a2.dot(v));
    theta1.add(t1), theta2.add(t2);
  }
  std::printf("universal: max |a1.a2| %.2e, theta1 span %.2f rad, theta2 span %.2f rad\n", max_dot,
              theta1.span(), theta2.span());
  // Exact for rigid links; the virtual link between the two hinges deforms by the small strain its
  // orthogonality potential allows under the transmitted torque (a few 1e-9 here).
  EXPECT_LT(max_dot, 1e-6) << "the axes did not stay perpendicular";
  EXPECT_GT(theta1.span(), 0.2);
  EXPECT_GT(theta2.span(), 0.2);
}

// ------------------------------------------------------------ cone_twist

TEST_P(JointTypes, ConeTwistKeepsSwingAndTwistWithinTheirRanges) {
  AFFIX_REQUIRE(GetParam(), JointType::cone_twist, Feature::joint_limits);
  const Vec3 anchor(0, 0, 0);
  Mat3 frame;  // x: twist axis along the hanging box, y: swing1, z: swing2
  frame.col(0) = -Vec3::UnitZ();
  frame.col(1) = Vec3::UnitX();
  frame.col(2) = frame.col(0).cross(frame.col(1));
  const AngleRange twist{-20 * kDeg, 20 * kDeg}, swing1{-25 * kDeg, 35 * kDeg}, swing2{-30 * kDeg, 30 * kDeg};
  BodyDef bob = test::box_body("bob", Vec3(0.1, 0.12, 0.3), Vec3(0, 0, -0.2));
  spin_about(bob, anchor, 4.0 * frame.col(1) + 4.0 * frame.col(2) + 3.0 * frame.col(0));
  Scene scene = scene_of({bob});
  JointDef& j = test::add_joint(scene, JointType::cone_twist, "bob", "world");
  j.anchor = anchor;
  j.frame = frame;
  j.twist_limits = twist;
  j.swing1_limits = swing1;
  j.swing2_limits = swing2;
  const auto sim = test::simulate(scene, GetParam());
  Tracker track(*sim);
  Range t, s1, s2;
  double worst = -1.0;  // largest excess over a range (rad)
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    ASSERT_LT((track.point(0, anchor) - anchor).norm(), row_tolerance()) << "step " << n;
    // R in the joint frame = R_z(swing2)·R_y(swing1)·R_x(twist).
    const Mat3 R = frame.transpose() * track.relative_rotation(0, kWorld) * frame;
    const double twist_angle = std::atan2(R(2, 1), R(2, 2));
    const double swing1_angle = std::atan2(-R(2, 0), std::hypot(R(2, 1), R(2, 2)));
    const double swing2_angle = std::atan2(R(1, 0), R(0, 0));
    t.add(twist_angle), s1.add(swing1_angle), s2.add(swing2_angle);
    for (const auto& [angle, range] : {std::pair{twist_angle, twist}, std::pair{swing1_angle, swing1},
                                       std::pair{swing2_angle, swing2}}) {
      worst = std::max({worst, angle - range.max, range.min - angle});
      EXPECT_GE(angle, range.min - kAngleTolerance) << "step " << n;
      EXPECT_LE(angle, range.max + kAngleTolerance) << "step " << n;
    }
  }
  std::printf("cone_twist: twist [%.3f, %.3f] swing1 [%.3f, %.3f] swing2 [%.3f, %.3f] deg; worst excess %.2e rad\n",
              t.lo / kDeg, t.hi / kDeg, s1.lo / kDeg, s1.hi / kDeg, s2.lo / kDeg, s2.hi / kDeg, worst);
  // Every angle was exercised, and at least one range was reached.
  EXPECT_GT(t.span(), 0.1);
  EXPECT_GT(s1.span(), 0.1);
  EXPECT_GT(s2.span(), 0.1);
  EXPECT_GT(worst, -0.02) << "no range was reached";
}

// ------------------------------------------------------------ prismatic

TEST_P(JointTypes, PrismaticToWorldSlidesAlongItsAxisWithinItsLimits) {
  AFFIX_REQUIRE(GetParam(), JointType::prismatic, Feature::joint_limits);
  const Vec3 anchor(0, 0, 0), axis = Vec3(1, 0, 1).normalized();
  const double lo = -0.15, hi = 0.1;
  BodyDef slider = test::box_body("slider", Vec3(0.2, 0.2, 0.2), anchor);
  slider.velocity = 1.5 * axis;
  slider.angular_velocity = Vec3(0, 0, 5);  // the rotation lock must remove this
  Scene scene = scene_of({slider});
  JointDef& j = test::add_joint(scene, JointType::prismatic, "slider", "world");
  j.anchor = anchor;
  j.axis = axis;
  j.limits = std::array<double, 2>{lo, hi};
  // The spin is against the lock from the start: one linearised mabd iteration leaves the body strained
  // by about (hω)² for a step (1e-3 here), which a second iteration removes.
  scene.settings.solver_settings["mabd"]["iterations"] = 3;
  const auto sim = test::simulate(scene, GetParam());
  Tracker track(*sim);
  Range s;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    ASSERT_LT((track.pose(0).A - track.initial_pose(0).A).cwiseAbs().maxCoeff(), row_tolerance()) << "step " << n;
    const Vec3 d = track.point(0, anchor) - anchor;
    const double along = d.dot(axis);
    ASSERT_LT((d - along * axis).norm(), row_tolerance()) << "off the axis, step " << n;
    s.add(along);
    EXPECT_GE(along, lo - kAngleTolerance) << "step " << n;
    EXPECT_LE(along, hi + kAngleTolerance) << "step " << n;
  }
  std::printf("prismatic (world): travel [%.6f, %.6f] m, limits [%.2f, %.2f] m\n", s.lo, s.hi, lo, hi);
  EXPECT_GT(s.hi, hi - 5e-3) << "the upper limit was never reached";
  EXPECT_LT(s.lo, lo + 5e-3) << "the lower limit was never reached";
}

/// A rail hinged to the world at one end (a pendulum falling from horizontal) and a block above it
/// that may slide along it: the scene of the two "relative to a moving body" tests.
Scene rail_scene(BodyDef& block, JointType type) {
  BodyDef rail = test::box_body("rail", Vec3(0.6, 0.1, 0.1), Vec3(0.3, 0, 0));
  block = test::box_body("block", Vec3(0.1, 0.1, 0.1), Vec3(0.3, 0, 0.12));
  block.angular_velocity = Vec3(0, 0, 2);
  Scene scene = scene_of({block, rail});
  JointDef& hinge = test::add_joint(scene, JointType::hinge, "rail", "world");
  hinge.anchor = Vec3::Zero();
  hinge.axis = Vec3::UnitY();
  JointDef& j = test::add_joint(scene, type, "block", "rail");
  j.limits = std::array<double, 2>{-0.15, 0.15};
  scene.settings.solver_settings["mabd"]["iterations"] = 3;  // the block's spin is against the lock (above)
  if (type == JointType::prismatic) {
    j.anchor = block.position, j.axis = Vec3::UnitX();
  } else {
    j.point = block.position, j.direction = Vec3::UnitX();
  }
  return scene;
}

struct RailResult {
  double max_off_line = 0.0;
  Range along;
};

/// Runs the rail scene, checking the block's point against the rail's line after every step.
RailResult run_rail(const std::string& solver, const Scene& scene, const Vec3& point, bool rotation_locked) {
  const auto sim = test::simulate(scene, solver);
  Tracker track(*sim);
  const Mat3 M0 = track.pose(1).A.inverse() * track.pose(0).A;
  RailResult r;
  for (int n = 1; n <= 120; ++n) {
    sim->step();
    track.update(*sim);
    if (rotation_locked) {
      EXPECT_LT((track.pose(1).A.inverse() * track.pose(0).A - M0).cwiseAbs().maxCoeff(), row_tolerance(solver))
          << "relative rotation changed, step " << n;
    }
    const Vec3 direction = (track.motion(1) * Vec3::UnitX()).normalized();
    const Vec3 d = track.point(0, point) - track.point(1, point);
    const double along = d.dot(direction);
    const double off = (d - along * direction).norm();
    r.max_off_line = std::max(r.max_off_line, off);
    r.along.add(along);
    EXPECT_LT(off, kPenaltyTolerance) << "step " << n;
    EXPECT_GE(along, -0.15 - kAngleTolerance) << "step " << n;
    EXPECT_LE(along, 0.15 + kAngleTolerance) << "step " << n;
  }
  return r;
}

TEST_P(JointTypes, PrismaticOnAMovingBodyStaysOnItsLineWithinPenaltyTolerance) {
  AFFIX_REQUIRE(GetParam(), JointType::prismatic, JointType::hinge, Feature::joint_limits);
  BodyDef block;
  const Scene scene = rail_scene(block, JointType::prismatic);
  const RailResult r = run_rail(GetParam(), scene, block.position, true);
  std::printf("prismatic (body): max off line %.2e m, travel [%.4f, %.4f] m\n", r.max_off_line, r.along.lo,
              r.along.hi);
  EXPECT_GT(r.along.hi, 0.15 - 5e-3) << "the block never reached the end of its range";
}

// ------------------------------------------------------------ slider

TEST_P(JointTypes, SliderOnAWorldPlaneStaysOnIt) {
  AFFIX_REQUIRE(GetParam(), JointType::slider);
  const Vec3 point(0.1, 0, 0), normal = Vec3(0, 0.6, 0.8);
  BodyDef puck = test::box_body("puck", Vec3(0.2, 0.2, 0.2), Vec3::Zero());
  spin_about(puck, point, Vec3(1, 2, 3), Vec3(0.5, 0.4, -0.3) + 0.5 * normal);
  Scene scene = scene_of({puck});
  test::add_joint(scene, JointType::slider, "puck", "world").point = point;
  scene.joints.back().normal = normal;
  const auto sim = test::simulate(scene, GetParam());
  Tracker track(*sim);
  double travel = 0.0;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    const Vec3 d = track.point(0, point) - point;
    ASSERT_LT(std::abs(normal.dot(d)), row_tolerance()) << "off the plane, step " << n;
    travel = std::max(travel, d.norm());
  }
  EXPECT_GT(travel, 0.2) << "the point did not slide";
}

TEST_P(JointTypes, SliderOnAWorldLineStaysOnItWithinItsLimits) {
  AFFIX_REQUIRE(GetParam(), JointType::slider, Feature::joint_limits);
  const Vec3 point(0, 0, 0.1), direction = Vec3(0.6, 0, -0.8);
  const double lo = -0.1, hi = 0.2;
  BodyDef bead = test::box_body("bead", Vec3(0.2, 0.2, 0.2), Vec3::Zero());
  spin_about(bead, point, Vec3(2, 1, 3), -2.0 * direction);
  Scene scene = scene_of({bead});
  JointDef& j = test::add_joint(scene, JointType::slider, "bead", "world");
  j.point = point;
  j.direction = direction;
  j.limits = std::array<double, 2>{lo, hi};
  // The spin is against the lock from the start: one linearised mabd iteration leaves the body strained
  // by about (hω)² for a step (1e-3 here), which a second iteration removes.
  scene.settings.solver_settings["mabd"]["iterations"] = 3;
  const auto sim = test::simulate(scene, GetParam());
  Tracker track(*sim);
  Range s;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    const Vec3 d = track.point(0, point) - point;
    const double along = d.dot(direction);
    ASSERT_LT((d - along * direction).norm(), row_tolerance()) << "off the line, step " << n;
    s.add(along);
    EXPECT_GE(along, lo - kAngleTolerance) << "step " << n;
    EXPECT_LE(along, hi + kAngleTolerance) << "step " << n;
  }
  std::printf("slider (world line): travel [%.6f, %.6f] m, limits [%.2f, %.2f] m\n", s.lo, s.hi, lo, hi);
  EXPECT_LT(s.lo, lo + 5e-3) << "the lower limit was never reached";
  EXPECT_GT(s.hi, hi - 5e-3) << "the upper limit was never reached";
}

TEST_P(JointTypes, SliderOnAMovingBodysLineStaysOnItWithinPenaltyTolerance) {
  AFFIX_REQUIRE(GetParam(), JointType::slider, JointType::hinge, Feature::joint_limits);
  BodyDef block;
  const Scene scene = rail_scene(block, JointType::slider);
  const RailResult r = run_rail(GetParam(), scene, block.position, false);
  std::printf("slider (body line): max off line %.2e m, travel [%.4f, %.4f] m\n", r.max_off_line, r.along.lo,
              r.along.hi);
  EXPECT_GT(r.along.span(), 0.05) << "the block did not slide";
}

// ------------------------------------------------------------ distance

// ipc-specific: ipc keeps a distance joint by a penalty of stiffness k = kPenaltyStiffnessPerMass × m
// against the world, so the static stretch is m g / k = g / 10⁷ (an exact joint has none).
TEST(JointTypesIpc, DistanceHangingAtRestStretchesByMgOverK) {
  const Vec3 top(0, 0, -0.4), hook(0, 0, 0);
  Scene scene = scene_of({test::box_body("bob", Vec3(0.2, 0.2, 0.2), Vec3(0, 0, -0.5))});
  scene.settings.solver_settings["ipc"]["tolerance"] = 1e-8;  // the default stops Newton within ~1e-7 m, a tenth of m g / k
  JointDef& j = test::add_joint(scene, JointType::distance, "bob", "world");
  j.anchor1 = top;
  j.anchor2 = hook;
  const auto model = test::compiled(scene, "ipc");
  const auto sim = make_simulator(model);
  Tracker track(*sim);
  const double m = model->bodies[0].mass, k = kPenaltyStiffnessPerMass * m, expected = m * kG / k;
  double stretch = 0.0;
  for (int n = 1; n <= 50; ++n) {
    sim->step();
    track.update(*sim);
    stretch = (track.point(0, top) - hook).norm() - 0.4;
    ASSERT_LT(std::abs(stretch), 1e-3) << "step " << n;
  }
  std::printf("distance at rest: stretch %.4e m, m g / k = %.4e m\n", stretch, expected);
  EXPECT_NEAR(stretch, expected, 0.02 * expected);
}

TEST_P(JointTypes, DistanceSwingingKeepsItsLength) {
  AFFIX_REQUIRE(GetParam(), JointType::distance);
  const Vec3 top(0, 0, -0.4), hook(0.1, 0, 0);
  BodyDef bob = test::box_body("bob", Vec3(0.2, 0.2, 0.2), Vec3(0, 0, -0.5));
  bob.velocity = Vec3(0, 1.5, 0);
  bob.angular_velocity = Vec3(0, 0, 2);
  Scene scene = scene_of({bob});
  JointDef& j = test::add_joint(scene, JointType::distance, "bob", "world");
  j.anchor1 = top;
  j.anchor2 = hook;
  const auto sim = test::simulate(scene, GetParam());
  Tracker track(*sim);
  const double length = (top - hook).norm();
  double worst = 0.0;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    const double error = std::abs((track.point(0, top) - hook).norm() - length);
    worst = std::max(worst, error);
    ASSERT_LT(error, 1e-3) << "step " << n;
  }
  // Tension at most m(g + v²/l) with v² ≤ 1.5² + 2 g (swing height): a few times m g / k for ipc's
  // penalty (JointTypesIpc.DistanceHangingAtRestStretchesByMgOverK); an exact joint stays well within.
  const double bound = (kG + (1.5 * 1.5 + 2.0 * kG * 0.2) / length) / kPenaltyStiffnessPerMass;
  std::printf("distance swinging: max |d - l| %.3e m (rough dynamic bound %.3e m)\n", worst, bound);
  EXPECT_LT(worst, 3.0 * bound);
}

TEST_P(JointTypes, DistanceWithOnlyAMaximumIsARope) {
  AFFIX_REQUIRE(GetParam(), JointType::distance, Feature::joint_limits);
  const Vec3 top(0, 0, -0.2), hook(0, 0, 0);
  const double max = 0.35;
  BodyDef bob = test::box_body("bob", Vec3(0.2, 0.2, 0.2), Vec3(0, 0, -0.3));
  bob.velocity = Vec3(1.0, 0, 0.5);
  Scene scene = scene_of({bob});
  JointDef& j = test::add_joint(scene, JointType::distance, "bob", "world");
  j.anchor1 = top;
  j.anchor2 = hook;
  j.max_length = max;
  const auto sim = test::simulate(scene, GetParam());
  Tracker track(*sim);
  Range d;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    d.add((track.point(0, top) - hook).norm());
    ASSERT_LE(d.hi, max + 1e-12) << "step " << n;
  }
  std::printf("rope: distance range [%.6f, %.9f] m, max %.2f m\n", d.lo, d.hi, max);
  EXPECT_GT(d.hi, max - 5e-3) << "the rope never went taut";
  EXPECT_LT(d.lo, 0.25) << "the rope was never slack";
}

// ------------------------------------------------------------ collide_connected

Scene overlapping_pair(bool collide_connected) {
  BodyDef a = test::box_body("a", Vec3(0.2, 0.2, 0.2), Vec3(0, 0, 0));
  BodyDef b = test::box_body("b", Vec3(0.2, 0.2, 0.2), Vec3(0.15, 0, 0));
  a.angular_velocity = Vec3(0, 0, 1);
  b.angular_velocity = Vec3(0, 2, 0);
  Scene scene = scene_of({a, b});
  JointDef& j = test::add_joint(scene, JointType::ball, "a", "b");
  j.anchor = Vec3(0.075, 0, 0);
  j.collide_connected = collide_connected;
  return scene;
}

TEST_P(JointTypes, JointedBodiesMayOverlapUnlessTheyCollide) {
  AFFIX_REQUIRE(GetParam(), JointType::ball);
  const auto sim = test::simulate(overlapping_pair(false), GetParam());
  Tracker track(*sim);
  for (int n = 1; n <= 30; ++n) {
    ASSERT_NO_THROW(sim->step()) << "step " << n;
    track.update(*sim);
    ASSERT_LT(track.gap(0, 1, Vec3(0.075, 0, 0)), row_tolerance()) << "step " << n;
  }
  try {
    const auto refused = test::simulate(overlapping_pair(true), GetParam());
    ADD_FAILURE() << "overlapping bodies that may collide were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("intersects"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------ closed loop

/// A planar four-bar in the xz-plane hanging from a fixed ground link; every hinge axis is y.
struct FourBar {
  struct Hinge {
    const char *body1, *body2;
    Vec3 anchor;
  };
  Scene scene;
  std::vector<Hinge> hinges;
};

FourBar four_bar() {
  const Vec3 A(0, 0, 0), D(0.4, 0, 0), B = A + Vec3(0.1, 0, -0.3), C = D + Vec3(0.05, 0, -0.35);
  BodyDef ground = link_body("ground", A, D, 0.03);
  ground.fixed = true;
  BodyDef crank = link_body("crank", A, B, 0.03);
  crank.angular_velocity = Vec3(0, 2, 0);
  crank.velocity = crank.angular_velocity.cross(crank.position - A);
  FourBar f{scene_of({ground, crank, link_body("coupler", B, C, 0.03), link_body("rocker", D, C, 0.03)}),
            {{"crank", "ground", A}, {"coupler", "crank", B}, {"rocker", "coupler", C}, {"rocker", "ground", D}}};
  for (const auto& h : f.hinges) {
    JointDef& j = test::add_joint(f.scene, JointType::hinge, h.body1, h.body2);
    j.anchor = h.anchor;
    j.axis = Vec3::UnitY();
  }
  return f;
}

TEST_P(JointTypes, FourBarLinkageStaysClosed) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge, Feature::prescribed_motion);
  const FourBar f = four_bar();
  const auto model = test::compiled(f.scene, GetParam());
  const auto sim = make_simulator(model);
  Tracker track(*sim);
  Range crank_angle;
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    for (const auto& h : f.hinges) {
      const int b1 = *f.scene.body_index(h.body1), b2 = *f.scene.body_index(h.body2);
      ASSERT_LT(track.gap(b1, b2, h.anchor), row_tolerance()) << h.body1 << "-" << h.body2 << ", step " << n;
      ASSERT_LT(track.gap(b1, b2, h.anchor + 0.05 * Vec3::UnitY()), row_tolerance())
          << h.body1 << "-" << h.body2 << ", step " << n;
    }
    ASSERT_LT(test::max_anchor_gap(*model, sim->joint_records()), row_tolerance()) << "joint record, step " << n;
    crank_angle.add(angle_about(track.relative_rotation(1, 0), Vec3::UnitY()));
  }
  std::printf("four-bar: crank angle range %.3f rad\n", crank_angle.span());
  EXPECT_GT(crank_angle.span(), 0.1) << "the linkage did not move";
}

// ipc-specific: ipc eliminates hinge rows by a change of variables and drops the linearly dependent ones.
TEST(JointTypesIpc, FourBarLinkageDropsRedundantRows) {
  const auto sim = test::simulate(four_bar().scene, "ipc");
  const StepStats stats = sim->step();
  // With parallel axes, the fourth hinge's rows are implied by the others in 3 of 6 directions
  // (the loop's affine maps telescope), and the solver counts each dropped row as a warning.
  std::printf("four-bar: first step warnings %d\n", stats.warnings);
  EXPECT_GT(stats.warnings, 0) << "the closed loop's redundant rows were not reported";
}

// ------------------------------------------------------------ kinematic driver

TEST_P(JointTypes, BodyHangingFromAKinematicBodyFollowsIt) {
  AFFIX_REQUIRE(GetParam(), JointType::ball, Feature::prescribed_motion);
  const Vec3 anchor(0, 0, 0.8);
  BodyDef driver = test::box_body("driver", Vec3(0.2, 0.2, 0.2), Vec3(0, 0, 1));
  Kinematic k;
  k.velocity = Vec3(0.5, 0, 0.2);
  k.angular_velocity = Vec3(0, 0, 2);
  driver.kinematic = k;
  BodyDef bob = test::box_body("bob", Vec3(0.2, 0.2, 0.2), Vec3(0, 0, 0.6));
  Scene scene = scene_of({driver, bob});
  test::add_joint(scene, JointType::ball, "bob", "driver").anchor = anchor;
  const auto sim = test::simulate(scene, GetParam());
  Tracker track(*sim);
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    track.update(*sim);
    ASSERT_LT(track.gap(1, 0, anchor), row_tolerance()) << "step " << n;
  }
  const Vec3 expected_anchor = anchor + 1.5 * k.velocity;  // the anchor is on the spin axis
  EXPECT_LT((track.point(0, anchor) - expected_anchor).norm(), 1e-9);
  EXPECT_GT((track.pose(1).p - bob.position).norm(), 0.7) << "the hanging body did not follow";
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, JointTypes, ::testing::ValuesIn(solver_names()), test::SolverName());

}  // namespace
}  // namespace affix
