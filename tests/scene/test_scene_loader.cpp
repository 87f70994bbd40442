// Scene files that are valid: every field lands where DESIGN §3 says, in the units it says, and absent
// fields take the defaults of the scene structs.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "affix/scene/scene_loader.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;
constexpr double kPi = std::numbers::pi;
constexpr double kTol = 1e-12;

const char* const kMinimalScene = R"({ "bodies": [ { "name": "a", "shape": { "box": [1, 1, 1] } } ] })";

Scene load_text(const TempDir& dir, const std::string& text, const std::string& name = "scene.json") {
  return load_scene(dir.write(name, text));
}

bool near(const Quat& a, const Quat& b) { return a.coeffs().isApprox(b.coeffs(), kTol); }

TEST(SceneLoader, NameIsTheFileStemAndFileThePathGiven) {
  TempDir dir;
  const auto file = dir.write("falling_box.json", kMinimalScene);
  const Scene scene = load_scene(file);
  EXPECT_EQ(scene.name, "falling_box");
  EXPECT_EQ(scene.file, file);
}

TEST(SceneLoader, FullSceneSettingsAndGround) {
  TempDir dir;
  const Scene s = load_text(dir, test::kFullScene);
  EXPECT_EQ(s.settings.dt, 0.005);
  EXPECT_EQ(s.settings.duration, 2.5);
  EXPECT_EQ(s.settings.gravity, Vec3(0, 0, -3.5));
  EXPECT_EQ(s.settings.solver, "ipc");
  EXPECT_EQ(s.settings.integrator, Integrator::bdf2);
  EXPECT_EQ(s.settings.output_fps, 50.0);
  ASSERT_EQ(s.settings.solver_settings.size(), 1u);
  EXPECT_EQ(s.settings.solver_settings.at("ipc"), nlohmann::json::parse(R"({ "dhat": 2e-3, "epsv": 5e-4,
      "kappa": 1e5, "tolerance": 1e-5, "max_iterations": 40, "friction_iterations": 3 })"));
  ASSERT_TRUE(s.ground.has_value());
  EXPECT_EQ(s.ground->height, -0.5);
  EXPECT_EQ(s.ground->friction, 0.25);
}

TEST(SceneLoader, FullSceneBodies) {
  TempDir dir;
  const Scene s = load_text(dir, test::kFullScene);
  ASSERT_EQ(s.bodies.size(), 7u);

  const BodyDef& box = s.bodies[0];
  EXPECT_EQ(box.name, "box");
  EXPECT_EQ(std::get<BoxShape>(box.shape).size, Vec3(1, 2, 3));
  EXPECT_EQ(std::get<BoxShape>(box.shape).resolution, 2);
  EXPECT_EQ(box.density, 500.0);
  EXPECT_FALSE(box.mass.has_value());
  EXPECT_EQ(box.position, Vec3(0, 0, 1));
  EXPECT_TRUE(near(box.rotation, Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()))));
  EXPECT_EQ(box.velocity, Vec3(1, 2, 3));
  EXPECT_EQ(box.angular_velocity, Vec3(0.1, 0.2, 0.3));
  EXPECT_EQ(box.friction, 0.7);
  EXPECT_EQ(box.stiffness, 1e8);
  EXPECT_EQ(box.collision.group, 2);
  EXPECT_EQ(box.collision.mask, 5);

  const BodyDef& ball = s.bodies[1];
  EXPECT_EQ(std::get<SphereShape>(ball.shape).radius, 0.25);
  EXPECT_EQ(std::get<SphereShape>(ball.shape).resolution, 12);
  EXPECT_EQ(ball.mass, 2.5);
  EXPECT_TRUE(ball.fixed);
  EXPECT_TRUE(near(ball.rotation, Quat::Identity()));  // [2, 0, 0, 0] normalised

  const BodyDef& pill = s.bodies[2];
  EXPECT_EQ(std::get<CapsuleShape>(pill.shape).radius, 0.1);
  EXPECT_EQ(std::get<CapsuleShape>(pill.shape).length, 0.4);
  EXPECT_EQ(std::get<CapsuleShape>(pill.shape).resolution, 8);
  ASSERT_TRUE(pill.kinematic.has_value());
  EXPECT_EQ(pill.kinematic->velocity, Vec3(0, 1, 0));
  EXPECT_EQ(pill.kinematic->angular_velocity, Vec3(0, 0, 1));
  EXPECT_TRUE(pill.kinematic->keyframes.empty());

  const BodyDef& can = s.bodies[3];
  EXPECT_EQ(std::get<CylinderShape>(can.shape).radius, 0.2);
  EXPECT_EQ(std::get<CylinderShape>(can.shape).length, 0.5);
  EXPECT_EQ(std::get<CylinderShape>(can.shape).resolution, 16);
  ASSERT_TRUE(can.kinematic.has_value());
  ASSERT_EQ(can.kinematic->keyframes.size(), 2u);
  EXPECT_EQ(can.kinematic->keyframes[0].time, 0.0);
  EXPECT_TRUE(near(can.kinematic->keyframes[0].rotation, Quat::Identity()));
  EXPECT_EQ(can.kinematic->keyframes[1].time, 1.5);
  EXPECT_EQ(can.kinematic->keyframes[1].position, Vec3(1, 0, 0));
  EXPECT_TRUE(near(can.kinematic->keyframes[1].rotation, Quat(0, 0, 0, 1)));

  const BodyDef& ring = s.bodies[4];
  EXPECT_EQ(std::get<TorusShape>(ring.shape).major, 1.0);
  EXPECT_EQ(std::get<TorusShape>(ring.shape).minor, 0.2);
  EXPECT_EQ(std::get<TorusShape>(ring.shape).resolution, 32);
}

TEST(SceneLoader, MeshFileIsResolvedAgainstTheSceneDirectory) {
  TempDir dir;
  const Scene s = load_text(dir, test::kFullScene, "scenes/full.json");
  const auto& rock = std::get<MeshShape>(s.bodies[5].shape);
  EXPECT_EQ(rock.file, dir.path() / "scenes" / "meshes" / "rock.obj");
  EXPECT_EQ(rock.scale, Vec3(1, 2, 3));
  EXPECT_EQ(std::get<MeshShape>(s.bodies[6].shape).scale, Vec3::Constant(0.5));
}

TEST(SceneLoader, FullSceneJoints) {
  TempDir dir;
  const Scene s = load_text(dir, test::kFullScene);
  ASSERT_EQ(s.joints.size(), 9u);

  const JointDef& h = s.joints[0];
  EXPECT_EQ(h.name, "h");
  EXPECT_EQ(h.type, JointType::hinge);
  EXPECT_EQ(h.body1_index, 0);
  EXPECT_EQ(h.body2, "world");
  EXPECT_EQ(h.body2_index, -1);
  EXPECT_EQ(h.anchor, Vec3(0, 0, 1.5));
  EXPECT_EQ(h.axis, Vec3::UnitX());  // normalised
  ASSERT_TRUE(h.angle_limits.has_value());
  EXPECT_NEAR(h.angle_limits->min, -kPi / 4, kTol);  // degrees → radians
  EXPECT_NEAR(h.angle_limits->max, kPi / 2, kTol);
  EXPECT_TRUE(h.collide_connected);
  EXPECT_EQ(h.stiffness, 1e6);
  EXPECT_EQ(h.damping, 0.5);

  EXPECT_EQ(s.joints[1].name, "joint1");  // default name: its index
  EXPECT_EQ(s.joints[1].type, JointType::ball);
  EXPECT_EQ(s.joints[1].body2_index, 1);
  EXPECT_FALSE(s.joints[1].collide_connected);
  EXPECT_FALSE(s.joints[1].stiffness.has_value());

  EXPECT_EQ(s.joints[2].type, JointType::prismatic);
  EXPECT_EQ(s.joints[2].axis, Vec3::UnitY());
  EXPECT_EQ(s.joints[2].limits, (std::array<double, 2>{-0.5, 0.5}));

  EXPECT_EQ(s.joints[3].type, JointType::universal);
  EXPECT_EQ(s.joints[3].axes[0], Vec3::UnitX());
  EXPECT_EQ(s.joints[3].axes[1], Vec3::UnitZ());

  EXPECT_EQ(s.joints[4].type, JointType::fixed);
  EXPECT_EQ(s.joints[4].anchor, Vec3(2, 0, 0));

  const JointDef& cone = s.joints[5];
  EXPECT_EQ(cone.type, JointType::cone_twist);
  EXPECT_EQ(cone.frame.col(0), Vec3::UnitZ());
  EXPECT_EQ(cone.frame.col(1), Vec3::UnitX());
  EXPECT_EQ(cone.frame.col(2), Vec3::UnitY());
  ASSERT_TRUE(cone.twist_limits && cone.swing1_limits);
  EXPECT_NEAR(cone.twist_limits->max, kPi / 6, kTol);
  EXPECT_NEAR(cone.swing1_limits->min, -kPi / 3, kTol);
  EXPECT_FALSE(cone.swing2_limits.has_value());

  const JointDef& dist = s.joints[6];
  EXPECT_EQ(dist.anchor2, Vec3(1, 0, 0));
  EXPECT_EQ(dist.length, 1.25);
  EXPECT_EQ(dist.min_length, 0.5);
  EXPECT_EQ(dist.max_length, 2.0);

  EXPECT_EQ(s.joints[7].direction, Vec3::UnitZ());
  EXPECT_FALSE(s.joints[7].normal.has_value());
  EXPECT_EQ(s.joints[7].limits, (std::array<double, 2>{0, 1}));
  EXPECT_EQ(s.joints[8].normal, Vec3::UnitY());
  EXPECT_EQ(s.joints[8].point, Vec3(1, 0, 0));
}

TEST(SceneLoader, FullSceneForces) {
  TempDir dir;
  const Scene s = load_text(dir, test::kFullScene);
  ASSERT_EQ(s.forces.size(), 2u);
  EXPECT_EQ(s.forces[0].body_index, 0);
  EXPECT_EQ(s.forces[0].force, Vec3(0, 10, 0));
  EXPECT_EQ(s.forces[0].torque, Vec3(1, 0, 0));
  EXPECT_EQ(s.forces[0].point, Vec3(0, 0, 1));
  EXPECT_EQ(s.forces[0].start, 0.25);
  EXPECT_EQ(s.forces[0].end, 0.5);
  EXPECT_EQ(s.forces[1].body_index, 4);
  EXPECT_EQ(s.forces[1].force, Vec3::Zero());
  EXPECT_FALSE(s.forces[1].point.has_value());
  EXPECT_EQ(s.forces[1].start, 0.0);
  EXPECT_TRUE(std::isinf(s.forces[1].end));
}

TEST(SceneLoader, AbsentFieldsTakeTheStructDefaults) {
  TempDir dir;
  const Scene s = load_text(dir, kMinimalScene);
  const Settings settings;
  EXPECT_EQ(s.settings.dt, settings.dt);
  EXPECT_EQ(s.settings.duration, settings.duration);
  EXPECT_EQ(s.settings.gravity, settings.gravity);
  EXPECT_EQ(s.settings.solver, settings.solver);
  EXPECT_EQ(s.settings.integrator, settings.integrator);
  EXPECT_EQ(s.settings.output_fps, settings.output_fps);
  EXPECT_TRUE(s.settings.solver_settings.empty());
  EXPECT_FALSE(s.ground.has_value());
  EXPECT_TRUE(s.joints.empty());
  EXPECT_TRUE(s.forces.empty());

  const BodyDef body;
  const BodyDef& b = s.bodies.at(0);
  EXPECT_EQ(std::get<BoxShape>(b.shape).resolution, BoxShape{}.resolution);
  EXPECT_EQ(b.density, body.density);
  EXPECT_EQ(b.mass, body.mass);
  EXPECT_EQ(b.position, body.position);
  EXPECT_TRUE(near(b.rotation, body.rotation));
  EXPECT_EQ(b.velocity, body.velocity);
  EXPECT_EQ(b.angular_velocity, body.angular_velocity);
  EXPECT_EQ(b.friction, body.friction);
  EXPECT_EQ(b.stiffness, body.stiffness);
  EXPECT_EQ(b.fixed, body.fixed);
  EXPECT_FALSE(b.kinematic.has_value());
  EXPECT_EQ(b.collision.group, body.collision.group);
  EXPECT_EQ(b.collision.mask, body.collision.mask);
}

TEST(SceneLoader, PrimitiveResolutionsDefaultToTheStructs) {
  TempDir dir;
  const Scene s = load_text(dir, R"({ "bodies": [
    { "name": "s", "shape": { "sphere": 1 } },
    { "name": "c", "shape": { "capsule": { "radius": 1, "length": 0 } } },
    { "name": "y", "shape": { "cylinder": { "radius": 1, "length": 1 } } },
    { "name": "t", "shape": { "torus": { "major": 1, "minor": 0.5 } } },
    { "name": "m", "shape": { "mesh": { "file": "m.obj" } } } ] })");
  EXPECT_EQ(std::get<SphereShape>(s.bodies[0].shape).resolution, SphereShape{}.resolution);
  EXPECT_EQ(std::get<CapsuleShape>(s.bodies[1].shape).resolution, CapsuleShape{}.resolution);
  EXPECT_EQ(std::get<CylinderShape>(s.bodies[2].shape).resolution, CylinderShape{}.resolution);
  EXPECT_EQ(std::get<TorusShape>(s.bodies[3].shape).resolution, TorusShape{}.resolution);
  EXPECT_EQ(std::get<MeshShape>(s.bodies[4].shape).scale, MeshShape{}.scale);
}

TEST(SceneLoader, EmptyGroundObjectIsAGroundWithDefaults) {
  TempDir dir;
  const Scene s =
      load_text(dir, R"({ "ground": {}, "bodies": [ { "name": "a", "shape": { "sphere": 1 } } ] })");
  ASSERT_TRUE(s.ground.has_value());
  EXPECT_EQ(s.ground->height, Ground{}.height);
  EXPECT_EQ(s.ground->friction, Ground{}.friction);
}

TEST(SceneLoader, QuaternionAndAxisAngleFormsAgree) {
  TempDir dir;
  const double h = 0.5 * 40.0 * kPi / 180.0;  // half of 40°
  const Vec3 axis = Vec3(1, 2, 2) / 3.0;
  const double w = 3 * std::cos(h), v = 3 * std::sin(h);  // deliberately not unit length
  const std::string quat = nlohmann::json::array({w, v * axis.x(), v * axis.y(), v * axis.z()}).dump();
  const Scene s = load_text(dir, R"({ "bodies": [
    { "name": "q", "shape": { "sphere": 1 }, "rotation": )" +
                                     quat + R"( },
    { "name": "a", "shape": { "sphere": 1 }, "rotation": { "axis": [1, 2, 2], "angle_deg": 40 } } ] })");
  EXPECT_NEAR(s.bodies[0].rotation.norm(), 1.0, kTol);
  EXPECT_NEAR(s.bodies[1].rotation.norm(), 1.0, kTol);
  EXPECT_TRUE(s.bodies[0].rotation.isApprox(s.bodies[1].rotation, kTol));
  EXPECT_NEAR(s.bodies[1].rotation.angularDistance(Quat::Identity()), 40.0 * kPi / 180.0, kTol);
}

TEST(SceneLoader, IntegersAreAcceptedWhereNumbersAreExpected) {
  TempDir dir;
  const Scene s = load_text(dir, R"({ "settings": { "dt": 1, "duration": 2, "output_fps": 1 },
    "bodies": [ { "name": "a", "shape": { "sphere": 1 }, "mass": 3 } ] })");
  EXPECT_EQ(s.settings.dt, 1.0);
  EXPECT_EQ(s.bodies[0].mass, 3.0);
}

TEST(SceneLoader, OutputFpsMayEqualOneOverDt) {
  TempDir dir;
  const Scene s = load_text(dir, R"({ "settings": { "dt": 0.003, "output_fps": 333.3333333333333 },
    "bodies": [ { "name": "a", "shape": { "sphere": 1 } } ] })");
  EXPECT_NEAR(*s.settings.output_fps, 1.0 / 0.003, 1e-9);
}

// A solver's block is the solver's to read and validate (tests/solvers/test_ipc_settings.cpp): the
// loader keeps it as written, even fields and values the solver will refuse.
TEST(SceneLoader, SolverSettingsPassThroughRaw) {
  TempDir dir;
  const Scene s = load_text(dir, R"({ "settings": { "ipc": { "kappa": "auto", "dhat": -1, "beta": [2] } },
    "bodies": [ { "name": "a", "shape": { "sphere": 1 } } ] })");
  ASSERT_TRUE(s.settings.solver_settings.contains("ipc"));
  EXPECT_EQ(s.settings.solver_settings.at("ipc"),
            nlohmann::json::parse(R"({ "kappa": "auto", "dhat": -1, "beta": [2] })"));
}

TEST(SceneLoader, BodyIndexFindsBodiesAndTheWorld) {
  TempDir dir;
  const Scene s = load_text(dir, test::kFullScene);
  EXPECT_EQ(s.body_index("ring"), 4);
  EXPECT_EQ(s.body_index("world"), -1);
  EXPECT_FALSE(s.body_index("nobody").has_value());
}

TEST(SceneLoader, NamesOfEnumsAreTheFileSpellings) {
  EXPECT_STREQ(to_string(JointType::cone_twist), "cone_twist");
  EXPECT_STREQ(to_string(JointType::slider), "slider");
  EXPECT_STREQ(to_string(Integrator::implicit_euler), "implicit_euler");
  EXPECT_STREQ(to_string(Integrator::bdf2), "bdf2");
}

}  // namespace
}  // namespace affix
