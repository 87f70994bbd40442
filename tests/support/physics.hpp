#pragma once
#include <algorithm>
#include <cmath>
// Helpers for physics tests, which run on every solver back-end through the Simulator interface
// (DESIGN §1, §6): scenes built in code, the solver built by name, skipping with the reason when a
// solver lacks what a test needs, and the physical quantities the closed-form answers are about
// (momenta, lowest vertex, joint anchor gaps) from the model and the reported poses and velocities.
#include <gtest/gtest.h>

#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "affix/model/model.hpp"
#include "affix/model/simulator.hpp"
#include "affix/scene/scene.hpp"
#include "affix/solvers/registry.hpp"

namespace affix::test {

// ------------------------------------------------------------ scenes built in code

inline BodyDef box_body(const std::string& name, const Vec3& size, const Vec3& position) {
  BodyDef b;
  b.name = name;
  b.shape = BoxShape{size, 1};
  b.position = position;
  return b;
}

inline BodyDef sphere_body(const std::string& name, double radius, const Vec3& position) {
  BodyDef b;
  b.name = name;
  b.shape = SphereShape{radius, 24};
  b.position = position;
  return b;
}

inline Scene scene_with(std::vector<BodyDef> bodies, double dt, std::optional<Ground> ground = Ground{}) {
  Scene s;
  s.name = "test";
  s.file = "test.json";
  s.settings.dt = dt;
  s.ground = ground;
  s.bodies = std::move(bodies);
  return s;
}

// ------------------------------------------------------------ solvers by name

/// Tests parameterised over solver_names(): GetParam() is the solver's name.
class SolverTest : public ::testing::TestWithParam<std::string> {};

/// Names each instantiation after its solver (AllSolvers/FreeFlight.X/ipc).
struct SolverName {
  std::string operator()(const ::testing::TestParamInfo<std::string>& info) const { return info.param; }
};

/// The scene compiled for the named solver (settings.solver = solver): the model the solver is built
/// from, and where the tests read masses, moments and meshes.
inline std::shared_ptr<const Model> compiled(Scene scene, const std::string& solver) {
  scene.settings.solver = solver;
  return std::make_shared<const Model>(compile(scene));
}

/// The named solver built for the scene through the registry.
inline std::unique_ptr<Simulator> simulate(const Scene& scene, const std::string& solver) {
  return make_simulator(compiled(scene, solver));
}

/// What a test needs from its solver beyond rigid or affine bodies under gravity and forces: the
/// fields of SolverCapabilities.
enum class Feature {
  ground_contact,
  body_contact,
  friction,
  intersection_free,
  prescribed_motion,
  joint_limits,
  bdf2,
  damping
};

inline const char* to_string(Feature f) {
  switch (f) {
    case Feature::ground_contact: return "ground contact";
    case Feature::body_contact: return "body contact";
    case Feature::friction: return "friction";
    case Feature::intersection_free: return "intersection-free contact";
    case Feature::prescribed_motion: return "prescribed motion";
    case Feature::joint_limits: return "joint limits";
    case Feature::bdf2: return "the bdf2 integrator";
    case Feature::damping: return "damping";
  }
  return "?";
}

inline bool has(const SolverCapabilities& c, Feature f) {
  switch (f) {
    case Feature::ground_contact: return c.ground_contact;
    case Feature::body_contact: return c.body_contact;
    case Feature::friction: return c.friction;
    case Feature::intersection_free: return c.intersection_free;
    case Feature::prescribed_motion: return c.prescribed_motion;
    case Feature::joint_limits: return c.joint_limits;
    case Feature::bdf2: return c.bdf2;
    case Feature::damping: return c.damping;
  }
  return false;
}

/// One need: a feature or a joint type.
struct Need {
  Need(Feature f) : what(f) {}     // NOLINT(google-explicit-constructor): written bare in AFFIX_REQUIRE
  Need(JointType t) : what(t) {}   // NOLINT(google-explicit-constructor)
  std::variant<Feature, JointType> what;
};

/// "<solver> does not support <need>" for the first need that `caps` lacks; empty when it has them all.
inline std::string missing(const std::string& solver, const SolverCapabilities& caps,
                           std::initializer_list<Need> needs) {
  for (const Need& need : needs) {
    if (const Feature* f = std::get_if<Feature>(&need.what); f && !has(caps, *f))
      return solver + " does not support " + to_string(*f);
    if (const JointType* t = std::get_if<JointType>(&need.what); t && !caps.supports(*t))
      return solver + " does not support " + std::string(affix::to_string(*t)) + " joints";
  }
  return {};
}

/// The same for the named solver's declared capabilities.
inline std::string missing(const std::string& solver, std::initializer_list<Need> needs) {
  return missing(solver, solver_capabilities(solver), needs);
}

}  // namespace affix::test

/// Skips the current test, saying why, unless the named solver supports every need listed
/// (test::Feature values and JointType values): AFFIX_REQUIRE(GetParam(), Feature::bdf2, JointType::hinge).
#define AFFIX_REQUIRE(solver, ...)                                                                  \
  if (const std::string affix_missing_ = ::affix::test::missing((solver), {__VA_ARGS__});           \
      !affix_missing_.empty())                                                                      \
  GTEST_SKIP() << affix_missing_

namespace affix::test {

// ------------------------------------------------------------ quantities from poses and velocities

/// Where the rest point x̄ of a body in `pose` is now: A x̄ + p.
/// A joint of `type` between two scene bodies by name ("world" for body2), appended to the scene.
inline JointDef& add_joint(Scene& scene, JointType type, const std::string& body1, const std::string& body2) {
  JointDef j;
  j.name = "j" + std::to_string(scene.joints.size());
  j.type = type;
  j.body1 = body1;
  j.body2 = body2;
  j.body1_index = *scene.body_index(body1);
  j.body2_index = *scene.body_index(body2);
  scene.joints.push_back(j);
  return scene.joints.back();
}

/// Highest z of body `index`'s origin after its first bounce (the first step it moves up, until it moves
/// down again), for a scene dropped from rest, on the named solver.
inline double apex_after_bounce(const Scene& scene, const std::string& solver, int index, int steps) {
  const auto sim = simulate(scene, solver);
  bool bounced = false;
  double apex = -1e300;
  for (int n = 0; n < steps; ++n) {
    sim->step();
    const double vz = sim->velocities()[index].linear.z();
    if (!bounced && vz > 0.0) bounced = true;
    if (bounced) {
      if (vz < 0.0) break;  // past the apex
      apex = std::max(apex, sim->poses()[index].p.z());
    }
  }
  EXPECT_TRUE(bounced);
  return apex;
}

/// A 100 kg box of 0.4 m with a 0.1 kg sphere of radius r welded under it (a `fixed` joint), dropped from
/// the sphere H above the ground at h = 1 ms with restitution e (settings.<solver>.restitution) on the
/// named solver: how high the box rises after the bounce. A contact on the light sphere must move the
/// heavy box through the weld for the pair to rise to e²H.
inline double welded_pair_bounce(const std::string& solver, double r, double H, double e) {
  BodyDef box = box_body("box", Vec3::Constant(0.4), {0, 0, 2 * r + 0.2 + H});
  box.mass = 100.0;
  BodyDef foot = sphere_body("foot", r, {0, 0, r + H});
  foot.mass = 0.1;
  Scene scene = scene_with({box, foot}, 1e-3);
  scene.settings.solver_settings[solver]["restitution"] = e;
  add_joint(scene, JointType::fixed, "foot", "box").anchor = {0, 0, 2 * r + H};
  return apex_after_bounce(scene, solver, 0, 2000) - (2 * r + 0.2);
}

/// The arithmetic–geometric mean, for the complete elliptic integral K(k) = π / (2 AGM(1, √(1 − k²))).
inline double arithmetic_geometric_mean(double a, double b) {
  while (std::abs(a - b) > 1e-15 * a) {
    const double m = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = m;
  }
  return a;
}

inline Vec3 world_point(const BodyPose& pose, const Vec3& x_bar) { return pose.A * x_bar + pose.p; }

/// Linear momentum ∫ρ ẋ dV = m ṗ + Ȧ (m c̄).
inline Vec3 linear_momentum(const ModelBody& b, const BodyVelocity& v) {
  return b.mass * v.linear + v.A_dot * (b.mass * b.center_of_mass);
}

/// Angular momentum about the world origin, ∫ρ x × ẋ dV with x = A x̄ + p, ẋ = Ȧ x̄ + ṗ:
/// L_k = ε_kij W_ij, W = ∫ρ x ẋᵀ = m p ṗᵀ + p (Ȧ m c̄)ᵀ + (A m c̄) ṗᵀ + A S Ȧᵀ (S: the second moment).
inline Vec3 angular_momentum(const ModelBody& b, const BodyPose& x, const BodyVelocity& v) {
  const Vec3 mc = b.mass * b.center_of_mass;
  const Mat3 W = b.mass * x.p * v.linear.transpose() + x.p * (v.A_dot * mc).transpose() +
                 (x.A * mc) * v.linear.transpose() + x.A * b.second_moment * v.A_dot.transpose();
  return Vec3(W(1, 2) - W(2, 1), W(2, 0) - W(0, 2), W(0, 1) - W(1, 0));
}

/// The lowest z of the body's mesh in `pose`.
inline double lowest_vertex(const ModelBody& b, const BodyPose& pose) {
  double z = std::numeric_limits<double>::infinity();
  for (const Vec3& x_bar : b.mesh->vertices) z = std::min(z, world_point(pose, x_bar).z());
  return z;
}

/// Whether a joint's two frame origins coincide when the joint holds (not so for distance joints,
/// whose anchors are `length` apart, nor prismatic and slider joints, which slide apart).
/// The Peaucellier linkage's traced point P, as bar PA (body 5 of generate::peaucellier) carries it:
/// its rest point at the bar's end, local z = −length/2.
inline Vec3 peaucellier_traced_point(const Model& model, const std::vector<BodyPose>& poses) {
  const int pa = 5;
  double lo = 1e9, hi = -1e9;
  for (const Vec3& v : model.bodies[pa].mesh->vertices) lo = std::min(lo, v.z()), hi = std::max(hi, v.z());
  return world_point(poses[pa], Vec3(0, 0, -0.5 * (hi - lo)));
}

inline bool anchors_coincide(JointType type) {
  return type != JointType::distance && type != JointType::prismatic && type != JointType::slider;
}

/// The largest ‖anchor1 − anchor2‖ over the joints whose anchors coincide, from the solver's
/// joint_records() (each anchor carried by its own body).
inline double max_anchor_gap(const Model& model, const std::vector<JointRecord>& records) {
  double gap = 0.0;
  for (const JointRecord& r : records)
    if (anchors_coincide(model.joints[r.joint].def.type)) gap = std::max(gap, (r.anchor1 - r.anchor2).norm());
  return gap;
}

}  // namespace affix::test
