// Body–body contact against closed forms: rest gaps, friction angle, momentum, topology, on every
// solver that has what each test needs; two tests stay on ipc (see each).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "affix/error.hpp"
#include "affix/geometry/mesh_intersection.hpp"
#include "affix/solvers/ipc/ipc_settings.hpp"
#include "affix/solvers/ipc/ipc_simulator.hpp"
#include "support/physics.hpp"

namespace affix::test {

/// The lowest vertex of an ipc affine body in state q, for the pile test's check below, which reads
/// the ipc solver's bodies.
double lowest_vertex(const AffineBody& b, const Vec12& q) {
  return lowest_vertex(static_cast<const ModelBody&>(b), BodyPose{state_translation(q), state_matrix(q)});
}

}  // namespace affix::test

namespace affix {
namespace {

using test::Feature;

constexpr double kG = 9.81;

class BodyContact : public test::SolverTest {};

TEST_P(BodyContact, StackOfFiveBoxesRestsWithEachBoxWithinDhatOfTheOneBelow) {
  AFFIX_REQUIRE(GetParam(), Feature::ground_contact, Feature::body_contact, Feature::intersection_free);
  std::vector<BodyDef> boxes;
  for (int i = 0; i < 5; ++i)
    boxes.push_back(test::box_body("box" + std::to_string(i), Vec3::Constant(0.5),
                                   Vec3(0.02 * (i % 2), 0, 0.25 + 0.5 * i + 0.002 * (i + 1))));
  Scene scene = test::scene_with(boxes, 0.01);
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  const double dhat = read_ipc_settings(scene.settings, scene.file).dhat;
  for (int n = 0; n < 150; ++n) ASSERT_GT(sim->step().min_distance, 0.0) << "step " << n + 1;
  double top_below = 0.0;  // the ground
  for (int i = 0; i < 5; ++i) {
    const double bottom = test::lowest_vertex(model->bodies[i], sim->poses()[i]);
    EXPECT_GT(bottom - top_below, 0.0) << "box " << i;
    EXPECT_LT(bottom - top_below, dhat) << "box " << i;
    top_below = bottom + 0.5;
  }
}

/// An upper box on a fixed lower box with gravity tilted by θ about y (tan θ = 0.5); returns the
/// down-slope displacement of the upper box after each step.
std::vector<double> box_on_box(const std::string& solver, double mu, int steps, int friction_iterations = 1) {
  const double theta = std::atan(0.5), dt = 0.01;
  BodyDef lower = test::box_body("lower", Vec3(4, 1, 0.2), Vec3(0, 0, 0.1));
  lower.fixed = true;
  lower.friction = mu;
  BodyDef upper = test::box_body("upper", Vec3(0.3, 0.3, 0.2), Vec3(0, 0, 0.3 + 5e-4));
  upper.friction = mu;
  Scene scene = test::scene_with({lower, upper}, dt, std::nullopt);
  scene.settings.gravity = kG * Vec3(std::sin(theta), 0, -std::cos(theta));
  scene.settings.solver_settings["ipc"]["friction_iterations"] = friction_iterations;
  const auto sim = test::simulate(scene, solver);
  std::vector<double> x;
  for (int n = 0; n < steps; ++n) {
    sim->step();
    x.push_back(sim->poses()[1].p.x());
  }
  return x;
}

TEST_P(BodyContact, BoxOnBoxSticksAboveTheFrictionAngle) {
  AFFIX_REQUIRE(GetParam(), Feature::body_contact, Feature::friction, Feature::prescribed_motion);
  const std::vector<double> x = box_on_box(GetParam(), 0.6, 100);
  std::printf("box on box, mu = 0.6 > tan(theta): creep %.3e m over 1 s\n", x.back());
  EXPECT_LT(std::abs(x.back()), 1e-3 * 1.0);  // ε_v · t
}

TEST_P(BodyContact, BoxOnBoxSlidesBelowTheFrictionAngleWithCoulombAcceleration) {
  AFFIX_REQUIRE(GetParam(), Feature::body_contact, Feature::friction, Feature::prescribed_motion);
  const double theta = std::atan(0.5), mu = 0.3;
  const double expected = kG * (std::sin(theta) - mu * std::cos(theta));
  const std::vector<double> x = box_on_box(GetParam(), mu, 100);
  const double a = (x[99] - 2 * x[69] + x[39]) / (0.3 * 0.3);
  std::printf("box on box, mu = 0.3: acceleration %.4f m/s^2, Coulomb %.4f m/s^2\n", a, expected);
  EXPECT_NEAR(a, expected, 0.05 * expected);
}

// ipc-specific: settings.ipc.friction_iterations re-lags ipc's friction within a step.
TEST(BodyContactIpc, RelaggedFrictionKeepsTheCoulombAcceleration) {
  const double theta = std::atan(0.5), mu = 0.3;
  const double expected = kG * (std::sin(theta) - mu * std::cos(theta));
  const std::vector<double> x = box_on_box("ipc", mu, 100, 5);
  const double a = (x[99] - 2 * x[69] + x[39]) / (0.3 * 0.3);
  std::printf("box on box, mu = 0.3, re-lagged friction: acceleration %.4f m/s^2, Coulomb %.4f m/s^2\n", a, expected);
  EXPECT_NEAR(a, expected, 0.05 * expected);
}

TEST_P(BodyContact, HeadOnSpheresConserveLinearMomentumAndRebound) {
  AFFIX_REQUIRE(GetParam(), Feature::body_contact, Feature::bdf2);
  BodyDef left, right;
  left.name = "left", right.name = "right";
  left.shape = right.shape = SphereShape{0.2, 16};
  left.position = Vec3(-0.3, 0, 0), right.position = Vec3(0.3, 0.01, 0);
  left.velocity = Vec3(2, 0, 0), right.velocity = Vec3(-0.5, 0, 0);
  right.density = 2000;
  Scene scene = test::scene_with({left, right}, 0.005, std::nullopt);
  scene.settings.gravity.setZero();
  scene.settings.integrator = Integrator::bdf2;
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  const bool apart = solver_capabilities(GetParam()).intersection_free;  // a gap is then guaranteed
  const auto momentum = [&] {
    Vec3 P = Vec3::Zero();
    const std::vector<BodyVelocity> v = sim->velocities();
    for (int i = 0; i < 2; ++i) P += test::linear_momentum(model->bodies[i], v[i]);
    return P;
  };
  const Vec3 P0 = momentum();
  double worst = 0.0;
  for (int n = 0; n < 100; ++n) {
    const StepStats stats = sim->step();
    if (apart) {
      ASSERT_GT(stats.min_distance, 0.0);
    }
    worst = std::max(worst, (momentum() - P0).norm() / P0.norm());
  }
  std::printf("head-on spheres: relative momentum drift %.3e\n", worst);
  EXPECT_LT(worst, 1e-6);
  EXPECT_LT(sim->velocities()[0].linear.x(), 0.0);  // the light sphere bounced back
}

/// Gauss linking number of two circles (centre c, unit normal n, radius r), by the double sum over
/// polygons of 96 segments: ±1 when linked, 0 when not.
double linking_number(const Vec3& c1, const Vec3& n1, const Vec3& c2, const Vec3& n2, double r) {
  const auto circle = [r](const Vec3& c, const Vec3& n, int k, int m) {
    const Vec3 u = n.unitOrthogonal(), v = n.cross(u);
    const double t = 2 * M_PI * k / m;
    return Vec3(c + r * (std::cos(t) * u + std::sin(t) * v));
  };
  const int m = 96;
  double sum = 0.0;
  for (int i = 0; i < m; ++i) {
    const Vec3 a0 = circle(c1, n1, i, m), a1 = circle(c1, n1, i + 1, m);
    for (int j = 0; j < m; ++j) {
      const Vec3 b0 = circle(c2, n2, j, m), b1 = circle(c2, n2, j + 1, m);
      const Vec3 d = 0.5 * (a0 + a1) - 0.5 * (b0 + b1);
      sum += d.dot((a1 - a0).cross(b1 - b0)) / std::pow(d.norm(), 3);
    }
  }
  return sum / (4 * M_PI);
}

TEST_P(BodyContact, RingChainSwingsWithoutAnyRingPassingThroughAnother) {
  // Rings must never pass through each other: a guarantee only an intersection-free solver makes (mabd's
  // penalty lets a ring through once it moves past the contact thickness in one step).
  AFFIX_REQUIRE(GetParam(), Feature::body_contact, Feature::prescribed_motion, Feature::intersection_free);
  // Rings in alternating planes (normals y and x), one major radius apart along z: each threads the
  // next with core circles 0.07 apart, and rings i and i + 2 (same plane) 0.02 apart. The chain is turned
  // by 0.6 rad about the fixed top ring so that it swings.
  const double major = 0.1, minor = 0.02, pitch = 0.13;
  const Vec3 pivot(0, 0, 1);
  const Quat swing(Eigen::AngleAxisd(0.6, Vec3::UnitY()));
  std::vector<BodyDef> rings;
  for (int i = 0; i < 5; ++i) {
    BodyDef ring;
    ring.name = "ring" + std::to_string(i);
    ring.shape = TorusShape{major, minor, 16};
    const Quat plane(Eigen::AngleAxisd(M_PI / 2, i % 2 ? Vec3::UnitY() : Vec3::UnitX()));
    ring.position = pivot + swing * Vec3(0, 0, -pitch * i);
    ring.rotation = swing * plane;
    rings.push_back(ring);
  }
  rings[0].fixed = true;
  Scene scene = test::scene_with(rings, 0.01, std::nullopt);
  const auto sim = test::simulate(scene, GetParam());
  const bool apart = solver_capabilities(GetParam()).intersection_free;  // a gap is then guaranteed
  std::vector<BodyPose> poses = sim->poses();
  const auto normal = [&](int i) { return Vec3(poses[i].A.col(2).normalized()); };
  const auto link = [&](int i) {
    return linking_number(poses[i].p, normal(i), poses[i + 1].p, normal(i + 1), major);
  };
  std::vector<double> initial;
  for (int i = 0; i < 4; ++i) {
    initial.push_back(link(i));
    ASSERT_NEAR(std::abs(initial[i]), 1.0, 0.05) << "rings " << i << " and " << i + 1 << " must start linked";
  }
  for (int n = 0; n < 80; ++n) {
    const StepStats stats = sim->step();
    if (apart) {
      ASSERT_GT(stats.min_distance, 0.0) << "step " << n + 1;
    }
    poses = sim->poses();
    for (int i = 0; i < 4; ++i) ASSERT_NEAR(link(i), initial[i], 0.05) << "step " << n + 1 << ", rings " << i;
  }
  EXPECT_GT((poses[4].p - rings[4].position).norm(), 0.05);  // it did swing
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, BodyContact, ::testing::ValuesIn(solver_names()), test::SolverName());

Vec12 state(const Simulator& sim, int i) { return affine_state(sim.poses()[i].p, sim.poses()[i].A); }

// Stays on ipc for now: its check reads the ipc solver's affine bodies.
TEST(BodyContact, PileOfFiftyRandomBoxesStaysIntersectionFree) {
  // Randomly sized and turned boxes on a lattice wider than their diagonals (so none overlap at the
  // start), dropped into a pile.
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<BodyDef> boxes;
  for (int i = 0; i < 50; ++i) {
    const Vec3 size(0.2 + 0.05 * u(rng), 0.15, 0.1 + 0.03 * u(rng));
    const Vec3 at(0.33 * (i % 3) + 0.01 * u(rng), 0.33 * ((i / 3) % 3), 0.2 + 0.33 * (i / 9));
    BodyDef b = test::box_body("b" + std::to_string(i), size, at);
    b.rotation = Quat(Eigen::AngleAxisd(M_PI * u(rng), Vec3(u(rng), u(rng), u(rng) + 2).normalized()));
    boxes.push_back(b);
  }
  IpcSimulator sim(test::compiled(test::scene_with(boxes, 0.01), "ipc"));
  // Independent of the solver's own distance report: the exact solid intersection test of the start
  // check (mesh_intersection.hpp) on every pair of placed meshes, and every vertex above the ground.
  std::vector<const TriangleMesh*> meshes;
  for (const AffineBody& b : sim.bodies()) meshes.push_back(b.mesh.get());
  const auto expect_apart = [&](int step) {
    std::vector<Mat3> A;
    std::vector<Vec3> p;
    for (const BodyPose& pose : sim.poses()) A.push_back(pose.A), p.push_back(pose.p);
    const auto pair = first_intersecting_pair(meshes, A, p, {});
    EXPECT_FALSE(pair) << "step " << step << ": boxes " << pair->first << " and " << pair->second << " intersect";
    for (std::size_t i = 0; i < meshes.size(); ++i)
      EXPECT_GT(test::lowest_vertex(sim.bodies()[i], state(sim, static_cast<int>(i))), 0.0)
          << "step " << step << ": box " << i << " below the ground";
  };
  double closest = std::numeric_limits<double>::infinity();
  for (int n = 0; n < 80; ++n) {
    const double d = sim.step().min_distance;
    ASSERT_GT(d, 0.0) << "step " << n + 1;
    closest = std::min(closest, d);
    if ((n + 1) % 10 == 0) expect_apart(n + 1);
  }
  std::printf("pile of 50 boxes: smallest distance over 80 steps %.3e m\n", closest);
}

}  // namespace
}  // namespace affix
