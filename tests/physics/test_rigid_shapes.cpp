// Concave bodies in the rigid back-ends (impulse, compliant) collide as compounds of convex pieces
// (solvers/rigid/convex_pieces.hpp), against closed forms at h = 0.01:
//  - two interlocked rings (major R, minor r), one fixed in the xz-plane, the other hanging through it
//    in the yz-plane: the tubes cross at right angles, and the two tube centre circles are nearest
//    where they cross (their distance² is 4r² + R(R − 2r)(a² + b²) + O(a⁴) at angles a, b from there, for
//    R > 2r), so the hanging ring rests with its centre 2(R − r) below the fixed one's. With the ring
//    resolution a multiple of 4 both meshes have a vertex at that crossing, on the true surface, so the
//    mesh rests there too (away from it their inscribed faces only curve away);
//  - a sphere smaller than the hole, R − r, falls through a fixed horizontal ring untouched (its
//    velocity stays −g t, the free fall's), and a larger one rests on the ring at the height where it
//    touches the tube circle: √((ρ + r)² − R²) above the ring's centre;
//  - a dumbbell (two spheres on a thin bar, one compound body) lying on the ground across a low fixed
//    plate rests on its spheres at height ρ, its bar clear of the plate (its hull would rest on the
//    plate);
//  - examples/ring_chain.json holds together over its 2 s (consecutive centres within 2R).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "affix/scene/scene_loader.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kG = 9.81;

BodyDef ring_body(const std::string& name, double R, double r, int resolution, const Vec3& position,
                  const Quat& rotation) {
  BodyDef b;
  b.name = name;
  b.shape = TorusShape{R, r, resolution};
  b.density = 7800.0;
  b.position = position;
  b.rotation = rotation;
  return b;
}

Quat about(const Vec3& axis, double angle) { return Quat(Eigen::AngleAxisd(angle, axis)); }

class RigidShapes : public test::SolverTest {};

TEST_P(RigidShapes, InterlockedRingsHangAtTheClosedFormDistance) {
  const double R = 0.1, r = 0.015, h0 = 1.0, drop = 0.01;
  BodyDef fixed = ring_body("fixed", R, r, 16, {0, 0, h0}, about(Vec3::UnitX(), std::numbers::pi / 2));
  fixed.fixed = true;
  // Released `drop` above the resting height, through the fixed ring's hole.
  const BodyDef hanging =
      ring_body("hanging", R, r, 16, {0, 0, h0 - 2 * (R - r) + drop}, about(Vec3::UnitY(), std::numbers::pi / 2));
  Scene scene = test::scene_with({fixed, hanging}, 0.01, std::nullopt);
  const auto sim = test::simulate(scene, GetParam());
  for (int n = 0; n < 200; ++n) sim->step();
  const BodyPose& p = sim->poses()[1];
  std::printf("%s: hanging ring centre %.5f m below the fixed one's, closed form 2(R - r) = %.5f m; "
              "sideways %.2e m, speed %.2e m/s\n",
              GetParam().c_str(), h0 - p.p.z(), 2 * (R - r), p.p.head<2>().norm(), sim->velocities()[1].linear.norm());
  EXPECT_NEAR(h0 - p.p.z(), 2 * (R - r), 1e-3);
  EXPECT_LT(p.p.head<2>().norm(), 5e-3);  // it still swings a little about the contact, undamped
  EXPECT_LT(sim->velocities()[1].linear.norm(), 2e-2);
}

TEST_P(RigidShapes, ASphereSmallerThanTheHoleFallsThroughARingUntouched) {
  const double R = 0.1, r = 0.015, rho = 0.06, h = 0.01;  // hole radius R − r = 0.085
  BodyDef ring = ring_body("ring", R, r, 24, {0, 0, 1.0}, Quat::Identity());
  ring.fixed = true;
  Scene scene = test::scene_with({ring, test::sphere_body("ball", rho, {0, 0, 1.3})}, h, std::nullopt);
  const auto sim = test::simulate(scene, GetParam());
  const int steps = 40;  // 0.4 s: the ball falls 0.78 m, through the ring (at 0.3 m) and past it
  for (int n = 0; n < steps; ++n) sim->step();
  const BodyVelocity& v = sim->velocities()[1];
  std::printf("%s: ball through the ring: v = (%.2e, %.2e, %.9f) m/s, free fall -g t = %.9f m/s\n",
              GetParam().c_str(), v.linear.x(), v.linear.y(), v.linear.z(), -kG * steps * h);
  EXPECT_LT(sim->poses()[1].p.z(), 1.0 - rho - r);  // below the ring: it passed through
  EXPECT_NEAR(v.linear.z(), -kG * steps * h, 1e-9);
  EXPECT_LT(v.linear.head<2>().norm(), 1e-12);
  EXPECT_LT(v.angular.norm(), 1e-12);
}

TEST_P(RigidShapes, ASphereLargerThanTheHoleRestsOnTheRing) {
  const double R = 0.1, r = 0.015, rho = 0.1;
  const int n = 48;
  BodyDef ring = ring_body("ring", R, r, n, {0, 0, 1.0}, Quat::Identity());
  ring.fixed = true;
  const double rest = std::sqrt((rho + r) * (rho + r) - R * R);  // above the ring's centre
  Scene scene = test::scene_with({ring, test::sphere_body("ball", rho, {0, 0, 1.0 + rest + 0.01})}, 0.01, std::nullopt);
  const auto sim = test::simulate(scene, GetParam());
  for (int k = 0; k < 200; ++k) sim->step();
  // The mesh's vertices lie on the true torus, its faces within (R + r)(1 − cos(π/n)) + r(1 − cos(π/(n/2)))
  // of it (convex_pieces.hpp: inside on the outer half, outside on the inner where chords cut across
  // the hole); a shift δ normal to the tube moves the sphere, touching it at an angle, by δ(ρ + r)/z.
  const double pi = std::numbers::pi, facets = (R + r) * (1 - std::cos(pi / n)) + r * (1 - std::cos(2 * pi / n));
  const double z = sim->poses()[1].p.z() - 1.0;
  std::printf("%s: ball on the ring at %.5f m above its centre, closed form %.5f m (mesh facets %.1e m)\n",
              GetParam().c_str(), z, rest, facets);
  EXPECT_NEAR(z, rest, facets * (rho + r) / rest + 1e-4);
  EXPECT_LT(sim->poses()[1].p.head<2>().norm(), 1e-4);
}

TEST_P(RigidShapes, ADumbbellRestsOnItsSpheresWithItsBarClearOfAPlateBelowIt) {
  const double rho = 0.1, bar = 0.02, L = 0.6, plate = 0.05;  // bar bottom at ρ − bar = 0.08 > plate
  CompoundShape dumbbell;
  for (const double x : {-L / 2, L / 2}) dumbbell.parts.push_back({SphereShape{rho, 24}, Vec3(x, 0, 0)});
  dumbbell.parts.push_back({CylinderShape{bar, L, 24}, Vec3::Zero(), about(Vec3::UnitY(), std::numbers::pi / 2)});
  BodyDef body;
  body.name = "dumbbell";
  body.shape = dumbbell;
  body.position = {0, 0, rho + 0.02};
  BodyDef stop = test::box_body("plate", {0.2, 0.4, plate}, {0, 0, plate / 2});
  stop.fixed = true;
  Scene scene = test::scene_with({stop, body}, 0.01);
  const auto sim = test::simulate(scene, GetParam());
  for (int k = 0; k < 150; ++k) sim->step();
  const BodyPose& p = sim->poses()[1];
  std::printf("%s: dumbbell centre at %.5f m (rho %.3f m), bar bottom %.4f m above the %.3f m plate\n",
              GetParam().c_str(), p.p.z(), rho, p.p.z() - bar, plate);
  EXPECT_NEAR(p.p.z(), rho, 1e-3);
  EXPECT_GT(p.p.z() - bar, plate + 0.02);
  EXPECT_LT(sim->velocities()[1].linear.norm(), 1e-2);
}

TEST_P(RigidShapes, TheRingChainExampleHoldsTogether) {
  // examples/ring_chain.json: ten interlocked steel rings (R = 0.1 m), the first fixed, released swinging.
  // Linked rings keep their centres within 2R; as hulls they pushed each other metres apart.
  const Scene scene = load_scene(std::string(AFFIX_SOURCE_DIR) + "/examples/ring_chain.json");
  const auto sim = test::simulate(scene, GetParam());
  const int steps = static_cast<int>(std::lround(scene.settings.duration / scene.settings.dt));
  double widest = 0.0;
  for (int k = 0; k < steps; ++k) {
    sim->step();
    const std::vector<BodyPose> poses = sim->poses();
    for (std::size_t i = 0; i + 1 < poses.size(); ++i) widest = std::max(widest, (poses[i + 1].p - poses[i].p).norm());
  }
  std::printf("%s: ring chain over %.1f s: consecutive centres at most %.4f m apart (2R = 0.2 m)\n", GetParam().c_str(),
              scene.settings.duration, widest);
  EXPECT_LT(widest, 0.2);
}

INSTANTIATE_TEST_SUITE_P(Rigid, RigidShapes, ::testing::Values("impulse", "compliant"), test::SolverName{});

}  // namespace
}  // namespace affix
