// The scene families of `affix generate` (scene/generate/): counts that follow the options, joints
// that name existing bodies, the chain's end-mass ratio, a start in which nothing that may touch is
// closer than a few millimetres (checked on the smooth shapes, which contain the inscribed meshes),
// option errors naming the option, and files that load back as the scene that was written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "affix/error.hpp"
#include "affix/scene/generate/chain.hpp"
#include "affix/scene/generate/drop.hpp"
#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/net.hpp"
#include "affix/scene/generate/pile.hpp"
#include "affix/scene/generate/pulley.hpp"
#include "affix/scene/generate/tree.hpp"
#include "affix/scene/generate/wrecking_ball.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;

/// "A few millimetres": the generators keep 5 mm; rounding of the layout may take a hair off it.
constexpr double kMinGap = 0.004;

// ------------------------------------------------------------------ geometry of the smooth shapes

/// A box around the smooth shape in world coordinates: exact for spheres, boxes and capsules,
/// conservative (larger) for cylinders and tori.
struct Bounds {
  Vec3 lo, hi;
};

Bounds world_bounds(const BodyDef& body) {
  const Mat3 R = body.rotation.toRotationMatrix();
  const Vec3& p = body.position;
  const auto rotated_box = [&](const Vec3& half) {
    const Vec3 extent = R.cwiseAbs() * half;
    return Bounds{p - extent, p + extent};
  };
  if (const auto* s = std::get_if<SphereShape>(&body.shape)) {
    return {p - Vec3::Constant(s->radius), p + Vec3::Constant(s->radius)};
  }
  if (const auto* s = std::get_if<BoxShape>(&body.shape)) return rotated_box(0.5 * s->size);
  if (const auto* s = std::get_if<CapsuleShape>(&body.shape)) {
    const Vec3 tip = R * Vec3(0.0, 0.0, 0.5 * s->length);
    return {(p + tip).cwiseMin(p - tip) - Vec3::Constant(s->radius),
            (p + tip).cwiseMax(p - tip) + Vec3::Constant(s->radius)};
  }
  if (const auto* s = std::get_if<CylinderShape>(&body.shape)) {
    return rotated_box(Vec3(s->radius, s->radius, 0.5 * s->length));
  }
  if (const auto* s = std::get_if<TorusShape>(&body.shape)) {
    return rotated_box(Vec3(s->major + s->minor, s->major + s->minor, s->minor));
  }
  ADD_FAILURE() << body.name << ": generated scenes use primitives only";
  return {p, p};
}

/// Radius of a sphere around the body origin that holds the smooth shape.
double bounding_radius(const Shape& shape) {
  if (const auto* s = std::get_if<SphereShape>(&shape)) return s->radius;
  if (const auto* s = std::get_if<BoxShape>(&shape)) return 0.5 * s->size.norm();
  if (const auto* s = std::get_if<CapsuleShape>(&shape)) return s->radius + 0.5 * s->length;
  if (const auto* s = std::get_if<CylinderShape>(&shape)) return std::hypot(s->radius, 0.5 * s->length);
  if (const auto* s = std::get_if<TorusShape>(&shape)) return s->major + s->minor;
  return INFINITY;
}

/// A lower bound on the distance between two smooth shapes: the larger of the gap between their
/// bounding spheres and the gap between their bounding boxes along an axis (each is ≤ the true one).
double distance_lower_bound(const BodyDef& a, const BodyDef& b) {
  const double spheres =
      (a.position - b.position).norm() - bounding_radius(a.shape) - bounding_radius(b.shape);
  const Bounds ba = world_bounds(a), bb = world_bounds(b);
  double boxes = -INFINITY;
  for (int k = 0; k < 3; ++k) boxes = std::max({boxes, bb.lo[k] - ba.hi[k], ba.lo[k] - bb.hi[k]});
  return std::max(spheres, boxes);
}

// ------------------------------------------------------------------ checks every generated scene passes

/// Joints name existing bodies, and their names and indices agree.
void expect_joints_reference_bodies(const Scene& scene) {
  std::set<std::string> names;
  for (const BodyDef& body : scene.bodies) EXPECT_TRUE(names.insert(body.name).second) << body.name;
  std::set<std::string> joint_names;
  for (const JointDef& joint : scene.joints) {
    SCOPED_TRACE(joint.name);
    EXPECT_TRUE(joint_names.insert(joint.name).second);
    ASSERT_GE(joint.body1_index, 0);
    ASSERT_LT(joint.body1_index, static_cast<int>(scene.bodies.size()));
    EXPECT_EQ(joint.body1, scene.bodies[joint.body1_index].name);
    ASSERT_GE(joint.body2_index, -1);
    ASSERT_LT(joint.body2_index, static_cast<int>(scene.bodies.size()));
    EXPECT_NE(joint.body1_index, joint.body2_index);
    EXPECT_EQ(joint.body2, joint.body2_index < 0 ? "world" : scene.bodies[joint.body2_index].name);
  }
}

/// Every pair that may touch (not joined with collide_connected false, filters allowing) starts at
/// least kMinGap apart, and every dynamic body at least kMinGap above the ground.
void expect_apart_at_start(const Scene& scene) {
  std::set<std::pair<int, int>> joined;
  for (const JointDef& joint : scene.joints) {
    if (!joint.collide_connected && joint.body2_index >= 0) {
      joined.emplace(std::min(joint.body1_index, joint.body2_index), std::max(joint.body1_index, joint.body2_index));
    }
  }
  const int n = static_cast<int>(scene.bodies.size());
  for (int i = 0; i < n; ++i) {
    const BodyDef& a = scene.bodies[i];
    if (scene.ground && !a.fixed && !a.kinematic) {
      EXPECT_GE(world_bounds(a).lo.z() - scene.ground->height, kMinGap) << a.name << " and the ground";
    }
    for (int j = i + 1; j < n; ++j) {
      const BodyDef& b = scene.bodies[j];
      const bool filtered = !(a.collision.group & b.collision.mask) || !(b.collision.group & a.collision.mask);
      if (filtered || joined.count({i, j})) continue;
      EXPECT_GE(distance_lower_bound(a, b), kMinGap) << a.name << " and " << b.name;
    }
  }
}

/// `a` and `b` hold the same values, numbers to within a relative 1e-12 (quaternions are normalised
/// again on loading).
void expect_same_json(const nlohmann::json& a, const nlohmann::json& b, const std::string& path = "") {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    EXPECT_LE(std::abs(x - y), 1e-12 * std::max(1.0, std::abs(x))) << path << ": " << x << " vs " << y;
    return;
  }
  ASSERT_EQ(a.type(), b.type()) << path;
  if (a.is_object()) {
    ASSERT_EQ(a.size(), b.size()) << path;
    for (const auto& [key, value] : a.items()) {
      ASSERT_TRUE(b.contains(key)) << path << "." << key;
      expect_same_json(value, b.at(key), path + "." + key);
    }
  } else if (a.is_array()) {
    ASSERT_EQ(a.size(), b.size()) << path;
    for (std::size_t i = 0; i < a.size(); ++i) expect_same_json(a[i], b[i], path + "[" + std::to_string(i) + "]");
  } else {
    EXPECT_EQ(a, b) << path;
  }
}

/// save_scene, then load_scene, gives the scene back; and saving is deterministic.
void expect_round_trip(const Scene& scene) {
  const TempDir dir;
  const std::filesystem::path file = dir.path() / "generated.json";
  save_scene(scene, file);
  const Scene loaded = load_scene(file);
  expect_same_json(scene_to_json(scene), scene_to_json(loaded));
  EXPECT_EQ(loaded.joints.size(), scene.joints.size());
  for (std::size_t i = 0; i < std::min(loaded.joints.size(), scene.joints.size()); ++i) {
    EXPECT_EQ(loaded.joints[i].body1_index, scene.joints[i].body1_index);
    EXPECT_EQ(loaded.joints[i].body2_index, scene.joints[i].body2_index);
  }
}

void expect_valid_start(const Scene& scene) {
  expect_joints_reference_bodies(scene);
  expect_apart_at_start(scene);
  expect_round_trip(scene);
  ASSERT_TRUE(scene.settings.output_fps.has_value());
  EXPECT_LE(*scene.settings.output_fps * scene.settings.dt, 1.0);
}

std::string json_text(const Scene& scene) { return scene_to_json(scene).dump(); }

/// Calls `make` and expects an InputError whose message starts with `option`.
void expect_option_error(const std::function<void()>& make, const std::string& option) {
  try {
    make();
    ADD_FAILURE() << "no error for " << option;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(option, 0), 0u) << e.what();
  }
}

int joints_to_world(const Scene& scene) {
  return static_cast<int>(std::count_if(scene.joints.begin(), scene.joints.end(),
                                        [](const JointDef& j) { return j.body2_index < 0; }));
}

// ------------------------------------------------------------------ chain

TEST(GenerateChain, DefaultsHangTwentyBallJointedLinksFromTheWorld) {
  const Scene scene = generate::chain({});
  ASSERT_EQ(scene.bodies.size(), 20u);
  ASSERT_EQ(scene.joints.size(), 20u);
  EXPECT_FALSE(scene.ground.has_value());
  EXPECT_EQ(joints_to_world(scene), 1);
  EXPECT_EQ(scene.joints[0].body2, "world");
  for (std::size_t i = 0; i < scene.joints.size(); ++i) {
    EXPECT_EQ(scene.joints[i].type, JointType::ball);
    EXPECT_FALSE(scene.joints[i].collide_connected);
    EXPECT_EQ(scene.joints[i].body1_index, static_cast<int>(i));
    EXPECT_EQ(scene.joints[i].body2_index, static_cast<int>(i) - 1);  // each link hangs from the one before
  }
  for (const BodyDef& link : scene.bodies) EXPECT_DOUBLE_EQ(*link.mass, *scene.bodies[0].mass);
  expect_valid_start(scene);
}

TEST(GenerateChain, EndMassRatioIsTheLastLinkOverTheFirstGradedGeometrically) {
  for (const double ratio : {1000.0, 0.01, 3.5}) {
    SCOPED_TRACE(ratio);
    const Scene scene = generate::chain({.links = 7, .end_mass_ratio = ratio, .joint = generate::ChainJoint::hinge});
    ASSERT_EQ(scene.bodies.size(), 7u);
    ASSERT_EQ(scene.joints.size(), 7u);
    const double first = *scene.bodies.front().mass;
    EXPECT_NEAR(*scene.bodies.back().mass / first, ratio, 1e-12 * ratio);
    const double step = std::pow(ratio, 1.0 / 6.0);  // the same ratio between every two neighbours
    for (std::size_t i = 1; i < scene.bodies.size(); ++i) {
      EXPECT_NEAR(*scene.bodies[i].mass / *scene.bodies[i - 1].mass, step, 1e-12 * step);
    }
    for (const JointDef& joint : scene.joints) {
      EXPECT_EQ(joint.type, JointType::hinge);
      EXPECT_EQ(joint.axis, Vec3::UnitY());
    }
    expect_valid_start(scene);
  }
}

TEST(GenerateChain, BoxLinksKeepTheCapsulesTipsAndPitch) {
  const Scene scene = generate::chain({.links = 9, .end_mass_ratio = 1000.0, .link = generate::ChainLink::box});
  ASSERT_EQ(scene.bodies.size(), 9u);
  ASSERT_EQ(scene.joints.size(), 9u);
  const double first_mass = 1000.0 * 0.1 * 0.02 * 0.02;  // kg/m³ · the box's volume
  EXPECT_NEAR(*scene.bodies.front().mass, first_mass, 1e-15);
  EXPECT_NEAR(*scene.bodies.back().mass, 1000.0 * first_mass, 1e-12);
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    SCOPED_TRACE(i);
    const BodyDef& link = scene.bodies[i];
    const auto* box = std::get_if<BoxShape>(&link.shape);
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->size, Vec3(0.1, 0.02, 0.02));
    EXPECT_TRUE(link.rotation.isApprox(Quat::Identity(), 1e-15));  // long edge along x, horizontal
    // The link's two end faces are centred on its two joints: the one to its parent and its child's.
    EXPECT_TRUE((link.position - Vec3(0.05, 0, 0)).isApprox(scene.joints[i].anchor, 1e-12));
    if (i + 1 < scene.joints.size()) {
      EXPECT_TRUE((link.position + Vec3(0.05, 0, 0)).isApprox(scene.joints[i + 1].anchor, 1e-12));
    }
  }
  expect_valid_start(scene);
  expect_option_error([] { generate::parse_chain_link("rod"); }, "--link rod");
}

TEST(GenerateChain, OneLinkIsPinnedToTheWorld) {
  const Scene scene = generate::chain({.links = 1});
  ASSERT_EQ(scene.bodies.size(), 1u);
  ASSERT_EQ(scene.joints.size(), 1u);
  EXPECT_EQ(scene.joints[0].body2, "world");
  expect_valid_start(scene);
}

TEST(GenerateChain, BadOptionsNameTheOption) {
  expect_option_error([] { generate::chain({.links = 0}); }, "--links 0");
  expect_option_error([] { generate::chain({.links = generate::kMaxBodies + 1}); }, "--links");
  expect_option_error([] { generate::chain({.end_mass_ratio = 0.0}); }, "--end-mass-ratio 0");
  expect_option_error([] { generate::chain({.end_mass_ratio = -2.0}); }, "--end-mass-ratio -2");
  expect_option_error([] { generate::chain({.end_mass_ratio = NAN}); }, "--end-mass-ratio nan");
  expect_option_error([] { generate::chain({.end_mass_ratio = INFINITY}); }, "--end-mass-ratio inf");
  expect_option_error([] { generate::chain({.links = 1, .end_mass_ratio = 2.0}); }, "--end-mass-ratio 2");
  expect_option_error([] { generate::parse_chain_joint("rope"); }, "--joint rope");
  EXPECT_EQ(generate::parse_chain_joint("hinge"), generate::ChainJoint::hinge);
  EXPECT_EQ(generate::parse_chain_joint("ball"), generate::ChainJoint::ball);
}

TEST(GenerateChain, TheLimitItselfIsAllowed) {
  const Scene scene = generate::chain({.links = generate::kMaxBodies});
  EXPECT_EQ(static_cast<long long>(scene.bodies.size()), generate::kMaxBodies);
}

// ------------------------------------------------------------------ net

TEST(GenerateNet, SpheresJoinedToGridNeighboursWithTheCornersPinned) {
  for (const long long n : {2LL, 4LL, 10LL}) {
    SCOPED_TRACE(n);
    const Scene scene = generate::net({.size = n});
    EXPECT_EQ(static_cast<long long>(scene.bodies.size()), n * n);
    EXPECT_EQ(static_cast<long long>(scene.joints.size()), 2 * n * (n - 1) + 4);
    EXPECT_EQ(joints_to_world(scene), 4);
    for (const JointDef& joint : scene.joints) {
      EXPECT_EQ(joint.type, JointType::ball);
      if (joint.body2_index < 0) continue;
      // Grid neighbours only: one step along a row or a column, 0.1 m apart.
      const double d = (scene.bodies[joint.body1_index].position - scene.bodies[joint.body2_index].position).norm();
      EXPECT_NEAR(d, 0.1, 1e-12) << joint.name;
    }
    expect_valid_start(scene);
  }
}

TEST(GenerateNet, BadSizesNameTheOption) {
  expect_option_error([] { generate::net({.size = 1}); }, "--size 1");
  expect_option_error([] { generate::net({.size = 1001}); }, "--size 1001");
  expect_option_error([] { generate::net({.size = 708, .kind = generate::NetKind::links}); }, "--size 708");
  expect_option_error([] { generate::parse_net_kind("knots"); }, "--kind knots");
}

TEST(GenerateNet, LinksAreTheEdgesAndEveryKnotJoinsTheLinksMeetingThere) {
  for (const long long n : {2LL, 3LL, 6LL}) {
    SCOPED_TRACE(n);
    const Scene scene = generate::net({.size = n, .kind = generate::NetKind::links});
    const long long links = 2 * n * (n - 1);
    ASSERT_EQ(static_cast<long long>(scene.bodies.size()), links);
    // Σ over knots of (links meeting there − 1) = 2·links − knots, and the four corner pins.
    EXPECT_EQ(static_cast<long long>(scene.joints.size()), 2 * links - n * n + 4);
    EXPECT_EQ(joints_to_world(scene), 4);
    std::vector<int> ends(scene.bodies.size(), 0);  // joints at each link's ends (pins included)
    for (const JointDef& joint : scene.joints) {
      EXPECT_EQ(joint.type, JointType::ball);
      // Every joint sits at a tip of its links: half a pitch (0.05 m) from each centre, along the link.
      for (const int body : {joint.body1_index, joint.body2_index}) {
        if (body < 0) continue;
        ++ends[body];
        const BodyDef& link = scene.bodies[body];
        const Vec3 along = link.rotation.toRotationMatrix().col(2);
        const Vec3 offset = joint.anchor - link.position;
        EXPECT_NEAR(offset.norm(), 0.05, 1e-12) << joint.name;
        EXPECT_NEAR(std::abs(offset.dot(along)), 0.05, 1e-12) << joint.name;
      }
    }
    // Each link is joined at both ends: at least one joint at each.
    for (std::size_t i = 0; i < ends.size(); ++i) EXPECT_GE(ends[i], 2) << scene.bodies[i].name;
    expect_valid_start(scene);
  }
  // The size of He 2026 Fig. 14: about 30,000 links and 120,000 rows (here 3 per ball joint).
  const Scene fig14 = generate::net({.size = 123, .kind = generate::NetKind::links});
  EXPECT_EQ(fig14.bodies.size(), 30'012u);
  EXPECT_EQ(3 * fig14.joints.size(), 134'697u);
}

// ------------------------------------------------------------------ pulley

TEST(GeneratePulley, TwoRopesOverAHingedWheelTiedBelowByABarCloseOneLoop) {
  for (const long long n : {2LL, 3LL, 20LL}) {
    SCOPED_TRACE(n);
    const Scene scene = generate::pulley({.links = n, .load_ratio = 3.0});
    ASSERT_EQ(static_cast<long long>(scene.bodies.size()), 2 * n + 4);
    ASSERT_EQ(static_cast<long long>(scene.joints.size()), 2 * n + 5);
    EXPECT_EQ(joints_to_world(scene), 1);
    EXPECT_EQ(scene.joints.front().type, JointType::hinge);  // the wheel's axle
    // One loop: a connected joint graph (world included) with one joint more than a tree would have.
    std::vector<int> parent(scene.bodies.size() + 1);
    for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int>(i);
    const auto root = [&](int v) {
      while (parent[v] != v) v = parent[v] = parent[parent[v]];
      return v;
    };
    int cycles = 0;
    for (const JointDef& joint : scene.joints) {
      const int a = root(joint.body1_index + 1), b = root(joint.body2_index + 1);  // 0: the world
      if (a == b) ++cycles;
      parent[a] = b;
    }
    EXPECT_EQ(cycles, 1);
    for (std::size_t v = 0; v < parent.size(); ++v) EXPECT_EQ(root(static_cast<int>(v)), root(0));
    // The left load is R times the right one (same box, density ratio).
    const auto load = [&](const std::string& name) {
      return *std::find_if(scene.bodies.begin(), scene.bodies.end(), [&](const BodyDef& b) { return b.name == name; });
    };
    EXPECT_DOUBLE_EQ(load("left_load").density, 3.0 * load("right_load").density);
    // Every joint's anchor is at the same point of both its bodies: the rope hangs straight, so each
    // ball anchor lies on the axis of the links it joins and on a box's top or bottom face.
    for (const JointDef& joint : scene.joints) {
      if (joint.body2_index < 0) {
        EXPECT_EQ(joint.anchor, scene.bodies[joint.body1_index].position);  // the wheel's centre
        continue;
      }
      for (const int body : {joint.body1_index, joint.body2_index}) {
        const BodyDef& b = scene.bodies[body];
        const Vec3 local = b.rotation.toRotationMatrix().transpose() * (joint.anchor - b.position);
        if (std::holds_alternative<CapsuleShape>(b.shape)) {
          const auto& capsule = std::get<CapsuleShape>(b.shape);
          EXPECT_NEAR(std::abs(local.z()), 0.5 * capsule.length + capsule.radius + (b.name == "bar" ? -0.015 : 0.0),
                      1e-12)
              << joint.name << " on " << b.name;
        } else if (std::holds_alternative<BoxShape>(b.shape)) {
          EXPECT_NEAR(std::abs(local.z()), 0.05, 1e-12) << joint.name << " on " << b.name;
          EXPECT_NEAR(local.head<2>().norm(), 0.0, 1e-12) << joint.name << " on " << b.name;
        } else {
          EXPECT_NEAR(local.norm(), 0.36, 1e-12) << joint.name << " on the wheel, 0.06 m beyond its rim";
        }
      }
    }
    expect_valid_start(scene);
  }
}

TEST(GeneratePulley, BadOptionsNameTheOption) {
  expect_option_error([] { generate::pulley({.links = 1}); }, "--links 1");
  expect_option_error([] { generate::pulley({.links = generate::kMaxBodies}); }, "--links");
  expect_option_error([] { generate::pulley({.load_ratio = 0.0}); }, "--load-ratio 0");
  expect_option_error([] { generate::pulley({.load_ratio = 1e4}); }, "--load-ratio 10000");
}

// ------------------------------------------------------------------ tree

TEST(GenerateTree, EachNodeHasBranchingChildrenDownToDepth) {
  for (const auto& [depth, branching, bodies] :
       std::vector<std::tuple<long long, long long, long long>>{{3, 2, 15}, {2, 4, 21}, {1, 1, 2}, {4, 3, 121}}) {
    SCOPED_TRACE(std::to_string(depth) + " " + std::to_string(branching));
    const Scene scene = generate::tree({.depth = depth, .branching = branching});
    ASSERT_EQ(static_cast<long long>(scene.bodies.size()), bodies);
    EXPECT_EQ(generate::tree_body_count(depth, branching), bodies);
    ASSERT_EQ(scene.joints.size(), scene.bodies.size());  // one joint up from every node, the root's to the world
    EXPECT_EQ(joints_to_world(scene), 1);
    std::vector<int> children(scene.bodies.size(), 0);
    for (const JointDef& joint : scene.joints) {
      EXPECT_EQ(joint.type, JointType::ball);
      if (joint.body2_index >= 0) ++children[joint.body2_index];
    }
    // Internal nodes have `branching` children; the leaves, branching^depth of them, none.
    long long leaves = 1;
    for (long long k = 0; k < depth; ++k) leaves *= branching;
    EXPECT_EQ(std::count(children.begin(), children.end(), 0), leaves);
    EXPECT_EQ(static_cast<long long>(std::count(children.begin(), children.end(), static_cast<int>(branching))),
              branching == 1 ? depth : bodies - leaves);
    expect_valid_start(scene);
  }
}

TEST(GenerateTree, BadOptionsNameTheOption) {
  expect_option_error([] { generate::tree({.depth = 0}); }, "--depth 0");
  expect_option_error([] { generate::tree({.branching = 0}); }, "--branching 0");
  expect_option_error([] { generate::tree({.depth = 20, .branching = 3}); }, "--depth 20 --branching 3");
  expect_option_error([] { generate::tree({.depth = 1000, .branching = 1000}); }, "--depth 1000 --branching 1000");
  EXPECT_EQ(generate::tree_body_count(generate::kMaxBodies - 1, 1), generate::kMaxBodies);
}

// ------------------------------------------------------------------ pile

TEST(GeneratePile, BoxesOverTheGroundTheSameForTheSameSeed) {
  for (const long long boxes : {1LL, 7LL, 27LL, 30LL}) {
    SCOPED_TRACE(boxes);
    const Scene scene = generate::pile({.boxes = boxes});
    EXPECT_EQ(static_cast<long long>(scene.bodies.size()), boxes);
    EXPECT_TRUE(scene.joints.empty());
    ASSERT_TRUE(scene.ground.has_value());
    for (const BodyDef& body : scene.bodies) EXPECT_TRUE(std::holds_alternative<BoxShape>(body.shape));
    expect_valid_start(scene);
  }
  EXPECT_EQ(json_text(generate::pile({.boxes = 30, .seed = 7})), json_text(generate::pile({.boxes = 30, .seed = 7})));
  EXPECT_NE(json_text(generate::pile({.boxes = 30, .seed = 7})), json_text(generate::pile({.boxes = 30, .seed = 8})));
}

TEST(GeneratePile, BadOptionsNameTheOption) {
  expect_option_error([] { generate::pile({.boxes = 0}); }, "--boxes 0");
  expect_option_error([] { generate::pile({.boxes = 1'000'000}); }, "--boxes 1000000");
  expect_option_error([] { generate::pile({.seed = -1}); }, "--seed -1");
}

// ------------------------------------------------------------------ drop

TEST(GenerateDrop, MixedShapesInTurnOverTheGround) {
  for (const long long bodies : {1LL, 12LL, 40LL}) {
    SCOPED_TRACE(bodies);
    const Scene scene = generate::drop({.bodies = bodies, .seed = 3});
    ASSERT_EQ(static_cast<long long>(scene.bodies.size()), bodies);
    EXPECT_TRUE(scene.joints.empty());
    ASSERT_TRUE(scene.ground.has_value());
    // Shape's alternatives are box, sphere, capsule, cylinder, torus, mesh: the first five in turn.
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) EXPECT_EQ(scene.bodies[i].shape.index(), i % 5);
    expect_valid_start(scene);
  }
  EXPECT_EQ(json_text(generate::drop({})), json_text(generate::drop({})));
}

TEST(GenerateDrop, BadOptionsNameTheOption) {
  expect_option_error([] { generate::drop({.bodies = 0}); }, "--bodies 0");
  expect_option_error([] { generate::drop({.bodies = generate::kMaxBodies + 1}); }, "--bodies");
}

// ------------------------------------------------------------------ wrecking ball

TEST(GenerateWreckingBall, AWallOfBlocksAndABallOnAJointedRope) {
  for (const long long blocks : {1LL, 20LL, 57LL, 400LL}) {
    SCOPED_TRACE(blocks);
    const Scene scene = generate::wrecking_ball({.blocks = blocks});
    ASSERT_TRUE(scene.ground.has_value());
    const auto block_count = std::count_if(scene.bodies.begin(), scene.bodies.end(),
                                           [](const BodyDef& b) { return b.name.rfind("block", 0) == 0; });
    EXPECT_EQ(block_count, blocks);
    // The rope's links and the ball, each jointed to the one before, the first to the world.
    const std::size_t swinging = scene.bodies.size() - static_cast<std::size_t>(blocks);
    EXPECT_GE(swinging, 7u);
    EXPECT_EQ(scene.joints.size(), swinging);
    EXPECT_EQ(joints_to_world(scene), 1);
    EXPECT_EQ(scene.bodies.back().name, "ball");
    // Hanging straight down, the ball would be in the wall: it must hit it.
    const JointDef& pin = scene.joints.front();
    const BodyDef& ball = scene.bodies.back();
    const double reach = (ball.position - pin.anchor).norm();
    const Vec3 lowest = pin.anchor - Vec3::UnitZ() * reach;
    EXPECT_LT(std::abs(lowest.x()), 0.1 + std::get<SphereShape>(ball.shape).radius);
    EXPECT_GT(lowest.z() - std::get<SphereShape>(ball.shape).radius, 0.0);  // but not in the ground
    expect_valid_start(scene);
  }
}

TEST(GenerateWreckingBall, TheVariantsOfLanTable1HaveItsBodyCounts) {
  using generate::WreckingBallVariant;
  for (const auto& [variant, bodies] : {std::pair{WreckingBallVariant::light, 16u},
                                        std::pair{WreckingBallVariant::medium, 142u},
                                        std::pair{WreckingBallVariant::full, 562u}}) {
    SCOPED_TRACE(generate::to_string(variant));
    EXPECT_EQ(generate::parse_wrecking_ball_variant(generate::to_string(variant)), variant);
    const Scene scene = generate::wrecking_ball({.blocks = generate::variant_blocks(variant), .free_ball = true});
    EXPECT_EQ(scene.bodies.size(), bodies);  // the blocks and the ball, no rope
    EXPECT_TRUE(scene.joints.empty());
    expect_valid_start(scene);
  }
  expect_option_error([] { generate::parse_wrecking_ball_variant("huge"); }, "--variant huge");
}

TEST(GenerateWreckingBall, TheFreeBallFliesIntoTheWallsFace) {
  for (const long long blocks : {1LL, 15LL, 561LL}) {
    SCOPED_TRACE(blocks);
    const Scene scene = generate::wrecking_ball({.blocks = blocks, .free_ball = true});
    ASSERT_EQ(scene.bodies.back().name, "ball");
    const BodyDef& ball = scene.bodies.back();
    const double r = std::get<SphereShape>(ball.shape).radius;
    EXPECT_EQ(ball.velocity, Vec3(generate::kThrowSpeed, 0, 0));
    double wall_top = 0.0, face = INFINITY;
    for (std::size_t i = 0; i + 1 < scene.bodies.size(); ++i) {
      const BoxShape& block = std::get<BoxShape>(scene.bodies[i].shape);
      wall_top = std::max(wall_top, scene.bodies[i].position.z() + 0.5 * block.size.z());
      face = std::min(face, scene.bodies[i].position.x() - 0.5 * block.size.x());
    }
    // Ballistic flight to the wall's face: x(t) = x0 + v t, z(t) = z0 − g t²/2. Where the ball's
    // front reaches the face, it is clear of the ground and its bottom is below the wall's top: it hits
    // the blocks, not the floor and not the air above them.
    const double t = (face - r - ball.position.x()) / generate::kThrowSpeed;
    ASSERT_GT(t, 0.0);
    const double z = ball.position.z() - 0.5 * 9.81 * t * t;
    EXPECT_GT(z, r);
    EXPECT_LT(z - r, wall_top);
    EXPECT_LT(std::abs(ball.position.y()), 0.1);  // in front of the wall's middle
  }
}

TEST(GenerateWreckingBall, BadOptionsNameTheOption) {
  expect_option_error([] { generate::wrecking_ball({.blocks = 0}); }, "--blocks 0");
  expect_option_error([] { generate::wrecking_ball({.blocks = generate::kMaxBodies}); }, "--blocks");
}

// ------------------------------------------------------------------ settings

TEST(GenerateSettings, FramesAtFiftyPerSecondWhenTheStepAllowsIt) {
  EXPECT_EQ(generate::output_fps_for(0.01, 2.0), generate::kOutputFps);
  EXPECT_EQ(generate::output_fps_for(0.02, 2.0), generate::kOutputFps);
  EXPECT_FALSE(generate::output_fps_for(0.05, 2.0).has_value());
  EXPECT_FALSE(generate::output_fps_for(0.01, 1e9).has_value());  // more frames than a run may write
}

}  // namespace
}  // namespace affix
