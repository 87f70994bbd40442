// Models nobody here wrote, imported and simulated: the MJCF samples of Debian's libmujoco-samples
// (humanoid, slider_crank, humanoid100, and the mug's mesh made to collide) and a UR5 written from Universal Robots' published dimensions
// (tests/data/ur5/ur5.urdf). Each imports, passes what `affix validate` checks, and runs with the ipc
// solver with its joint limits kept and no interpenetration, measured from the poses; the humanoid's
// mass properties match MuJoCo's own compiled model, read here independently.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <numbers>
#include <string>

#include "affix/geometry/mass_properties.hpp"
#include "affix/import/import_model.hpp"
#include "affix/import/map_joints.hpp"
#include "affix/math/rotation.hpp"
#include "affix/model/model.hpp"
#include "affix/solvers/registry.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

const std::filesystem::path kSamples = "/usr/share/mujoco/model";

std::filesystem::path sample(const std::string& name) { return kSamples / name; }
std::filesystem::path ur5() { return std::filesystem::path(AFFIX_SOURCE_DIR) / "tests/data/ur5/ur5.urdf"; }

struct MjModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
std::unique_ptr<mjModel, MjModelDeleter> load_mujoco(const std::filesystem::path& file) {
  char error[1000] = "";
  std::unique_ptr<mjModel, MjModelDeleter> m(mj_loadXML(file.c_str(), nullptr, error, sizeof error));
  EXPECT_TRUE(m) << error;
  return m;
}

double relative(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

TEST(ImportModels, HumanoidMassPropertiesMatchMujoco) {
  const auto m = load_mujoco(sample("humanoid/humanoid.xml"));
  const Model model = compile(import_model_report(sample("humanoid/humanoid.xml")).scene);
  double total = 0.0, total_mujoco = 0.0;
  for (int b = 1; b < m->nbody; ++b) {
    const std::string name = mj_id2name(m.get(), mjOBJ_BODY, b);
    const auto it = std::find_if(model.bodies.begin(), model.bodies.end(), [&](const ModelBody& x) { return x.name == name; });
    ASSERT_NE(it, model.bodies.end()) << name;
    EXPECT_LT(relative(it->mass, m->body_mass[b]), 1e-9) << name;
    total += it->mass;
    total_mujoco += m->body_mass[b];
    // The inertia about the centre of mass: MuJoCo's principal moments in the frame body_iquat.
    const Mat3 R = Quat(m->body_iquat[4 * b], m->body_iquat[4 * b + 1], m->body_iquat[4 * b + 2], m->body_iquat[4 * b + 3])
                       .normalized().toRotationMatrix();
    const Mat3 expected = R * Vec3(m->body_inertia[3 * b], m->body_inertia[3 * b + 1], m->body_inertia[3 * b + 2]).asDiagonal() * R.transpose();
    EXPECT_LT((it->inertia - expected).norm() / expected.norm(), 1e-9) << name;
    Vec3 mujoco_moments(m->body_inertia + 3 * b);
    std::sort(mujoco_moments.data(), mujoco_moments.data() + 3);
    const Vec3 moments = principal_moments(it->inertia);
    for (int k = 0; k < 3; ++k) EXPECT_LT(relative(moments[k], mujoco_moments[k]), 1e-9) << name;
    EXPECT_LT((it->center_of_mass - Vec3(m->body_ipos + 3 * b)).norm(), 1e-12) << name;
  }
  EXPECT_LT(relative(total, total_mujoco), 1e-9);
  // The virtual links of bodies with several hinges add kVirtualLinkFraction of their body each.
  double virtual_mass = 0.0;
  for (const ModelBody& b : model.bodies)
    if (b.name.find("/virtual") != std::string::npos) virtual_mass += b.mass;
  EXPECT_GT(virtual_mass, 0.0);
  EXPECT_LT(virtual_mass, 2 * kVirtualLinkFraction * total);
}

// ------------------------------------------------------------ simulation

/// Angle of a hinge (body1 relative to body2, right-handed about the axis) from the poses: the frames'
/// y axes coincide at the start, and rotating body1 by θ about x turns body2's y into body1's.
double hinge_angle(const ModelJoint& j, const std::vector<BodyPose>& poses) {
  const auto carried = [&](int body, const Vec3& v) { return body < 0 ? v : Vec3(polar_rotation(poses[body].A) * v); };
  const Vec3 x = carried(j.body1, j.frame1.axes.col(0)).normalized();
  const Vec3 y1 = carried(j.body1, j.frame1.axes.col(1));
  const Vec3 y2 = carried(j.body2, j.frame2.axes.col(1));
  return std::atan2(x.dot(y2.cross(y1)), y2.dot(y1));
}

double slide(const ModelJoint& j, const std::vector<BodyPose>& poses) {
  const Vec3 a1 = poses[j.body1].A * j.frame1.origin + poses[j.body1].p;
  const Vec3 a2 = j.body2 < 0 ? j.frame2.origin : Vec3(poses[j.body2].A * j.frame2.origin + poses[j.body2].p);
  const Vec3 axis = j.body2 < 0 ? j.frame2.axes.col(0) : Vec3(polar_rotation(poses[j.body2].A) * j.frame2.axes.col(0));
  return (a1 - a2).dot(axis.normalized());
}

struct RunFacts {
  double min_distance = std::numeric_limits<double>::infinity();
  double worst_limit_excess = 0.0;  ///< the most any hinge/slide passed its limit (rad or m); ≤ 0 is kept
  std::string worst_joint;          ///< the joint that passed it most
  double max_anchor_gap = 0.0;
  double lowest_drop = 0.0;         ///< how far the lowest body fell (m), to see that something moved
  int limits_approached = 0;        ///< hinges that came within 5° of a limit
};

RunFacts run(const Scene& scene, int steps) {
  SCOPED_TRACE(scene.name);
  auto model = std::make_shared<const Model>(compile(scene));
  check_model(*model);
  auto sim = make_simulator(model);
  RunFacts facts;
  const std::vector<BodyPose> start = sim->poses();
  std::vector<bool> approached(model->joints.size(), false);
  for (int s = 0; s < steps; ++s) {
    const StepStats stats = sim->step();
    facts.min_distance = std::min(facts.min_distance, stats.min_distance);
    const std::vector<BodyPose> poses = sim->poses();
    for (std::size_t k = 0; k < model->joints.size(); ++k) {
      const ModelJoint& j = model->joints[k];
      if (j.def.type == JointType::hinge && j.def.angle_limits) {
        const double angle = hinge_angle(j, poses);
        const double excess = std::max(j.def.angle_limits->min - angle, angle - j.def.angle_limits->max);
        if (excess > facts.worst_limit_excess) facts.worst_limit_excess = excess, facts.worst_joint = j.def.name;
        if (std::min(angle - j.def.angle_limits->min, j.def.angle_limits->max - angle) < 5.0 * std::numbers::pi / 180.0) approached[k] = true;
      }
      if (j.def.type == JointType::prismatic && j.def.limits) {
        const double d = slide(j, poses);
        const double excess = std::max((*j.def.limits)[0] - d, d - (*j.def.limits)[1]);
        if (excess > facts.worst_limit_excess) facts.worst_limit_excess = excess, facts.worst_joint = j.def.name;
      }
    }
    facts.max_anchor_gap = std::max(facts.max_anchor_gap, test::max_anchor_gap(*model, sim->joint_records()));
  }
  for (const ContactRecord& c : sim->contact_records()) facts.min_distance = std::min(facts.min_distance, c.distance);
  const std::vector<BodyPose> end = sim->poses();
  for (std::size_t i = 0; i < end.size(); ++i) facts.lowest_drop = std::max(facts.lowest_drop, start[i].p.z() - end[i].p.z());
  facts.limits_approached = static_cast<int>(std::count(approached.begin(), approached.end(), true));
  std::cout << scene.name << ", " << steps << " steps: min distance " << facts.min_distance << " m, worst limit excess "
            << facts.worst_limit_excess << " (" << facts.worst_joint << "), anchor gap " << facts.max_anchor_gap << " m, lowest drop "
            << facts.lowest_drop << " m, " << facts.limits_approached << " joints within 5 deg of a limit\n";
  return facts;
}

Scene for_ipc(Scene scene) {
  scene.settings.solver = "ipc";
  return scene;
}

TEST(ImportModels, HumanoidFallsOntoTheFloorKeepingLimitsWithoutInterpenetration) {
  const Scene scene = for_ipc(import_model_report(sample("humanoid/humanoid.xml")).scene);
  // A second at MuJoCo's 5 ms: the feet reach the floor at ~0.25 s, the body folds against its limits.
  const RunFacts facts = run(scene, 200);
  EXPECT_GT(facts.min_distance, 0.0);
  EXPECT_LE(facts.worst_limit_excess, 1e-4);
  EXPECT_LT(facts.max_anchor_gap, 1e-3);
  EXPECT_GT(facts.lowest_drop, 0.1);
  EXPECT_GE(facts.limits_approached, 1);
}

TEST(ImportModels, SliderCrankImportsAndRuns) {
  const ImportedModel imported = import_model_report(sample("slider_crank/slider_crank.xml"));
  EXPECT_EQ(imported.unmapped.counts().at("actuators"), 3);
  EXPECT_EQ(imported.unmapped.counts().at("sites"), 6);
  const RunFacts facts = run(for_ipc(imported.scene), 500);  // a second at its 2 ms
  EXPECT_GT(facts.min_distance, 0.0);
  EXPECT_LT(facts.max_anchor_gap, 1e-4);
}

TEST(ImportModels, Humanoid100ImportsValidatesAndSteps) {
  const ImportedModel imported = import_model_report(sample("humanoid100/humanoid100.xml"));
  const auto m = load_mujoco(sample("humanoid100/humanoid100.xml"));
  int free_bodies = 0;
  for (const BodyDef& b : imported.scene.bodies) free_bodies += !b.fixed;
  EXPECT_GE(free_bodies, m->nbody - 1);  // every MuJoCo body moves (plus virtual links)
  // 10 steps (0.05 s): a whole second takes minutes (README "Importing MJCF and URDF").
  const RunFacts facts = run(for_ipc(imported.scene), 10);
  EXPECT_GT(facts.min_distance, 0.0);
  EXPECT_LE(facts.worst_limit_excess, 1e-4);
}

TEST(ImportModels, Ur5UrdfKeepsItsPublishedMassesAndSwingsDown) {
  const Scene scene = for_ipc(import_model_report(ur5()).scene);
  const std::map<std::string, double> published{{"shoulder_link", 3.7}, {"upper_arm_link", 8.393}, {"forearm_link", 2.275},
                                                {"wrist_1_link", 1.219}, {"wrist_2_link", 1.219}, {"wrist_3_link", 0.1879}};
  for (const auto& [name, mass] : published) EXPECT_EQ(scene.bodies.at(static_cast<std::size_t>(*scene.body_index(name))).inertial->mass, mass) << name;
  // MuJoCo fuses the jointless base into the world: its geoms become the fixed body "worldbody".
  EXPECT_TRUE(scene.bodies.at(static_cast<std::size_t>(*scene.body_index("worldbody"))).fixed);
  EXPECT_EQ(scene.joints.size(), 6u);
  const RunFacts facts = run(scene, 500);  // a second at MuJoCo's default 2 ms
  EXPECT_GT(facts.min_distance, 0.0);
  EXPECT_LE(facts.worst_limit_excess, 1e-4);
  EXPECT_LT(facts.max_anchor_gap, 1e-3);
  EXPECT_GT(facts.lowest_drop, 0.05);  // the arm, level at qpos0, swings down under gravity
}

// The mug sample's mesh (mug/mug.obj, 24,544 triangles, per-face texture corners) as the mug's one
// colliding geom, instead of the sample's boxes (examples/import/mug_mesh.xml): imported from MuJoCo's compiled mesh, placed 1 cm
// above the floor and dropped, it lands and rests on the floor without passing it.
TEST(ImportModels, MugMeshImportsAndLandsOnTheFloor) {
  const auto file = std::filesystem::path(AFFIX_SOURCE_DIR) / "examples/import/mug_mesh.xml";
  const ImportedModel imported = import_model_report(file);
  Scene scene = for_ipc(imported.scene);
  BodyDef& mug = scene.bodies.at(static_cast<std::size_t>(*scene.body_index("mug")));
  const auto& part = std::get<CompoundShape>(mug.shape).parts.at(0);
  const auto& mesh = std::get<MeshShape>(part.shape);
  std::cout << "mug: " << mesh.vertices.size() << " vertices, " << mesh.triangles.size() << " triangles; " << imported.unmapped.text() << "\n";
  const auto lowest = [&](const BodyPose& pose) {
    double z = 1e300;
    for (const Vec3& v : mesh.vertices) {
      const Vec3 rest = part.position + part.rotation * v.cwiseProduct(part.scale);
      z = std::min(z, (pose.A * rest + pose.p).z());
    }
    return z;
  };
  const Mat3 R = mug.rotation.toRotationMatrix();
  mug.position.z() += 0.01 - lowest({mug.position, R});
  auto model = std::make_shared<const Model>(compile(scene));
  auto sim = make_simulator(model);
  double min_distance = 1e300;
  for (int s = 0; s < 40; ++s) min_distance = std::min(min_distance, sim->step().min_distance);  // 0.2 s
  const double rest = lowest(sim->poses()[static_cast<std::size_t>(*scene.body_index("mug"))]);
  std::cout << "mug lowest point after 0.2 s: " << rest << " m, closest approach " << min_distance << " m\n";
  EXPECT_GT(min_distance, 0.0);
  EXPECT_GT(rest, 0.0);
  EXPECT_LT(rest, 2e-3);  // on the floor, within a few barrier widths d̂ = 1 mm
}

}  // namespace
}  // namespace affix
