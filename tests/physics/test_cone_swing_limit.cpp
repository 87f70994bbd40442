// A cone_twist's swing limit is a cone (joints/swing_cone.hpp) on the rigid back-ends, impulse and
// compliant: a bar hanging from the world on a cone_twist, without gravity, is spun about a swing axis
// and must stop on the cone, read from its pose alone. The closed forms are the cone's: with ±30° on both
// swings a push along the diagonal stops at 30° (the two Euler angles bounded alone stop it at the box's
// corner, 41.4°, as this solver did before: Bullet, PhysX and MuJoCo stop at 30°); with unequal or
// asymmetric spans the swing vector θn stays inside the ellipse (θn₁/Y)² + (θn₂/Z)² ≤ 1 of its quadrant
// and reaches it. ipc and mabd bound the two swing angles alone (README) and are not run here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
/// How far past the cone a step may end (rad): the solvers hold a limit to 1e-7 (compliant) or ε_P
/// (impulse) inside; this allows for the step's second-order drift on top.
constexpr double kConeTolerance = 1e-4;

struct ConeCase {
  const char* name;
  AngleRange swing1, swing2;  // degrees here, radians in the scene
  double n1, n2;              // the direction of the push in the (swing1, swing2) plane
};

struct ConeResult {
  double worst_ratio = 0.0;  // max over the steps of θ/θ_lim: 1 on the cone
  double worst_excess = 0.0; // max of θ − θ_lim (rad)
  double max_theta = 0.0;
};

ConeResult push_on_a_cone(const std::string& solver, const ConeCase& c, double dt) {
  Mat3 frame;  // x: the twist axis along the hanging bar; y: swing1; z: swing2
  frame.col(0) = -Vec3::UnitZ();
  frame.col(1) = Vec3::UnitX();
  frame.col(2) = frame.col(0).cross(frame.col(1));
  BodyDef bar = test::box_body("bar", Vec3(0.08, 0.08, 0.4), Vec3(0, 0, -0.25));
  const Vec3 omega = 2.0 * (c.n1 * frame.col(1) + c.n2 * frame.col(2)).normalized();  // rad/s
  bar.angular_velocity = omega;
  bar.velocity = omega.cross(bar.position);  // turning about the anchor at the origin
  Scene scene = test::scene_with({bar}, dt, std::nullopt);
  scene.settings.gravity = Vec3::Zero();
  JointDef& j = test::add_joint(scene, JointType::cone_twist, "bar", "world");
  j.anchor = Vec3::Zero();
  j.frame = frame;
  j.swing1_limits = AngleRange{c.swing1.min * kDeg, c.swing1.max * kDeg};
  j.swing2_limits = AngleRange{c.swing2.min * kDeg, c.swing2.max * kDeg};
  const auto sim = test::simulate(scene, solver);
  ConeResult out;
  const int steps = static_cast<int>(std::lround(1.0 / dt));
  for (int n = 0; n < steps; ++n) {
    sim->step();
    // The bar's twist axis in the world's joint frame: a = Fᵀ R F e_x; its swing θ about n (swing_cone.hpp).
    const Vec3 a = frame.transpose() * sim->poses()[0].A * frame.col(0);
    const double r = std::hypot(a.y(), a.z()), theta = std::atan2(r, a.x());
    if (r < 1e-9) continue;
    const double n1 = -a.z() / r, n2 = a.y() / r;
    const double Y = (n1 >= 0 ? c.swing1.max : -c.swing1.min) * kDeg, Z = (n2 >= 0 ? c.swing2.max : -c.swing2.min) * kDeg;
    const double limit = 1.0 / std::sqrt(n1 * n1 / (Y * Y) + n2 * n2 / (Z * Z));  // the ellipse of the quadrant
    out.worst_ratio = std::max(out.worst_ratio, theta / limit);
    out.worst_excess = std::max(out.worst_excess, theta - limit);
    out.max_theta = std::max(out.max_theta, theta);
  }
  return out;
}

class ConeSwingLimit : public test::SolverTest {};

TEST_P(ConeSwingLimit, APushAlongTheDiagonalStopsAtThirtyDegreesNotAtTheBoxCorner) {
  for (double dt : {0.01, 0.05}) {
    const ConeResult r = push_on_a_cone(GetParam(), {"diagonal", {-30, 30}, {-30, 30}, 1, 1}, dt);
    std::printf("%s h = %g: diagonal push, largest swing %.4f deg (cone 30, box corner 41.41)\n", GetParam().c_str(), dt,
                r.max_theta / kDeg);
    EXPECT_LE(r.max_theta, 30 * kDeg + kConeTolerance) << "h = " << dt;
    EXPECT_GE(r.max_theta, 29.9 * kDeg) << "h = " << dt << ": the bar never reached the cone";
  }
}

TEST_P(ConeSwingLimit, UnequalAndAsymmetricSpansHoldTheSwingInsideTheirEllipse) {
  const ConeCase cases[] = {{"ellipse", {-20, 20}, {-40, 40}, 1, 1},
                            {"ellipse, steep", {-20, 20}, {-40, 40}, 1, 3},
                            {"asymmetric", {-15, 35}, {-30, 25}, -1, 2},
                            {"asymmetric, other quadrant", {-15, 35}, {-30, 25}, 2, -1}};
  for (const ConeCase& c : cases) {
    const ConeResult r = push_on_a_cone(GetParam(), c, 0.01);
    std::printf("%s %s: largest θ/θ_lim %.6f, excess %.2e rad\n", GetParam().c_str(), c.name, r.worst_ratio,
                r.worst_excess);
    EXPECT_LE(r.worst_excess, kConeTolerance) << c.name;
    EXPECT_GE(r.worst_ratio, 0.99) << c.name << ": the bar never reached the cone";
  }
}

INSTANTIATE_TEST_SUITE_P(RigidSolvers, ConeSwingLimit, ::testing::Values("compliant", "impulse"), test::SolverName());

}  // namespace
}  // namespace affix
