// The joint scenes of examples/joints (Chen 2022 §6.1–6.2, scripts/make_joint_scenes.py) against
// closed-form and geometric answers, measured from the bodies' poses only (never from the solver's
// own joint-error statistic): anchor gaps of ball joints, hinge and cone-twist angles against their
// ranges, prismatic displacements against their limits, the period of a physical pendulum, and the
// bounce of a board off its hinge limit. On every solver that keeps the scene's joints.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "affix/math/rotation.hpp"
#include "affix/scene/scene_loader.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

using test::Feature;

constexpr double kDeg = std::numbers::pi / 180.0;

class JointScenes : public test::SolverTest {};

Scene joint_scene(const std::string& name) {
  return load_scene(std::string(AFFIX_SOURCE_DIR) + "/examples/joints/" + name + ".json");
}

int steps_for(const Scene& scene, double duration) {
  return static_cast<int>(std::lround(duration / scene.settings.dt));
}

/// Where rest point x̄ of a body in `pose` lands.
Vec3 world_of(const BodyPose& pose, const Vec3& x_bar) { return pose.A * x_bar + pose.p; }

/// The rest-frame coordinates of world point x in `pose` (the world: body −1, x itself).
Vec3 rest_of(const std::vector<BodyPose>& poses, int body, const Vec3& x) {
  if (body < 0) return x;
  return poses[body].A.inverse() * (x - poses[body].p);
}

Vec3 world_of(const std::vector<BodyPose>& poses, int body, const Vec3& x_bar) {
  return body < 0 ? x_bar : world_of(poses[body], x_bar);
}

bool finite(const BodyPose& pose) { return pose.p.allFinite() && pose.A.allFinite(); }

/// The rotation that has taken a body from its initial orientation to its current one.
Mat3 rotation_since_start(const BodyPose& start, const BodyPose& now) {
  return polar_rotation(now.A) * polar_rotation(start.A).transpose();
}

/// Angle (rad, right-handed about the unit `axis`) by which the body's rest direction `u_bar` has
/// turned from the world direction `u0` (perpendicular to the axis) it had at the start.
double angle_about(const Vec3& axis, const Vec3& u0, const Vec3& u_now) {
  const Vec3 v0 = axis.cross(u0);
  return std::atan2(u_now.dot(v0), u_now.dot(u0));
}

double wrap(double a) { return std::remainder(a, 2.0 * std::numbers::pi); }

/// ‖x_a − x_b‖ of every ball joint's anchor, seen from each of its two bodies.
struct AnchorGaps {
  std::vector<int> body1, body2;
  std::vector<Vec3> bar1, bar2;

  AnchorGaps(const Scene& scene, const std::vector<BodyPose>& start) {
    for (const JointDef& j : scene.joints) {
      body1.push_back(j.body1_index);
      body2.push_back(j.body2_index);
      bar1.push_back(rest_of(start, j.body1_index, j.anchor));
      bar2.push_back(rest_of(start, j.body2_index, j.anchor));
    }
  }

  double max_gap(const std::vector<BodyPose>& poses) const {
    double gap = 0.0;
    for (std::size_t k = 0; k < body1.size(); ++k)
      gap = std::max(gap, (world_of(poses, body1[k], bar1[k]) - world_of(poses, body2[k], bar2[k])).norm());
    return gap;
  }
};

// ------------------------------------------------------------------------------------ ball joints

TEST_P(JointScenes, TripleRodPendulumKeepsEveryAnchorTogether) {
  AFFIX_REQUIRE(GetParam(), JointType::ball);
  const Scene scene = joint_scene("triple_rod_pendulum");
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  const AnchorGaps gaps(scene, sim->poses());
  const int steps = steps_for(scene, 2.0);
  double worst = 0.0;
  for (int n = 1; n <= steps; ++n) {
    sim->step();
    const double gap = gaps.max_gap(sim->poses());
    worst = std::max(worst, gap);
    ASSERT_LT(gap, 1e-6) << "step " << n;
    ASSERT_LT(test::max_anchor_gap(*model, sim->joint_records()), 1e-6) << "joint record, step " << n;
  }
  const double moved = (sim->poses()[2].p - scene.bodies[2].position).norm();
  std::printf("triple-rod pendulum: max anchor gap %.3e m over %d steps; last rod moved %.3f m\n", worst, steps, moved);
  RecordProperty("max_gap_m", std::to_string(worst));
  EXPECT_GT(moved, 0.1) << "the pendulum swings";
}

TEST_P(JointScenes, ChainOfAHundredLinksWithAHeavyEndStaysFiniteAndConnected) {
  AFFIX_REQUIRE(GetParam(), JointType::ball);
  Scene scene = joint_scene("chain_100");
  ASSERT_DOUBLE_EQ(scene.settings.dt, 0.01);
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  const AnchorGaps gaps(scene, sim->poses());
  const int steps = steps_for(scene, 1.0);
  double worst = 0.0;
  for (int n = 1; n <= steps; ++n) {
    sim->step();
    const std::vector<BodyPose> poses = sim->poses();
    for (std::size_t i = 0; i < poses.size(); ++i) ASSERT_TRUE(finite(poses[i])) << "step " << n << ", body " << i;
    for (const BodyVelocity& v : sim->velocities())
      ASSERT_TRUE(v.linear.allFinite() && v.A_dot.allFinite() && v.angular.allFinite()) << "step " << n;
    const double gap = gaps.max_gap(poses);
    worst = std::max(worst, gap);
    ASSERT_LT(gap, 1e-6) << "step " << n;
    ASSERT_LT(test::max_anchor_gap(*model, sim->joint_records()), 1e-6) << "joint record, step " << n;
  }
  const int weight = *scene.body_index("weight");
  std::printf("chain of 100: max joint gap %.3e m over %d steps; weight fell %.3f m\n", worst, steps,
              scene.bodies[weight].position.z() - sim->poses()[weight].p.z());
  RecordProperty("max_gap_m", std::to_string(worst));
  EXPECT_GT(scene.bodies[weight].position.z() - sim->poses()[weight].p.z(), 1.0);  // it was released
}

// ------------------------------------------------------------------------------------ hinges

/// One run of hinge_boards.json, shared by the tests below: each board's angle about the shaft after
/// every step (unwrapped, for the free board) and its ball's least speed along +y.
struct HingeBoardRun {
  struct Board {
    std::string name, ball_name;
    int body = -1, ball = -1;
    Vec3 axis, u0, u_bar;
    std::optional<AngleRange> range;
    double thrown = 0.0, min_ball_speed = 1e300;
    double angle = 0.0, min_angle = 0.0, max_angle = 0.0;
    int first_violation = 0;  ///< step of the first angle outside the range (0: none)
    double worst_excess = 0.0;  ///< rad beyond the range, at most
  };
  std::vector<Board> boards;
  static constexpr double kTolerance = 1e-6;  ///< rad: no bound touches the start here, so no widening
};

/// One run per solver, kept for the tests that read it.
const HingeBoardRun& hinge_board_run(const std::string& solver) {
  static std::map<std::string, HingeBoardRun> runs;
  if (const auto found = runs.find(solver); found != runs.end()) return found->second;
  const HingeBoardRun run = [&] {
    const Scene scene = joint_scene("hinge_boards");
    const auto sim = test::simulate(scene, solver);
    const std::vector<BodyPose> start = sim->poses();
    HingeBoardRun r;
    for (int k = 0; k < 3; ++k) {
      const JointDef& j = scene.joints[k];
      EXPECT_EQ(j.type, JointType::hinge);
      EXPECT_TRUE(scene.bodies[j.body2_index].fixed);  // angles about the shaft are world angles
      HingeBoardRun::Board b;
      b.body = j.body1_index;
      b.name = scene.bodies[b.body].name;
      b.ball_name = "ball" + std::to_string(k);
      b.ball = *scene.body_index(b.ball_name);
      b.thrown = scene.bodies[b.ball].velocity.y();
      b.axis = j.axis;
      b.u0 = -Vec3::UnitZ();  // the board hangs down from the shaft
      b.u_bar = start[b.body].A.inverse() * b.u0;
      b.range = j.angle_limits;
      r.boards.push_back(b);
    }
    const int steps = steps_for(scene, scene.settings.duration);
    for (int n = 1; n <= steps; ++n) {
      sim->step();
      const std::vector<BodyPose> poses = sim->poses();
      const std::vector<BodyVelocity> velocities = sim->velocities();
      for (HingeBoardRun::Board& b : r.boards) {
        const double now = angle_about(b.axis, b.u0, poses[b.body].A * b.u_bar);
        b.angle += wrap(now - wrap(b.angle));
        b.min_angle = std::min(b.min_angle, b.angle);
        b.max_angle = std::max(b.max_angle, b.angle);
        b.min_ball_speed = std::min(b.min_ball_speed, velocities[b.ball].linear.y());
        if (!b.range) continue;
        const double excess = std::max(b.angle - b.range->max, b.range->min - b.angle);
        b.worst_excess = std::max(b.worst_excess, excess);
        if (excess > HingeBoardRun::kTolerance && b.first_violation == 0) b.first_violation = n;
      }
    }
    for (const HingeBoardRun::Board& b : r.boards) {
      const double lo = b.range ? b.range->min / kDeg : -180.0, hi = b.range ? b.range->max / kDeg : 180.0;
      std::printf("hinge board %s: angle reached [%.3f, %.3f] deg, limits [%.0f, %.0f] deg; "
                  "%s y-speed %.2f m/s, least %.2f m/s\n",
                  b.name.c_str(), b.min_angle / kDeg, b.max_angle / kDeg, lo, hi, b.ball_name.c_str(), b.thrown,
                  b.min_ball_speed);
    }
    return r;
  }();
  return runs.emplace(solver, run).first->second;
}

TEST_P(JointScenes, HingeBoardsAreHitAndStayWithinTheirRanges) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge, Feature::joint_limits, Feature::body_contact, Feature::prescribed_motion);
  for (const HingeBoardRun::Board& b : hinge_board_run(GetParam()).boards) {
    RecordProperty(b.name + "_max_deg", std::to_string(b.max_angle / kDeg));
    RecordProperty(b.name + "_min_deg", std::to_string(b.min_angle / kDeg));
    // The ball hit its board: it slowed down along +y (a ball in free flight keeps its y-speed).
    EXPECT_LT(b.min_ball_speed, 0.8 * b.thrown) << b.ball_name;
    if (b.range) {
      EXPECT_EQ(b.first_violation, 0) << b.name << " left its range by up to " << b.worst_excess << " rad";
    } else {
      EXPECT_GT(b.max_angle - b.min_angle, 90.0 * kDeg) << "the free board turns";
    }
  }
}

TEST_P(JointScenes, HingeBoardsWithLimitsSwingUpToTheirStops) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge, Feature::joint_limits, Feature::body_contact, Feature::prescribed_motion);
  for (const HingeBoardRun::Board& b : hinge_board_run(GetParam()).boards) {
    if (!b.range) continue;
    // Within 2° of the upper stop (the barrier acts from ĉ/ℓ ≈ 0.2° before it).
    EXPECT_GT(b.max_angle, b.range->max - 2.0 * kDeg)
        << b.name << " reached only " << b.max_angle / kDeg << " deg of its " << b.range->max / kDeg
        << " deg stop (the scene's ball is too slow to carry it there)";
  }
}

TEST_P(JointScenes, RotatingBoardBouncesBackOffItsHingeLimit) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge, Feature::joint_limits, Feature::bdf2);
  const Scene scene = joint_scene("rotating_board");
  const auto sim = test::simulate(scene, GetParam());
  const std::vector<BodyPose> start = sim->poses();
  const JointDef& hinge = scene.joints[0];
  ASSERT_TRUE(hinge.angle_limits.has_value());
  const double bound = hinge.angle_limits->max, tolerance = 1e-6;
  const Vec3 axis = hinge.axis, u0 = Vec3::UnitX();  // the board points along +x from the hinge
  const Vec3 u_bar = start[0].A.inverse() * u0;
  double max_angle = -1.0, min_omega = 1e300, omega0 = 0.0, t_max = 0.0;
  bool reversed = false;
  const int steps = steps_for(scene, 1.0);  // the bounce is at about 0.42 s
  for (int n = 1; n <= steps; ++n) {
    sim->step();
    const BodyPose pose = sim->poses()[0];
    const double angle = angle_about(axis, u0, pose.A * u_bar);
    // ω about the axis: Ȧ A⁻¹ = [ω]ₓ for a rigid motion.
    const Mat3 W = sim->velocities()[0].A_dot * pose.A.inverse();
    const double omega = axis.dot(Vec3(W(2, 1) - W(1, 2), W(0, 2) - W(2, 0), W(1, 0) - W(0, 1)) / 2.0);
    if (n == 1) omega0 = omega;
    if (angle > max_angle) max_angle = angle, t_max = sim->time();
    min_omega = std::min(min_omega, omega);
    reversed = reversed || omega < 0.0;
    ASSERT_LE(angle, bound + tolerance) << "step " << n;
    ASSERT_GE(angle, -bound - tolerance) << "step " << n;
  }
  std::printf("rotating board: max angle %.4f deg at t = %.3f s (limit %.1f deg); omega %.4f -> min %.4f rad/s\n",
              max_angle / kDeg, t_max, bound / kDeg, omega0, min_omega);
  RecordProperty("max_angle_deg", std::to_string(max_angle / kDeg));
  RecordProperty("min_omega", std::to_string(min_omega));
  // The barrier acts within ĉ = d̂ (1 cm in this scene) of the bound, measured as a chord at the probe
  // radius ℓ (the board's bounding radius, 0.34 m): the bounce happens within about ĉ/ℓ ≈ 1.7°.
  EXPECT_GT(max_angle, bound - 3.0 * kDeg);
  EXPECT_TRUE(reversed) << "the board should bounce back off its +30 deg stop";
  // ĉ/h = 10 m/s, far above the probe's speed: the bounce is elastic (Chen 2022 Eq. 23, Fig. 19).
  EXPECT_LT(min_omega, -0.95 * omega0) << "and keep its speed (no damping)";
}

// ------------------------------------------------------------------------------------ prismatic

TEST_P(JointScenes, MonocularSectionsSlideWithinTheirLimitsAlongTheAxis) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge, JointType::prismatic, Feature::joint_limits);
  const Scene scene = joint_scene("monocular");
  const auto sim = test::simulate(scene, GetParam());
  const std::vector<BodyPose> start = sim->poses();
  struct Slide {
    int inner = -1, outer = -1;
    Vec3 inner_bar, outer_bar, axis_bar;
    double lo = 0.0, hi = 0.0, min_s = 0.0, max_s = 0.0, max_offset = 0.0;
  };
  std::vector<Slide> slides;
  for (const JointDef& j : scene.joints) {
    if (j.type != JointType::prismatic) continue;
    Slide s;
    s.inner = j.body1_index;
    s.outer = j.body2_index;
    s.inner_bar = rest_of(start, s.inner, j.anchor);
    s.outer_bar = rest_of(start, s.outer, j.anchor);
    s.axis_bar = start[s.outer].A.inverse() * j.axis;
    s.lo = (*j.limits)[0];
    s.hi = (*j.limits)[1];
    ASSERT_LT(s.lo, 0.0);  // it starts between its limits: no widening
    ASSERT_GT(s.hi, 0.0);
    slides.push_back(s);
  }
  ASSERT_EQ(slides.size(), 2u);
  const double tolerance = 1e-6;  // m
  const int steps = steps_for(scene, scene.settings.duration);
  for (int n = 1; n <= steps; ++n) {
    sim->step();
    const std::vector<BodyPose> poses = sim->poses();
    for (Slide& s : slides) {
      const Vec3 axis = (poses[s.outer].A * s.axis_bar).normalized();
      const Vec3 d = world_of(poses[s.inner], s.inner_bar) - world_of(poses[s.outer], s.outer_bar);
      const double along = d.dot(axis), offset = (d - along * axis).norm();
      s.min_s = std::min(s.min_s, along);
      s.max_s = std::max(s.max_s, along);
      s.max_offset = std::max(s.max_offset, offset);
      ASSERT_LE(along, s.hi + tolerance) << scene.bodies[s.inner].name << ", step " << n;
      ASSERT_GE(along, s.lo - tolerance) << scene.bodies[s.inner].name << ", step " << n;
      ASSERT_LT(offset, 1e-4) << scene.bodies[s.inner].name << ", step " << n;
    }
  }
  for (const Slide& s : slides) {
    std::printf("monocular %s in %s: displacement [%.5f, %.5f] m (limits [%.3f, %.3f]), max offset from axis %.3e m\n",
                scene.bodies[s.inner].name.c_str(), scene.bodies[s.outer].name.c_str(), s.min_s, s.max_s, s.lo,
                s.hi, s.max_offset);
    RecordProperty(scene.bodies[s.inner].name + "_max_offset_m", std::to_string(s.max_offset));
    // The swing slides it: it does not stay where it started.
    EXPECT_GT(s.max_s - s.min_s, 0.05) << scene.bodies[s.inner].name;
  }
}

// ------------------------------------------------------------------------------------ cone twist

/// (twist, swing1, swing2) of M = R_z(swing2)·R_y(swing1)·R_x(twist).
Vec3 twist_swing_angles(const Mat3& M) {
  return {std::atan2(M(2, 1), M(2, 2)), std::asin(std::clamp(-M(2, 0), -1.0, 1.0)), std::atan2(M(1, 0), M(0, 0))};
}

TEST_P(JointScenes, NunchakuConeTwistStaysWithinItsRangesAndReachesThem) {
  AFFIX_REQUIRE(GetParam(), JointType::cone_twist, Feature::joint_limits, Feature::prescribed_motion);
  const Scene scene = joint_scene("nunchaku");
  const auto sim = test::simulate(scene, GetParam());
  const std::vector<BodyPose> start = sim->poses();
  const JointDef& cone = scene.joints[0];
  ASSERT_EQ(cone.type, JointType::cone_twist);
  const int child = cone.body1_index, parent = cone.body2_index;
  const Mat3& F = cone.frame;
  const AngleRange ranges[3] = {*cone.twist_limits, *cone.swing1_limits, *cone.swing2_limits};
  const char* names[3] = {"twist", "swing1", "swing2"};
  for (const AngleRange& r : ranges) ASSERT_TRUE(r.min < 0.0 && r.max > 0.0);  // no widening
  const double tolerance = 1e-6;  // rad
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();
  const int steps = steps_for(scene, scene.settings.duration);
  for (int n = 1; n <= steps; ++n) {
    sim->step();
    const std::vector<BodyPose> poses = sim->poses();
    // Each body's rotation since the start, both in world-at-t₀ axes: D₂ᵀD₁ = R_z R_y R_x in the frame.
    const Mat3 D1 = rotation_since_start(start[child], poses[child]);
    const Mat3 D2 = rotation_since_start(start[parent], poses[parent]);
    const Vec3 angles = twist_swing_angles(F.transpose() * D2.transpose() * D1 * F);
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], angles[k]);
      hi[k] = std::max(hi[k], angles[k]);
      ASSERT_LE(angles[k], ranges[k].max + tolerance) << names[k] << ", step " << n;
      ASSERT_GE(angles[k], ranges[k].min - tolerance) << names[k] << ", step " << n;
    }
  }
  double closest = 1e300;  // how near the motion came to any bound (rad)
  for (int k = 0; k < 3; ++k) {
    std::printf("nunchaku %s: reached [%.4f, %.4f] deg (range [%.0f, %.0f])\n", names[k], lo[k] / kDeg,
                hi[k] / kDeg, ranges[k].min / kDeg, ranges[k].max / kDeg);
    RecordProperty(std::string(names[k]) + "_min_deg", std::to_string(lo[k] / kDeg));
    RecordProperty(std::string(names[k]) + "_max_deg", std::to_string(hi[k] / kDeg));
    closest = std::min({closest, ranges[k].max - hi[k], lo[k] - ranges[k].min});
  }
  EXPECT_LT(closest, 0.5 * kDeg) << "the second section should reach at least one stop";
}

// ------------------------------------------------------------------------------------ pendulum

/// Complete elliptic integral of the first kind K(k) = π / (2 AGM(1, √(1 − k²))).
double elliptic_k(double k) {
  return std::numbers::pi / (2.0 * test::arithmetic_geometric_mean(1.0, std::sqrt(1.0 - k * k)));
}

TEST_P(JointScenes, PhysicalPendulumHasTheLargeAmplitudePeriod) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge, Feature::bdf2);
  const Scene scene = joint_scene("physical_pendulum");
  ASSERT_EQ(scene.settings.integrator, Integrator::bdf2);
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  const JointDef& pivot = scene.joints[0];
  const BodyDef& rod = scene.bodies[0];
  const Vec3 size = std::get<BoxShape>(rod.shape).size;
  // Swing plane xz (axis y): the rod's extents in it are its x and z sizes.
  ASSERT_TRUE(pivot.axis.isApprox(Vec3::UnitY()));
  const double g = -scene.settings.gravity.z();
  const double d = (rod.position - pivot.anchor).norm();
  const double i_over_m = (size.x() * size.x() + size.z() * size.z()) / 12.0 + d * d;
  const double theta0 = std::atan2(rod.position.x() - pivot.anchor.x(), pivot.anchor.z() - rod.position.z());
  const double expected = 4.0 * std::sqrt(i_over_m / (g * d)) * elliptic_k(std::sin(theta0 / 2.0));

  // θ = angle of the centre from straight down; crossings of θ = 0 going + → − are one period apart.
  const Vec3 c_bar = model->bodies[0].center_of_mass;
  std::vector<double> crossings;
  double previous = theta0, t_previous = 0.0;
  const int steps = steps_for(scene, scene.settings.duration);
  for (int n = 1; n <= steps && crossings.size() < 2; ++n) {
    sim->step();
    const Vec3 c = world_of(sim->poses()[0], c_bar) - pivot.anchor;
    const double theta = std::atan2(c.x(), -c.z());
    if (previous > 0.0 && theta <= 0.0)
      crossings.push_back(t_previous + (sim->time() - t_previous) * previous / (previous - theta));
    previous = theta, t_previous = sim->time();
  }
  ASSERT_EQ(crossings.size(), 2u);
  const double period = crossings[1] - crossings[0];
  std::printf("physical pendulum: period %.5f s, expected %.5f s (I/m = %.6f m^2, d = %.3f m, K = %.6f), "
              "error %.3f %%\n",
              period, expected, i_over_m, d, elliptic_k(std::sin(theta0 / 2.0)),
              100.0 * (period - expected) / expected);
  RecordProperty("period_s", std::to_string(period));
  RecordProperty("expected_period_s", std::to_string(expected));
  EXPECT_NEAR(period, expected, 0.01 * expected);
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, JointScenes, ::testing::ValuesIn(solver_names()), test::SolverName());

}  // namespace
}  // namespace affix
