// The shared measures of bench/peers against closed forms and brute force: penetration depths of
// boxes, spheres and capsules (the box–box separating-axis depth against the minimum overlap over densely
// sampled directions, which it must never exceed and must approach), ground depth, joint gaps from the
// model's joint frames, energy from poses alone, blow-up detection and the median step time; and the
// geoms the peers are given (geom_parts) against the compiled model's own surface of the same body.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include <Eigen/Geometry>

#include "affix/error.hpp"
#include "affix/model/model.hpp"
#include "geom_parts.hpp"
#include "measures.hpp"
#include "penetration.hpp"

namespace affix::peers {
namespace {

using Kind = Primitive::Kind;

Primitive box(const Vec3& size) { return {Kind::box, 0.5 * size, 0.0}; }
Primitive sphere(double r) { return {Kind::sphere, Vec3::Zero(), r}; }
Primitive capsule(double r, double length) { return {Kind::capsule, Vec3::Zero(), r, 0.5 * length}; }
BodyPose at(const Vec3& p, const Mat3& R = Mat3::Identity()) { return {p, R}; }
Mat3 turn(const Vec3& axis, double angle) { return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(); }

TEST(Penetration, SpherePairsAreTheirRadiiLessTheDistance) {
  EXPECT_NEAR(penetration_depth(sphere(0.3), at({0, 0, 0}), sphere(0.2), at({0.4, 0, 0})), 0.1, 1e-15);
  EXPECT_NEAR(penetration_depth(sphere(0.3), at({0, 0, 0}), sphere(0.2), at({0, 0.6, 0})), -0.1, 1e-15);
}

TEST(Penetration, SphereAgainstABoxFromOutsideAndFromInside) {
  const Primitive b = box({2, 2, 2});
  const Mat3 R = turn({0, 0, 1}, 0.3);
  // Outside a face: r − distance to the face.
  EXPECT_NEAR(penetration_depth(sphere(0.5), at(R * Vec3(1.2, 0, 0)), b, at({0, 0, 0}, R)), 0.3, 1e-14);
  // Outside a corner: r − distance to the corner (either order of the arguments).
  const Vec3 corner = R * Vec3(1, 1, 1), out = R * Vec3(1, 1, 1).normalized();
  EXPECT_NEAR(penetration_depth(b, at({0, 0, 0}, R), sphere(0.5), at(corner + 0.2 * out)), 0.3, 1e-14);
  // Centre inside, 0.1 from the nearest face: out through that face, r + 0.1.
  EXPECT_NEAR(penetration_depth(sphere(0.5), at(R * Vec3(0.9, 0.2, -0.3)), b, at({0, 0, 0}, R)), 0.6, 1e-14);
}

TEST(Penetration, AlignedBoxesOverlapByTheSmallerAxisOverlap) {
  // Overlaps 0.05 along x, 0.3 along y, 1.0 along z: separated by 0.05 along x.
  EXPECT_NEAR(penetration_depth(box({1, 1, 1}), at({0, 0, 0}), box({1, 1, 1}), at({0.95, 0.7, 0})), 0.05, 1e-14);
  EXPECT_NEAR(penetration_depth(box({1, 1, 1}), at({0, 0, 0}), box({1, 1, 1}), at({1.2, 0, 0})), -0.2, 1e-14);
}

TEST(Penetration, AnEdgeIntoAFace) {
  // A unit cube turned 45° about x rests its lower edge 0.05 into a wide slab's top face: the edge is
  // √2/2 below the cube's centre.
  const double depth = 0.05, z = 0.5 + std::sqrt(0.5) - depth;
  EXPECT_NEAR(penetration_depth(box({10, 10, 1}), at({0, 0, 0}), box({1, 1, 1}), at({0, 0, z}, turn({1, 0, 0}, std::numbers::pi / 4))),
              depth, 1e-14);
}

TEST(Penetration, BoxPairsAreTheLeastOverlapOverAllDirections) {
  // The depth is min over unit n of the projections' overlap; the 15 separating axes reach it exactly.
  // Brute force: dense directions on the sphere (Fibonacci), each an upper bound on the depth.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int directions = 200000;
  for (int trial = 0; trial < 20; ++trial) {
    SCOPED_TRACE(trial);
    const Primitive a = box(Vec3(1.0 + 0.5 * u(random), 0.6 + 0.3 * u(random), 0.8 + 0.2 * u(random)));
    const Primitive b = box(Vec3(0.7 + 0.3 * u(random), 1.1 + 0.4 * u(random), 0.5 + 0.2 * u(random)));
    const BodyPose pa = at({0, 0, 0}, turn({u(random), u(random), u(random)}, 3 * u(random)));
    const BodyPose pb = at(0.5 * Vec3(u(random), u(random), u(random)), turn({u(random), u(random), u(random)}, 3 * u(random)));
    const double sat = penetration_depth(a, pa, b, pb);
    double brute = INFINITY;
    for (int k = 0; k < directions; ++k) {
      const double z = 1.0 - (2.0 * k + 1.0) / directions, r = std::sqrt(1.0 - z * z);
      const double phi = k * std::numbers::pi * (3.0 - std::sqrt(5.0));
      const Vec3 n(r * std::cos(phi), r * std::sin(phi), z);
      const auto radius = [&](const Primitive& p, const BodyPose& pose) { return (pose.A.transpose() * n).cwiseAbs().dot(p.half); };
      brute = std::min(brute, radius(a, pa) + radius(b, pb) - std::abs(n.dot(pb.p - pa.p)));
    }
    ASSERT_GT(sat, 0.0);                // they overlap
    EXPECT_GE(brute, sat - 1e-12);       // no direction separates them with less
    EXPECT_LE(brute, sat + 5e-3);        // and the sampled minimum comes down to it
  }
}

TEST(Penetration, CapsulesAreTheirRadiiLessTheDistanceOfTheirSegments) {
  // Two capsules of segment length 1 along z and radii 0.2, 0.1 (their segments from z = −½ to ½).
  const Primitive a = capsule(0.2, 1.0), b = capsule(0.1, 1.0);
  // Side by side, parallel: the segments 0.25 apart.
  EXPECT_NEAR(penetration_depth(a, at({0, 0, 0}), b, at({0.25, 0, 0.3})), 0.05, 1e-15);
  // End to end along z: tips 0.1 apart (segments end at ½ and 0.6 + ½ − ½ = 0.6).
  EXPECT_NEAR(penetration_depth(a, at({0, 0, 0}), b, at({0, 0, 1.1})), 0.2, 1e-15);
  // Crossed: b along x (turned about y), 0.4 above a's top end: distance from (0,0,½) to b's segment.
  const Mat3 along_x = turn({0, 1, 0}, std::numbers::pi / 2);
  EXPECT_NEAR(penetration_depth(a, at({0, 0, 0}), b, at({0.8, 0, 0.9}, along_x)), 0.3 - std::hypot(0.3, 0.4), 1e-14);
  // Crossing segments (distance 0): the sum of the radii.
  EXPECT_NEAR(penetration_depth(a, at({0, 0, 0}), b, at({0, 0, 0.2}, along_x)), 0.3, 1e-15);
  // Against a sphere: the radii less the centre's distance to the segment (beside it, and past its end).
  EXPECT_NEAR(penetration_depth(a, at({0, 0, 0}), sphere(0.1), at({0.25, 0, -0.4})), 0.05, 1e-15);
  EXPECT_NEAR(penetration_depth(sphere(0.1), at({0, 0.3, 0.9}), a, at({0, 0, 0})), 0.3 - 0.5, 1e-15);
}

TEST(Penetration, CapsuleAgainstABoxIsTheLeastOverlapOrTheDistance) {
  // Apart: a capsule standing above a unit cube's top face, tip 0.05 above it; and beside its edge.
  const Primitive cube = box({1, 1, 1}), c = capsule(0.1, 0.6);
  EXPECT_NEAR(penetration_depth(c, at({0.2, 0.1, 0.5 + 0.3 + 0.15}), cube, at({0, 0, 0})), -0.05, 1e-12);
  const Mat3 along_y = turn({1, 0, 0}, std::numbers::pi / 2);
  EXPECT_NEAR(penetration_depth(cube, at({0, 0, 0}), c, at({0.6, 0, 0.6}, along_y)), 0.1 - std::sqrt(0.02), 1e-12);
  // Overlapping, turned at random: the depth is min over unit n of the projections' overlap, the
  // capsule's projection its segment's widened by r; brute force over dense directions as for boxes.
  std::mt19937 random(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int directions = 200000;
  for (int trial = 0; trial < 10; ++trial) {
    SCOPED_TRACE(trial);
    const Primitive b = box(Vec3(1.0 + 0.3 * u(random), 0.6 + 0.2 * u(random), 0.8 + 0.2 * u(random)));
    const Primitive k = capsule(0.1 + 0.05 * u(random), 0.8 + 0.3 * u(random));
    const BodyPose pb = at({0, 0, 0}, turn({u(random), u(random), u(random)}, 3 * u(random)));
    const BodyPose pk = at(0.1 * Vec3(u(random), u(random), u(random)), turn({u(random), u(random), u(random)}, 3 * u(random)));
    const double depth = penetration_depth(k, pk, b, pb);
    double brute = INFINITY;
    for (int i = 0; i < directions; ++i) {
      const double z = 1.0 - (2.0 * i + 1.0) / directions, r = std::sqrt(1.0 - z * z);
      const double phi = i * std::numbers::pi * (3.0 - std::sqrt(5.0));
      const Vec3 n(r * std::cos(phi), r * std::sin(phi), z);
      const double box_r = (pb.A.transpose() * n).cwiseAbs().dot(b.half);
      const double capsule_r = k.half_length * std::abs(n.dot(pk.A.col(2))) + k.radius;
      brute = std::min(brute, box_r + capsule_r - std::abs(n.dot(pk.p - pb.p)));
    }
    ASSERT_GT(depth, 0.0);
    EXPECT_GE(brute, depth - 1e-12);
    EXPECT_LE(brute, depth + 5e-3);
  }
}

TEST(Penetration, GroundDepthIsTheLowestPointBelowThePlane) {
  // A unit cube turned 45° about x: its lowest edge is √2/2 below its centre.
  const Mat3 R = turn({1, 0, 0}, std::numbers::pi / 4);
  EXPECT_NEAR(ground_penetration(box({1, 1, 1}), at({3, 4, 0.6}, R), 0.0), std::sqrt(0.5) - 0.6, 1e-14);
  EXPECT_NEAR(ground_penetration(sphere(0.25), at({0, 0, 1.2}), 1.0), 0.05, 1e-14);
  // A capsule (segment 1 m, radius 0.1) tilted 60° from upright: its lower end ½·cos 60° below the centre.
  EXPECT_NEAR(ground_penetration(capsule(0.1, 1.0), at({0, 0, 0.3}, turn({1, 0, 0}, std::numbers::pi / 3)), 0.0),
              0.25 + 0.1 - 0.3, 1e-14);
}

// ---------------------------------------------------------------- the recorder on a compiled model

/// A box on a ball joint to the world at its left face, a free sphere, and the ground at z = 0.
struct Fixture {
  Scene scene;
  Model model;
  Fixture(const Vec3& gravity, const Vec3& velocity, const Vec3& spin) {
    scene.name = "measures";
    scene.settings.dt = 0.01;
    scene.settings.gravity = gravity;
    scene.ground = Ground{};
    BodyDef a;
    a.name = "box";
    a.shape = BoxShape{Vec3(0.4, 0.2, 0.1)};
    a.position = {0, 0, 1};
    BodyDef b;
    b.name = "ball";
    b.shape = SphereShape{0.1, 24};
    b.position = {2, 0, 1};
    b.velocity = velocity;
    b.angular_velocity = spin;
    scene.bodies = {a, b};
    JointDef pin;
    pin.name = "pin";
    pin.body1 = "box";
    pin.body1_index = 0;
    pin.body2 = "world";
    pin.anchor = {-0.2, 0, 1};
    scene.joints = {pin};
    model = compile(scene);
  }
  std::vector<std::optional<Primitive>> shapes() const {
    return {primitive_of(scene.bodies[0]), primitive_of(scene.bodies[1])};
  }
};

TEST(MeasureRecorder, JointGapIsTheAnchorsDistanceAsTheBodiesCarryThem) {
  const Fixture f(Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
  MeasureRecorder recorder(f.model, f.shapes());
  // The box moved 3 mm along y off its pin, turned about its own pin-to-centre axis (which keeps the
  // anchor on that axis): the gap is the 3 mm.
  const Mat3 R = turn({1, 0, 0}, 0.7);
  ASSERT_TRUE(recorder.record({at({0, 0.003, 1}, R), at({2, 0, 1})}, 1.0));
  EXPECT_NEAR(recorder.result().max_joint_gap, 0.003, 1e-15);
}

TEST(MeasureRecorder, ConstantMotionKeepsItsEnergyExactly) {
  // No gravity: the ball flies at v and spins at ω about a fixed axis; the poses of that motion give
  // back exactly v and ω by backward differences, so the kinetic energy is the closed form and the
  // drift is zero.
  const Vec3 v(1.5, -0.5, 0.25), w(0, 0, 4.0);
  const Fixture f(Vec3::Zero(), v, w);
  MeasureRecorder recorder(f.model, f.shapes());
  const double h = f.model.settings.dt, m = f.model.bodies[1].mass, I = f.model.bodies[1].inertia(2, 2);
  for (int k = 1; k <= 50; ++k) {
    const double t = k * h;
    ASSERT_TRUE(recorder.record({at({0, 0, 1}), at(Vec3(2, 0, 1) + v * t, turn(w, w.norm() * t))}, k));
  }
  const Measures r = recorder.result();
  EXPECT_NEAR(r.energy_moved, 0.5 * m * v.squaredNorm() + 0.5 * I * w.squaredNorm(), 1e-9);
  EXPECT_NEAR(r.energy_drift, 0.0, 1e-9);
  EXPECT_EQ(r.steps, 50);
  EXPECT_EQ(r.median_ms, 26.0);  // the middle of 1 … 50 (upper median)
  EXPECT_EQ(r.max_body_penetration, 0.0);
}

TEST(MeasureRecorder, EnergyIsKineticPlusGravityOfTheCentreOfMass) {
  const Fixture f(Vec3(0, 0, -9.81), Vec3::Zero(), Vec3::Zero());
  const MeasureRecorder recorder(f.model, f.shapes());
  const double m0 = f.model.bodies[0].mass, m1 = f.model.bodies[1].mass;
  const double e = recorder.energy({at({0, 0, 2}), at({2, 0, 0.5})}, {Vec3::Zero(), Vec3(3, 0, 0)},
                                   {Vec3::Zero(), Vec3::Zero()});
  EXPECT_NEAR(e, m0 * 9.81 * 2 + m1 * 9.81 * 0.5 + 0.5 * m1 * 9.0, 1e-9);
}

TEST(MeasureRecorder, DriftIsTheEnergyLostOverTheEnergyReleased) {
  // The ball, at rest, sinks 0.5 m in a hundred steps (at 0.5 m/s, whose kinetic energy is a fortieth
  // of what it releases) and is at rest again at the end: all the potential
  // energy it released is gone, a drift of −1 (an overdamped engine). Had it sunk and kept the speed of
  // that fall, the drift would be 0.
  const Fixture f(Vec3(0, 0, -9.81), Vec3::Zero(), Vec3::Zero());
  MeasureRecorder recorder(f.model, f.shapes());
  for (int k = 1; k <= 100; ++k) ASSERT_TRUE(recorder.record({at({0, 0, 1}), at({2, 0, 1 - 0.005 * k})}, 1.0));
  ASSERT_TRUE(recorder.record({at({0, 0, 1}), at({2, 0, 0.5})}, 1.0));
  const Measures r = recorder.result();
  const double released = f.model.bodies[1].mass * 9.81 * 0.5;
  EXPECT_NEAR(r.energy_moved, released, 1e-9);
  EXPECT_NEAR(r.energy_drift, -1.0, 1e-9);
}

TEST(MeasureRecorder, PenetrationOfBodiesAndGround) {
  const Fixture f(Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
  MeasureRecorder recorder(f.model, f.shapes());
  // The ball 0.03 into the box's top face (the box is 0.1 tall), and 0.02 into the ground elsewhere.
  ASSERT_TRUE(recorder.record({at({0, 0, 1}), at({0, 0, 1.05 + 0.1 - 0.03})}, 1.0));
  ASSERT_TRUE(recorder.record({at({0, 0, 1}), at({2, 0, 0.08})}, 1.0));
  const Measures r = recorder.result();
  EXPECT_NEAR(r.max_body_penetration, 0.03, 1e-14);
  EXPECT_NEAR(r.max_ground_penetration, 0.02, 1e-14);
}

TEST(MeasureRecorder, NonFiniteOrFarAwayBodiesBlowUp) {
  const Fixture f(Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
  const double radius = blow_up_radius(f.model);
  EXPECT_GT(radius, 10.0);
  MeasureRecorder far(f.model, f.shapes());
  EXPECT_TRUE(far.record({at({0, 0, 1}), at({2, 0, 1 + 0.9 * radius})}, 1.0));
  EXPECT_FALSE(far.record({at({0, 0, 1}), at({2, 0, 1 + 1.1 * radius})}, 1.0));
  EXPECT_TRUE(far.result().blew_up);
  EXPECT_NE(far.result().blow_up_reason.find("ball at step 2"), std::string::npos) << far.result().blow_up_reason;
  MeasureRecorder nan(f.model, f.shapes());
  EXPECT_FALSE(nan.record({at({0, 0, NAN}), at({2, 0, 1})}, 1.0));
  EXPECT_NE(nan.result().blow_up_reason.find("not finite"), std::string::npos);
}

// A compound of a turned, offset box and a scaled, turned cylinder: each part's corners (the box's 8,
// the cylinder's cap centres) are where the compiled model (body_mesh.cpp) put them, and every vertex
// of the model's surface lies in one of the parts — placement, rotation and scale agree both ways.
TEST(GeomParts, CompoundPartsCoverTheModelSurfaceWhereItIs) {
  Scene scene;
  BodyDef body;
  ShapePart bar{BoxShape{Vec3(0.5, 0.1, 0.2)}, Vec3(0.3, -0.1, 0.05),
                Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())), Vec3::Ones()};
  ShapePart drum{CylinderShape{0.1, 0.4, 16}, Vec3(-0.2, 0.1, 0.0), Quat(Eigen::AngleAxisd(0.5 * std::numbers::pi, Vec3::UnitX())),
                 Vec3(1.5, 1.5, 0.5)};
  body.shape = CompoundShape{{bar, drum}};
  body.mass = 1.0;
  scene.bodies.push_back(body);
  const Model model = compile(scene);
  const std::vector<GeomPart> parts = geom_parts(scene, 0);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].kind, GeomPart::Kind::box);
  EXPECT_EQ(parts[1].kind, GeomPart::Kind::cylinder);
  EXPECT_NEAR(parts[1].radius, 0.15, 1e-15);
  EXPECT_NEAR(parts[1].length, 0.2, 1e-15);
  const std::vector<Vec3>& surface = model.bodies[0].mesh->vertices;
  const auto on_surface = [&](const Vec3& x) {
    double nearest = 1e9;
    for (const Vec3& v : surface) nearest = std::min(nearest, (v - x).norm());
    return nearest;
  };
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 sign((corner & 1) ? 1 : -1, (corner & 2) ? 1 : -1, (corner & 4) ? 1 : -1);
    EXPECT_LT(on_surface(parts[0].position + parts[0].rotation * (0.5 * parts[0].size).cwiseProduct(sign)), 1e-12);
  }
  for (const double end : {-0.5, 0.5}) {  // the caps' centres: the fans' centre vertices
    EXPECT_LT(on_surface(parts[1].position + parts[1].rotation * Vec3(0, 0, end * parts[1].length)), 1e-12);
  }
  for (const Vec3& v : surface) {
    const Vec3 b = parts[0].rotation.transpose() * (v - parts[0].position);
    const Vec3 c = parts[1].rotation.transpose() * (v - parts[1].position);
    const bool in_box = (b.cwiseAbs() - 0.5 * parts[0].size).maxCoeff() < 1e-12;
    const bool in_cylinder = std::hypot(c.x(), c.y()) < parts[1].radius + 1e-12 && std::abs(c.z()) < 0.5 * parts[1].length + 1e-12;
    EXPECT_TRUE(in_box || in_cylinder) << v.transpose();
  }
}

TEST(GeomParts, ShapesNoPeerHasAreRefusedWithTheirPath) {
  Scene scene;
  scene.file = "s.json";
  BodyDef plain;
  plain.shape = CylinderShape{0.2, 1.0, 12};
  BodyDef torus;
  torus.shape = TorusShape{};
  BodyDef ellipsoid;
  ellipsoid.shape = CompoundShape{{ShapePart{BoxShape{}, Vec3::Zero(), Quat::Identity(), Vec3::Ones()},
                                   ShapePart{SphereShape{}, Vec3::Zero(), Quat::Identity(), Vec3(1, 2, 1)}}};
  scene.bodies = {plain, torus, ellipsoid};
  const std::vector<GeomPart> one = geom_parts(scene, 0);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].kind, GeomPart::Kind::cylinder);
  EXPECT_TRUE(one[0].position.isZero() && one[0].rotation.isIdentity());
  const auto message = [&](std::size_t i) {
    try {
      geom_parts(scene, i);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(1).find("s.json: bodies[1].shape: bench/peers translates a box"), std::string::npos) << message(1);
  EXPECT_NE(message(2).find("s.json: bodies[2].shape.parts[1]: bench/peers translates a sphere scaled equally"),
            std::string::npos)
      << message(2);
}

}  // namespace
}  // namespace affix::peers
