// Saving a scene and loading it back gives the same scene; mesh paths stay valid wherever it is saved.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "affix/error.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;

// Exact, except where the file holds degrees (rad → deg → rad) or a quaternion (normalised again).
constexpr double kTol = 1e-12;

void expect_near(const Vec3& a, const Vec3& b) {
  EXPECT_LT((a - b).norm(), kTol) << a.transpose() << " vs " << b.transpose();
}
void expect_near(const Quat& a, const Quat& b) { EXPECT_LT((a.coeffs() - b.coeffs()).norm(), kTol); }
void expect_near(const std::optional<AngleRange>& a, const std::optional<AngleRange>& b) {
  ASSERT_EQ(a.has_value(), b.has_value());
  if (!a) return;
  EXPECT_NEAR(a->min, b->min, kTol);
  EXPECT_NEAR(a->max, b->max, kTol);
}

void expect_same_shape(const Shape& a, const Shape& b) {
  ASSERT_EQ(a.index(), b.index());
  std::visit(
      [&](const auto& sa) {
        using S = std::decay_t<decltype(sa)>;
        const S& sb = std::get<S>(b);
        if constexpr (std::is_same_v<S, BoxShape>) {
          EXPECT_EQ(sa.size, sb.size);
        }
        if constexpr (std::is_same_v<S, SphereShape>) {
          EXPECT_EQ(sa.radius, sb.radius);
        }
        if constexpr (std::is_same_v<S, CapsuleShape> || std::is_same_v<S, CylinderShape>) {
          EXPECT_EQ(sa.radius, sb.radius);
          EXPECT_EQ(sa.length, sb.length);
        }
        if constexpr (std::is_same_v<S, TorusShape>) {
          EXPECT_EQ(sa.major, sb.major);
          EXPECT_EQ(sa.minor, sb.minor);
        }
        if constexpr (std::is_same_v<S, CompoundShape>) {
          ASSERT_EQ(sa.parts.size(), sb.parts.size());
          for (std::size_t k = 0; k < sa.parts.size(); ++k) {
            expect_same_shape(sa.parts[k].shape, sb.parts[k].shape);
            expect_near(sa.parts[k].position, sb.parts[k].position);
            expect_near(sa.parts[k].rotation, sb.parts[k].rotation);
            expect_near(sa.parts[k].scale, sb.parts[k].scale);
          }
        } else if constexpr (std::is_same_v<S, MeshShape>) {
          EXPECT_EQ(sa.file, sb.file);
          EXPECT_EQ(sa.scale, sb.scale);
        } else {
          EXPECT_EQ(sa.resolution, sb.resolution);
        }
      },
      a);
}

void expect_same_body(const BodyDef& a, const BodyDef& b) {
  SCOPED_TRACE(a.name);
  EXPECT_EQ(a.name, b.name);
  expect_same_shape(a.shape, b.shape);
  EXPECT_EQ(a.mass, b.mass);
  if (!a.mass) {
    EXPECT_EQ(a.density, b.density);  // density is not written beside a mass
  }
  EXPECT_EQ(a.position, b.position);
  expect_near(a.rotation, b.rotation);
  EXPECT_EQ(a.velocity, b.velocity);
  EXPECT_EQ(a.angular_velocity, b.angular_velocity);
  EXPECT_EQ(a.friction, b.friction);
  EXPECT_EQ(a.stiffness, b.stiffness);
  EXPECT_EQ(a.fixed, b.fixed);
  ASSERT_EQ(a.kinematic.has_value(), b.kinematic.has_value());
  if (a.kinematic) {
    EXPECT_EQ(a.kinematic->velocity, b.kinematic->velocity);
    EXPECT_EQ(a.kinematic->angular_velocity, b.kinematic->angular_velocity);
    ASSERT_EQ(a.kinematic->keyframes.size(), b.kinematic->keyframes.size());
    for (std::size_t k = 0; k < a.kinematic->keyframes.size(); ++k) {
      EXPECT_EQ(a.kinematic->keyframes[k].time, b.kinematic->keyframes[k].time);
      EXPECT_EQ(a.kinematic->keyframes[k].position, b.kinematic->keyframes[k].position);
      expect_near(a.kinematic->keyframes[k].rotation, b.kinematic->keyframes[k].rotation);
    }
  }
  EXPECT_EQ(a.collision.group, b.collision.group);
  EXPECT_EQ(a.collision.mask, b.collision.mask);
}

void expect_same_joint(const JointDef& a, const JointDef& b) {
  SCOPED_TRACE(a.name);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.body1, b.body1);
  EXPECT_EQ(a.body2, b.body2);
  EXPECT_EQ(a.body1_index, b.body1_index);
  EXPECT_EQ(a.body2_index, b.body2_index);
  expect_near(a.anchor, b.anchor);
  expect_near(a.axis, b.axis);
  expect_near(a.axes[0], b.axes[0]);
  expect_near(a.axes[1], b.axes[1]);
  EXPECT_TRUE(a.frame.isApprox(b.frame, kTol));
  EXPECT_EQ(a.anchor1, b.anchor1);
  EXPECT_EQ(a.anchor2, b.anchor2);
  EXPECT_EQ(a.length, b.length);
  EXPECT_EQ(a.min_length, b.min_length);
  EXPECT_EQ(a.max_length, b.max_length);
  EXPECT_EQ(a.point, b.point);
  EXPECT_EQ(a.normal, b.normal);
  EXPECT_EQ(a.direction, b.direction);
  expect_near(a.angle_limits, b.angle_limits);
  EXPECT_EQ(a.limits, b.limits);
  expect_near(a.twist_limits, b.twist_limits);
  expect_near(a.swing1_limits, b.swing1_limits);
  expect_near(a.swing2_limits, b.swing2_limits);
  EXPECT_EQ(a.collide_connected, b.collide_connected);
  EXPECT_EQ(a.stiffness, b.stiffness);
  EXPECT_EQ(a.damping, b.damping);
  EXPECT_EQ(a.motor, b.motor);
  EXPECT_EQ(a.servo, b.servo);
}

void expect_same_scene(const Scene& a, const Scene& b) {
  const Settings &sa = a.settings, &sb = b.settings;
  EXPECT_EQ(sa.dt, sb.dt);
  EXPECT_EQ(sa.duration, sb.duration);
  EXPECT_EQ(sa.gravity, sb.gravity);
  EXPECT_EQ(sa.solver, sb.solver);
  EXPECT_EQ(sa.integrator, sb.integrator);
  EXPECT_EQ(sa.output_fps, sb.output_fps);
  EXPECT_EQ(sa.solver_settings, sb.solver_settings);  // raw blocks: the solvers read them
  ASSERT_EQ(a.ground.has_value(), b.ground.has_value());
  if (a.ground) {
    EXPECT_EQ(a.ground->height, b.ground->height);
    EXPECT_EQ(a.ground->friction, b.ground->friction);
  }
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size(); ++i) expect_same_body(a.bodies[i], b.bodies[i]);
  ASSERT_EQ(a.joints.size(), b.joints.size());
  for (std::size_t i = 0; i < a.joints.size(); ++i) expect_same_joint(a.joints[i], b.joints[i]);
  ASSERT_EQ(a.forces.size(), b.forces.size());
  for (std::size_t i = 0; i < a.forces.size(); ++i) {
    const ForceDef &fa = a.forces[i], &fb = b.forces[i];
    EXPECT_EQ(fa.body, fb.body);
    EXPECT_EQ(fa.body_index, fb.body_index);
    EXPECT_EQ(fa.force, fb.force);
    EXPECT_EQ(fa.torque, fb.torque);
    EXPECT_EQ(fa.point, fb.point);
    EXPECT_EQ(fa.start, fb.start);
    EXPECT_EQ(fa.end, fb.end);
  }
}

TEST(SceneWriter, RoundTripOfEveryField) {
  TempDir dir;
  const Scene original = load_scene(dir.write("in/full.json", test::kFullScene));
  const auto saved = dir.path() / "out" / "copy.json";
  std::filesystem::create_directories(saved.parent_path());
  save_scene(original, saved);
  const Scene loaded = load_scene(saved);
  EXPECT_EQ(loaded.name, "copy");
  expect_same_scene(original, loaded);
}

TEST(SceneWriter, RoundTripOfMotorsAndServos) {
  TempDir dir;
  const Scene original = load_scene(dir.write("in/drives.json", R"json({
    "settings": { "solver": "compliant" },
    "bodies": [ { "name": "a", "shape": { "box": [1, 1, 1] } },
                { "name": "b", "shape": { "box": [1, 1, 1] }, "position": [2, 0, 0] },
                { "name": "c", "shape": { "box": [1, 1, 1] }, "position": [4, 0, 0] } ],
    "joints": [
      { "type": "hinge", "body1": "a", "body2": "world", "anchor": [0, 0, 0], "axis": [0, 0, 1],
        "motor": { "velocity": -2.5, "max_force": 40 } },
      { "type": "prismatic", "body1": "b", "body2": "a", "anchor": [1, 0, 0], "axis": [1, 0, 0],
        "servo": { "position": 0.25, "stiffness": 1e4, "damping": 30, "max_force": 500 } },
      { "type": "slider", "body1": "c", "body2": "world", "point": [4, 0, 0], "direction": [0, 1, 0],
        "motor": { "velocity": 1 } },
      { "type": "hinge", "body1": "c", "body2": "b", "anchor": [3, 0, 0], "axis": [0, 1, 0],
        "servo": { "stiffness": 7 } } ] })json"));
  ASSERT_TRUE(original.joints[0].motor && original.joints[1].servo && original.joints[2].motor &&
              original.joints[3].servo);
  EXPECT_EQ(original.joints[0].motor->max_force, 40.0);
  EXPECT_TRUE(std::isinf(original.joints[2].motor->max_force)) << "absent: unbounded";
  EXPECT_EQ(original.joints[3].servo->position, 0.0);
  EXPECT_EQ(original.joints[3].servo->damping, 0.0);
  const auto saved = dir.path() / "out" / "drives.json";
  std::filesystem::create_directories(saved.parent_path());
  save_scene(original, saved);
  expect_same_scene(original, load_scene(saved));
}

TEST(SceneWriter, RoundTripOfAnUnusualSceneBuiltInCode) {
  Scene scene;
  scene.settings.solver_settings["ipc"]["kappa"] = 3.5e4;
  scene.settings.dt = 1.0 / 3.0;  // not a short decimal: needs every digit
  BodyDef body;
  body.name = "odd";
  body.shape = TorusShape{2.0 / 3.0, 0.1, 7};
  body.rotation = Quat(Eigen::AngleAxisd(1.0, Vec3(1, 2, 3).normalized()));
  body.position = Vec3(0.1, 1e-17, -1e300);
  scene.bodies.push_back(body);

  TempDir dir;
  const auto file = dir.path() / "odd.json";
  save_scene(scene, file);
  const Scene loaded = load_scene(file);
  expect_same_scene(scene, loaded);
  EXPECT_FALSE(loaded.ground.has_value());
}

// save_scene writes the document one body and one joint at a time; the bytes must be dump(2)'s.
TEST(SceneWriter, SceneTextIsTheWholeDocumentsDumpByteForByte) {
  TempDir dir;
  Scene full = load_scene(dir.write("in/full.json", test::kFullScene));
  full.settings.solver_settings["ipc"]["note"] = "a\nb \"c\"";  // escaped line breaks stay escaped
  const auto base = dir.path() / "in";
  EXPECT_EQ(scene_text(full, base), scene_to_json(full, base).dump(2) + "\n");

  Scene empty_arrays;  // no joints, no forces: "[]" as dump writes them
  empty_arrays.bodies.push_back(full.bodies.front());
  EXPECT_EQ(scene_text(empty_arrays, base), scene_to_json(empty_arrays, base).dump(2) + "\n");
}

TEST(SceneWriter, MeshPathIsWrittenRelativeToTheOutputFile) {
  TempDir dir;
  const Scene original = load_scene(dir.write("in/full.json", test::kFullScene));
  const auto saved = dir.path() / "out" / "copy.json";
  std::filesystem::create_directories(saved.parent_path());
  save_scene(original, saved);
  const nlohmann::json written = nlohmann::json::parse(std::ifstream(saved));
  EXPECT_EQ(written["bodies"][5]["shape"]["mesh"]["file"], "../in/meshes/rock.obj");
  EXPECT_EQ(std::get<MeshShape>(load_scene(saved).bodies[5].shape).file,
            dir.path() / "in" / "meshes" / "rock.obj");
}

TEST(SceneWriter, SceneToJsonIsRelativeToTheSceneFileByDefault) {
  TempDir dir;
  const Scene scene = load_scene(dir.write("full.json", test::kFullScene));
  const nlohmann::json json = scene_to_json(scene);
  EXPECT_EQ(json["version"], 1);
  EXPECT_EQ(json["bodies"][5]["shape"]["mesh"]["file"], "meshes/rock.obj");
  EXPECT_FALSE(json["bodies"][1].contains("density"));  // a body with a mass
  EXPECT_FALSE(json["forces"][1].contains("end"));      // forever
}

// A solver's block is the solver's to fill in: written as the file had it, and not made up when absent.
TEST(SceneWriter, SolverSettingsAreWrittenAsTheFileHadThem) {
  TempDir dir;
  const nlohmann::json full = scene_to_json(load_scene(dir.write("full.json", test::kFullScene)));
  EXPECT_EQ(full["settings"]["ipc"], nlohmann::json::parse(R"({ "dhat": 2e-3, "epsv": 5e-4, "kappa": 1e5,
      "tolerance": 1e-5, "max_iterations": 40, "friction_iterations": 3 })"));
  Scene scene;
  scene.bodies.emplace_back().name = "a";
  EXPECT_FALSE(scene_to_json(scene)["settings"].contains("ipc"));
}

TEST(SceneWriter, UnwritablePathIsAnInputError) {
  TempDir dir;
  Scene scene;
  scene.bodies.emplace_back().name = "a";
  EXPECT_THROW(save_scene(scene, dir.path() / "no" / "such" / "dir" / "s.json"), InputError);
}

}  // namespace
}  // namespace affix
