// Scene files that are not valid: each is rejected with one line that names the file, the exact JSON
// path in dot/bracket form and what was expected (DESIGN §4).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "affix/error.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/shape_reader.hpp"
#include "affix/scene/time_steps.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;

/// The message load_scene throws for `text` (a failure if it throws nothing), checked to be one line
/// that names the file.
std::string load_error(const std::string& text) {
  TempDir dir;
  const auto file = dir.write("bad_scene.json", text);
  try {
    load_scene(file);
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_NE(message.find(file.string() + ": "), std::string::npos) << message;
    return message;
  }
  ADD_FAILURE() << "no InputError for:\n" << text;
  return {};
}

/// The error for `text` is at exactly `path` and mentions `word`.
void expect_error(const std::string& text, const std::string& path, const std::string& word) {
  const std::string message = load_error(text);
  EXPECT_NE(message.find(": " + path + ": "), std::string::npos) << "path " << path << " not in: " << message;
  EXPECT_NE(message.find(word), std::string::npos) << "'" << word << "' not in: " << message;
}

/// A scene with two bodies "a" and "b" and `extra` top-level members (a leading comma included).
std::string scene_with(const std::string& extra) {
  return R"({ "bodies": [ { "name": "a", "shape": { "box": [1, 1, 1] } },
                          { "name": "b", "shape": { "sphere": 1 } } ])" +
         extra + "}";
}

/// A scene whose only body is `body`.
std::string body_scene(const std::string& body) { return R"({ "bodies": [ )" + body + " ] }"; }

/// A scene with bodies a, b and the one joint `joint`.
std::string joint_scene(const std::string& joint) { return scene_with(R"(, "joints": [ )" + joint + " ]"); }

// ---------------------------------------------------------------- reading the file

TEST(SceneErrors, MissingFile) {
  TempDir dir;
  const auto file = dir.path() / "absent.json";
  try {
    load_scene(file);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
    EXPECT_NE(message.find("cannot read file"), std::string::npos) << message;
  }
}

TEST(SceneErrors, DirectoryIsNotAFile) {
  TempDir dir;
  try {
    load_scene(dir.path());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read file (is a directory)"), std::string::npos) << e.what();
  }
}

/// The message load_scene throws for `file`, which is not a scene that can be read.
std::string unreadable_error(const std::filesystem::path& file) {
  try {
    load_scene(file);
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind(file.string() + ": cannot read file (", 0), 0u) << message;
    return message;
  }
  ADD_FAILURE() << "no InputError for " << file;
  return {};
}

TEST(SceneErrors, DeviceIsNotARegularFile) {
  // /dev/zero never ends: it used to be read until memory ran out.
  EXPECT_NE(unreadable_error("/dev/zero").find("not a regular file"), std::string::npos);
  EXPECT_NE(unreadable_error("/dev/null").find("not a regular file"), std::string::npos);
}

TEST(SceneErrors, FifoIsRefusedWithoutBlocking) {
  TempDir dir;
  const auto fifo = dir.path() / "scene.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(unreadable_error(fifo).find("not a regular file"), std::string::npos);
}

TEST(SceneErrors, LinkToARegularFileIsRead) {
  TempDir dir;
  const auto file = dir.write("real.json", R"({ "bodies": [ { "name": "a", "shape": { "sphere": 1 } } ] })");
  const auto link = dir.path() / "link.json";
  std::filesystem::create_symlink(file, link);
  EXPECT_NO_THROW(load_scene(link));
}

TEST(SceneErrors, FileAboveTheSizeLimitIsRefusedBeforeReading) {
  TempDir dir;
  const auto file = dir.path() / "huge.json";
  std::ofstream(file) << "{";
  std::filesystem::resize_file(file, kMaxSceneFileBytes + 1);  // sparse: no disk space used
  const std::string message = unreadable_error(file);
  EXPECT_NE(message.find("expected a scene file of at most 1 GiB, got 1073741825 bytes"), std::string::npos)
      << message;
}

TEST(SceneErrors, EmptyFileIsBadJson) {
  TempDir dir;
  const auto file = dir.write("empty.json", "");
  EXPECT_THROW(load_scene(file), InputError);
}

TEST(SceneErrors, BadJsonGivesLineAndColumn) {
  // The stray second comma is on line 3, column 19.
  const std::string message = load_error("{\n  \"bodies\": [\n    { \"name\": \"a\",, }\n  ]\n}");
  EXPECT_NE(message.find("invalid JSON at line 3, column 19: "), std::string::npos) << message;
  EXPECT_NE(message.find("syntax error"), std::string::npos) << message;
}

TEST(SceneErrors, TruncatedJson) {
  const std::string message = load_error("{ \"bodies\": [");
  EXPECT_NE(message.find("invalid JSON at line 1"), std::string::npos) << message;
}

// ---------------------------------------------------------------- generic field errors

TEST(SceneErrors, UnknownFieldListsTheExpectedOnes) {
  const std::string message =
      load_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "colour": 1 })"));
  EXPECT_NE(message.find(": bodies[0].colour: unknown field (expected one of: name, shape,"),
            std::string::npos)
      << message;
  expect_error(scene_with(R"(, "setings": {})"), "setings", "unknown field");
  expect_error(scene_with(R"(, "settings": { "ipcc": {} })"), "settings.ipcc", "unknown field");
}

TEST(SceneErrors, FieldThatDoesNotBelongToTheJointType) {
  expect_error(joint_scene(R"({ "type": "ball", "body1": "a", "body2": "b", "anchor": [0, 0, 0],
                                "axis": [1, 0, 0] })"),
               "joints[0].axis", "unknown field for a ball joint");
}

TEST(SceneErrors, WrongType) {
  expect_error(scene_with(R"(, "settings": { "dt": "fast" })"), "settings.dt",
               "expected a number, got \"fast\"");
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "density": true })"),
               "bodies[0].density", "expected a number, got true");
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "position": [1, 2] })"),
               "bodies[0].position", "array of 3 numbers");
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "fixed": 1 })"), "bodies[0].fixed",
               "true or false");
  expect_error(body_scene(R"({ "name": 7, "shape": { "sphere": 1 } })"), "bodies[0].name", "a string");
  expect_error(R"({ "bodies": { "name": "a" } })", "bodies", "an array");
  expect_error("[1, 2]", "(top level)", "an object");
}

TEST(SceneErrors, NumberTooLargeForADouble) {
  const std::string message =
      load_error("{ \"bodies\": [\n  { \"name\": \"a\", \"shape\": { \"sphere\": 1e999 } } ] }");
  EXPECT_NE(message.find("invalid JSON at line 2, column 39: "), std::string::npos) << message;
  EXPECT_NE(message.find("overflow"), std::string::npos) << message;
}

TEST(SceneErrors, NonFiniteNumberInAParsedDocument) {
  // JSON text cannot hold inf, but a document built in code can.
  nlohmann::json root = nlohmann::json::parse(body_scene(R"({ "name": "a", "shape": { "sphere": 1 } })"));
  root["bodies"][0]["shape"]["sphere"] = std::numeric_limits<double>::infinity();
  try {
    parse_scene(root, "built.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "built.json: bodies[0].shape.sphere: expected a finite number, got inf");
  }
}

TEST(SceneErrors, MissingRequiredField) {
  expect_error(body_scene(R"({ "name": "a" })"), "bodies[0].shape", "required");
  expect_error(body_scene(R"({ "shape": { "sphere": 1 } })"), "bodies[0].name", "required");
  expect_error(R"({ "settings": {} })", "bodies", "required");
  expect_error(body_scene(R"({ "name": "a", "shape": { "capsule": { "radius": 1 } } })"),
               "bodies[0].shape.capsule.length", "required");
}

// ---------------------------------------------------------------- top level and settings

TEST(SceneErrors, EmptyBodies) { expect_error(R"({ "bodies": [] })", "bodies", "non-empty"); }

TEST(SceneErrors, WrongVersion) { expect_error(scene_with(R"(, "version": 2)"), "version", "version 1"); }

TEST(SceneErrors, BadOutputFps) {
  expect_error(scene_with(R"(, "settings": { "dt": 0.01, "output_fps": 200 })"), "settings.output_fps",
               "1/dt");
  expect_error(scene_with(R"(, "settings": { "output_fps": 0 })"), "settings.output_fps", "positive");
}

TEST(SceneErrors, NumbersInMessagesAreShort) {
  // Printed shortest round-trip, so that even extreme values keep the line short.
  const std::string message = load_error(scene_with(
      R"(, "settings": { "dt": 1e-300, "duration": 1e-299, "output_fps": 1e301 })"));
  EXPECT_NE(message.find("1/dt = 9.999999999999999e+299, got 1e+301"), std::string::npos) << message;
  EXPECT_LT(message.size(), 200u);
  expect_error(scene_with(R"(, "forces": [ { "body": "a", "force": [1, 0, 0], "start": 1e300, "end": 1 } ])"),
               "forces[0].end", "a time after start (1e+300)");
}

TEST(SceneErrors, BadSettingsValues) {
  expect_error(scene_with(R"(, "settings": { "dt": 0 })"), "settings.dt", "positive");
  expect_error(scene_with(R"(, "settings": { "solver": "magic" })"), "settings.solver", "ipc");
  expect_error(scene_with(R"(, "settings": { "integrator": "rk4" })"), "settings.integrator", "bdf2");
  // A solver's block is read by the solver (tests/solvers/test_ipc_settings.cpp); the loader only
  // requires an object.
  expect_error(scene_with(R"(, "settings": { "ipc": 3 })"), "settings.ipc", "expected an object, got 3");
  expect_error(scene_with(R"(, "settings": { "ipc": [] })"), "settings.ipc", "expected an object, got []");
  expect_error(scene_with(R"(, "ground": { "friction": -1 })"), "ground.friction", "non-negative");
}

TEST(SceneErrors, MoreStepsThanTheLimit) {
  // 3·10⁹ steps showed as −2147483648 in `affix info`; the field named is duration when given.
  expect_error(scene_with(R"(, "settings": { "dt": 1e-3, "duration": 3e6 })"), "settings.duration",
               "expected at most 1000000000 steps");
  expect_error(scene_with(R"(, "settings": { "dt": 1e-12 })"), "settings.dt", "at most 1000000000 steps");
  expect_error(scene_with(R"(, "settings": { "dt": 5e-324, "duration": 1e308 })"), "settings.duration",
               "steps");
  // Exactly the limit is fine: 10⁷ s at dt = 0.01 is 10⁹ steps ...
  TempDir dir;
  const Scene at_limit = load_scene(dir.write("s.json", scene_with(R"(, "settings": { "dt": 0.01, "duration": 1e7 })")));
  EXPECT_EQ(step_count(at_limit.settings.duration, at_limit.settings.dt), kMaxSteps);
  // ... but writing every one of them and the initial state is one frame too many.
  expect_error(scene_with(R"(, "settings": { "dt": 0.01, "duration": 1e7, "output_fps": 100 })"),
               "settings.output_fps", "at most 1000000000 output frames");
  EXPECT_NO_THROW(
      load_scene(dir.write("t.json", scene_with(R"(, "settings": { "dt": 0.01, "duration": 1e7, "output_fps": 50 })"))));
}

// ---------------------------------------------------------------- bodies

TEST(SceneErrors, NonPositiveMass) {
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "mass": 0 })"), "bodies[0].mass",
               "positive");
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "density": -5 })"), "bodies[0].density",
               "positive");
}

TEST(SceneErrors, DensityAndMassTogether) {
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "density": 5, "mass": 1 })"),
               "bodies[0].mass", "density");
}

TEST(SceneErrors, ZeroRotationAxis) {
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 },
                                "rotation": { "axis": [0, 0, 0], "angle_deg": 10 } })"),
               "bodies[0].rotation.axis", "non-zero");
}

TEST(SceneErrors, ZeroQuaternion) {
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "rotation": [0, 0, 0, 0] })"),
               "bodies[0].rotation", "non-zero quaternion");
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "rotation": [1, 0, 0] })"),
               "bodies[0].rotation", "quaternion");
}

TEST(SceneErrors, FixedAndKinematic) {
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "fixed": true,
                                "kinematic": { "velocity": [1, 0, 0] } })"),
               "bodies[0].kinematic", "fixed");
}

TEST(SceneErrors, BadKinematic) {
  const std::string both = R"({ "name": "a", "shape": { "sphere": 1 },
      "kinematic": { "velocity": [1, 0, 0], "keyframes": [ { "time": 0, "position": [0, 0, 0] } ] } })";
  expect_error(body_scene(both), "bodies[0].kinematic.keyframes", "velocity");
  const std::string repeated = R"({ "name": "a", "shape": { "sphere": 1 }, "kinematic": { "keyframes": [
      { "time": 0.5, "position": [0, 0, 0] }, { "time": 0.5, "position": [1, 0, 0] } ] } })";
  expect_error(body_scene(repeated), "bodies[0].kinematic.keyframes[1].time", "greater than");
  const std::string negative = R"({ "name": "a", "shape": { "sphere": 1 }, "kinematic": { "keyframes": [
      { "time": -1, "position": [0, 0, 0] } ] } })";
  expect_error(body_scene(negative), "bodies[0].kinematic.keyframes[0].time", "≥ 0");
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "kinematic": { "keyframes": [] } })"),
               "bodies[0].kinematic.keyframes", "non-empty");
}

TEST(SceneErrors, BadBodyNames) {
  expect_error(R"({ "bodies": [ { "name": "a", "shape": { "sphere": 1 } },
                                { "name": "a", "shape": { "sphere": 1 } } ] })",
               "bodies[1].name", "unique");
  expect_error(body_scene(R"({ "name": "world", "shape": { "sphere": 1 } })"), "bodies[0].name", "world");
  expect_error(body_scene(R"({ "name": "", "shape": { "sphere": 1 } })"), "bodies[0].name", "non-empty");
  // A line break in a name would split its CSV row in the run output.
  expect_error(body_scene(R"({ "name": "a\nb", "shape": { "sphere": 1 } })"), "bodies[0].name", "control characters");
  expect_error(body_scene(R"({ "name": "a\tb", "shape": { "sphere": 1 } })"), "bodies[0].name", "control characters");
  expect_error(joint_scene(R"({ "name": "j\r", "type": "ball", "body1": "a", "body2": "b", "anchor": [0, 0, 0] })"),
               "joints[0].name", "control characters");
}

TEST(SceneErrors, BadShapes) {
  expect_error(body_scene(R"({ "name": "a", "shape": { "box": [1, 0, 1] } })"), "bodies[0].shape.box[1]",
               "positive");
  expect_error(body_scene(R"({ "name": "a", "shape": {} })"), "bodies[0].shape", "exactly one of");
  expect_error(body_scene(R"({ "name": "a", "shape": { "box": [1, 1, 1], "sphere": 1 } })"),
               "bodies[0].shape", "exactly one of");
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1, "resolution": 2 } })"),
               "bodies[0].shape.resolution", "≥ 3");
  expect_error(body_scene(R"({ "name": "a", "shape": { "mesh": { "file": "m.obj" }, "resolution": 8 } })"),
               "bodies[0].shape.resolution", "not allowed");
  expect_error(body_scene(R"({ "name": "a", "shape": { "torus": { "major": 0.2, "minor": 0.2 } } })"),
               "bodies[0].shape.torus.major", "greater than minor");
  expect_error(
      body_scene(R"({ "name": "a", "shape": { "mesh": { "file": "m.obj", "scale": [1, -1, 1] } } })"),
      "bodies[0].shape.mesh.scale[1]", "positive");
}

TEST(SceneErrors, ResolutionAboveTheLimit) {
  // 2e9 allocated until the machine ran out of memory, 1e4 threw std::bad_alloc.
  TempDir dir;
  for (const std::string shape : {R"("box": [1, 1, 1])", R"("sphere": 1)",
                                  R"("capsule": { "radius": 1, "length": 1 })",
                                  R"("cylinder": { "radius": 1, "length": 1 })",
                                  R"("torus": { "major": 1, "minor": 0.5 })"}) {
    SCOPED_TRACE(shape);
    const auto body = [&](const std::string& resolution) {
      return body_scene(R"({ "name": "a", "shape": { )" + shape + R"(, "resolution": )" + resolution + " } }");
    };
    for (const std::string resolution : {"1001", "10000", "2000000000"}) {
      expect_error(body(resolution), "bodies[0].shape.resolution", "to 1000, got " + resolution);
    }
    expect_error(body("2147483648"), "bodies[0].shape.resolution", "32-bit");
    EXPECT_NO_THROW(load_scene(dir.write("s.json", body("1000"))));
  }
  // An integral number is an integer however it is written (JsonReader::is_integral): 2e9 is too large, 2.5
  // is no integer, 16.0 is 16.
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1, "resolution": 2e9 } })"),
               "bodies[0].shape.resolution", "to 1000");
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1, "resolution": 2.5 } })"),
               "bodies[0].shape.resolution", "an integer");
  EXPECT_NO_THROW(load_scene(dir.write("f.json", body_scene(R"({ "name": "a", "shape": { "sphere": 1, "resolution": 16.0 } })"))));
  EXPECT_EQ(kMaxResolution, 1000);
}

// ---------------------------------------------------------------- joints

TEST(SceneErrors, JointUnknownBody) {
  expect_error(joint_scene(R"({ "type": "ball", "body1": "x", "body2": "b", "anchor": [0, 0, 0] })"),
               "joints[0].body1", "unknown body 'x'");
  expect_error(joint_scene(R"({ "type": "ball", "body1": "a", "body2": "y", "anchor": [0, 0, 0] })"),
               "joints[0].body2", "unknown body 'y'");
}

TEST(SceneErrors, JointBodiesMustBeTwoDifferentOnes) {
  expect_error(joint_scene(R"({ "type": "ball", "body1": "world", "body2": "b", "anchor": [0, 0, 0] })"),
               "joints[0].body1", "world");
  expect_error(joint_scene(R"({ "type": "ball", "body1": "a", "body2": "a", "anchor": [0, 0, 0] })"),
               "joints[0].body2", "other than body1");
}

TEST(SceneErrors, JointTypeUnknownOrMissing) {
  expect_error(joint_scene(R"({ "type": "weld", "body1": "a", "body2": "b" })"), "joints[0].type", "hinge");
  expect_error(joint_scene(R"({ "body1": "a", "body2": "b" })"), "joints[0].type", "required");
}

TEST(SceneErrors, UniversalAxesNotPerpendicular) {
  expect_error(joint_scene(R"({ "type": "universal", "body1": "a", "body2": "b", "anchor": [0, 0, 0],
                                "axes": [[1, 0, 0], [1, 1, 0]] })"),
               "joints[0].axes", "perpendicular");
}

TEST(SceneErrors, ConeTwistFrameNotARotation) {
  expect_error(joint_scene(R"({ "type": "cone_twist", "body1": "a", "body2": "b", "anchor": [0, 0, 0],
                                "frame": [[1, 0, 0], [0, 0, 1], [0, 1, 0]] })"),
               "joints[0].frame", "right-handed");
  expect_error(joint_scene(R"({ "type": "cone_twist", "body1": "a", "body2": "b", "anchor": [0, 0, 0],
                                "frame": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                                "limits_deg": { "twist": [10, -10] } })"),
               "joints[0].limits_deg.twist", "min ≤ max");
}

TEST(SceneErrors, BadJointLimitsAndLengths) {
  expect_error(joint_scene(R"({ "type": "hinge", "body1": "a", "body2": "b", "anchor": [0, 0, 0],
                                "axis": [0, 0, 0] })"),
               "joints[0].axis", "non-zero");
  expect_error(joint_scene(R"({ "type": "distance", "body1": "a", "body2": "b", "anchor1": [0, 0, 0],
                                "anchor2": [2, 0, 0], "min": 1, "max": 0.5 })"),
               "joints[0].max", "≥ min");
  expect_error(joint_scene(R"({ "type": "slider", "body1": "a", "body2": "b", "point": [0, 0, 0],
                                "normal": [0, 0, 1], "limits": [0, 1] })"),
               "joints[0].limits", "direction");
  expect_error(joint_scene(R"({ "type": "slider", "body1": "a", "body2": "b", "point": [0, 0, 0],
                                "normal": [0, 0, 1], "direction": [1, 0, 0] })"),
               "joints[0].direction", "only one of normal and direction");
}

// Angles and displacements are 0 at the initial configuration (DESIGN §3): a limit range that excludes
// 0 would start the joint outside its own limit, and the solver would quietly widen it to the start.

TEST(SceneErrors, HingeLimitsExcludingTheStartingAngle) {
  const std::string message = load_error(joint_scene(R"({ "type": "hinge", "body1": "a", "body2": "world",
      "anchor": [0, 0, 3], "axis": [1, 0, 0], "limits_deg": [10, 20] })"));
  EXPECT_NE(message.find(": joints[0].limits_deg: expected a range containing the initial angle 0°, got [10, 20]"),
            std::string::npos)
      << message;
  expect_error(joint_scene(R"({ "type": "hinge", "body1": "a", "body2": "b", "anchor": [0, 0, 0],
                                "axis": [1, 0, 0], "limits_deg": [-20, -1e-9] })"),
               "joints[0].limits_deg", "initial angle 0°");
}

TEST(SceneErrors, ConeTwistLimitsExcludingTheStartingAngle) {
  for (const char* which : {"twist", "swing1", "swing2"}) {
    expect_error(joint_scene(std::string(R"({ "type": "cone_twist", "body1": "a", "body2": "b",
        "anchor": [0, 0, 0], "frame": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "limits_deg": { ")") +
                             which + R"(": [5, 30] } })"),
                 std::string("joints[0].limits_deg.") + which, "initial angle 0°");
  }
}

TEST(SceneErrors, SlideLimitsExcludingTheStartingDisplacement) {
  expect_error(joint_scene(R"({ "type": "prismatic", "body1": "a", "body2": "b", "anchor": [0, 0, 0],
                                "axis": [1, 0, 0], "limits": [1, 2] })"),
               "joints[0].limits", "expected a range containing the initial displacement 0 m, got [1, 2]");
  expect_error(joint_scene(R"({ "type": "slider", "body1": "a", "body2": "b", "point": [0, 0, 0],
                                "direction": [1, 0, 0], "limits": [-2, -1] })"),
               "joints[0].limits", "initial displacement 0 m");
}

TEST(SceneErrors, DistanceBoundsExcludingTheStartingDistance) {
  expect_error(joint_scene(R"({ "type": "distance", "body1": "a", "body2": "b", "anchor1": [0, 0, 0],
                                "anchor2": [0, 0, 2], "max": 0.5 })"),
               "joints[0].max", "expected a number ≥ the initial anchor distance 2 m, got 0.5");
  expect_error(joint_scene(R"({ "type": "distance", "body1": "a", "body2": "b", "anchor1": [0, 0, 0],
                                "anchor2": [0, 0, 2], "min": 3 })"),
               "joints[0].min", "expected a number ≤ the initial anchor distance 2 m, got 3");
  // With a rest length the bounds still apply to the start, not to the rest length.
  expect_error(joint_scene(R"({ "type": "distance", "body1": "a", "body2": "b", "anchor1": [0, 0, 0],
                                "anchor2": [0, 0, 2], "length": 1, "min": 0.5, "max": 1.5 })"),
               "joints[0].max", "initial anchor distance 2 m");
}

TEST(SceneErrors, DistanceAnchorsThatCoincideWithoutALength) {
  expect_error(joint_scene(R"({ "type": "distance", "body1": "a", "body2": "b", "anchor1": [1, 2, 3],
                                "anchor2": [1, 2, 3] })"),
               "joints[0].anchor2", "expected a point apart from anchor1 (the rest length would be 0");
  expect_error(joint_scene(R"({ "type": "distance", "body1": "a", "body2": "b", "anchor1": [0, 0, 0],
                                "anchor2": [0, 0, 0], "max": 1 })"),
               "joints[0].anchor2", "use a ball joint");
  // A rest length does not help: the distance has no gradient where the anchors meet.
  expect_error(joint_scene(R"({ "type": "distance", "body1": "a", "body2": "b", "anchor1": [0, 0, 0],
                                "anchor2": [0, 0, 0], "length": 1 })"),
               "joints[0].anchor2", "expected a point apart from anchor1");
  expect_error(joint_scene(R"({ "type": "distance", "body1": "a", "body2": "b", "anchor1": [0, 0, -1e308],
                                "anchor2": [0, 0, 1e308] })"),
               "joints[0].anchor2", "within");
}

/// A range that the start touches (an end at 0) stays allowed: the ipc solver opens it at that end.
TEST(SceneErrors, LimitsThatTheStartTouchesAreAccepted) {
  TempDir dir;
  const auto file = dir.write("touch.json", scene_with(R"(, "joints": [
      { "type": "hinge", "body1": "a", "body2": "world", "anchor": [0, 0, 0], "axis": [1, 0, 0],
        "limits_deg": [0, 90] },
      { "type": "hinge", "body1": "b", "body2": "world", "anchor": [0, 0, 0], "axis": [1, 0, 0],
        "limits_deg": [-90, 0] },
      { "type": "hinge", "body1": "a", "body2": "b", "anchor": [0, 0, 0], "axis": [1, 0, 0],
        "limits_deg": [0, 0] },
      { "type": "prismatic", "body1": "a", "body2": "b", "anchor": [0, 0, 0], "axis": [1, 0, 0],
        "limits": [0, 1] },
      { "type": "slider", "body1": "a", "body2": "b", "point": [0, 0, 0], "direction": [1, 0, 0],
        "limits": [-1, 0] },
      { "type": "cone_twist", "body1": "a", "body2": "world", "anchor": [0, 0, 0],
        "frame": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "limits_deg": { "twist": [0, 10], "swing1": [-10, 0], "swing2": [0, 0] } },
      { "type": "distance", "body1": "a", "body2": "b", "anchor1": [0, 0, 0], "anchor2": [0.1, 0.2, 0],
        "min": 0.223606797749979, "max": 0.223606797749979 },
      { "type": "distance", "body1": "a", "body2": "b", "anchor1": [0, 0, 0.3], "anchor2": [0, 0, 0.1],
        "min": 0.2, "max": 0.2 } ])"));
  EXPECT_NO_THROW(load_scene(file));
}

/// Each joint type with one required field left out, and where the error must point.
struct MissingJointField {
  const char* name;  ///< the test's name
  const char* joint;
  const char* path;
  const char* word;
};

void PrintTo(const MissingJointField& field, std::ostream* os) { *os << field.name; }

class SceneErrorsJointMissingField : public ::testing::TestWithParam<MissingJointField> {};

TEST_P(SceneErrorsJointMissingField, NamesTheField) {
  const std::string joint = std::string(R"({ "body1": "a", "body2": "b", )") + GetParam().joint + " }";
  expect_error(joint_scene(joint), GetParam().path, GetParam().word);
}

INSTANTIATE_TEST_SUITE_P(
    EveryType, SceneErrorsJointMissingField,
    ::testing::Values(MissingJointField{"BallAnchor", R"("type": "ball")", "joints[0].anchor",
                                        "required field for a ball joint"},
                      MissingJointField{"HingeAxis", R"("type": "hinge", "anchor": [0, 0, 0])",
                                        "joints[0].axis", "required"},
                      MissingJointField{"PrismaticAxis", R"("type": "prismatic", "anchor": [0, 0, 0])",
                                        "joints[0].axis", "required"},
                      MissingJointField{"UniversalAxes", R"("type": "universal", "anchor": [0, 0, 0])",
                                        "joints[0].axes", "required"},
                      MissingJointField{"FixedAnchor", R"("type": "fixed")", "joints[0].anchor", "required"},
                      MissingJointField{"ConeTwistFrame", R"("type": "cone_twist", "anchor": [0, 0, 0])",
                                        "joints[0].frame", "required"},
                      MissingJointField{"DistanceAnchor2", R"("type": "distance", "anchor1": [0, 0, 0])",
                                        "joints[0].anchor2", "required"},
                      MissingJointField{"SliderPoint", R"("type": "slider", "normal": [0, 0, 1])",
                                        "joints[0].point", "required"},
                      MissingJointField{"SliderNormalOrDirection", R"("type": "slider", "point": [0, 0, 0])",
                                        "joints[0]", "normal"}),
    [](const auto& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------- duplicates

// nlohmann keeps the last of two equal keys: "name": "a", "name": "b" used to load as "b".
TEST(SceneErrors, DuplicateKeyInABody) {
  const std::string message = load_error(R"({ "bodies": [ { "name": "a", "name": "b", "shape": { "sphere": 1 } } ] })");
  EXPECT_NE(message.find(": bodies[0]: duplicate key 'name'"), std::string::npos) << message;
}

TEST(SceneErrors, DuplicateKeysAnywhere) {
  expect_error(R"({ "version": 1, "version": 1, "bodies": [ { "name": "a", "shape": { "sphere": 1 } } ] })",
               "(top level)", "duplicate key 'version'");
  expect_error(R"({ "settings": { "ipc": { "dhat": 1e-3, "dhat": 2e-3 } },
                    "bodies": [ { "name": "a", "shape": { "sphere": 1 } } ] })",
               "settings.ipc", "duplicate key 'dhat'");
  expect_error(R"({ "bodies": [ { "name": "a", "shape": { "sphere": 1 } },
                                { "name": "b", "shape": { "box": [1, 1, 1], "box": [2, 2, 2] } } ] })",
               "bodies[1].shape", "duplicate key 'box'");
  expect_error(R"({ "bodies": [ { "name": "a", "shape": { "sphere": 1 },
                    "kinematic": { "keyframes": [ { "time": 0 }, { "time": 1, "time": 2 } ] } } ] })",
               "bodies[0].kinematic.keyframes[1]", "duplicate key 'time'");
  // Equal after unescaping is equal.
  expect_error(R"({ "bodies": [ { "name": "a", "name": "b", "shape": { "sphere": 1 } } ] })", "bodies[0]",
               "duplicate key 'name'");
  // Unknown keys repeated are duplicates before they are unknown.
  expect_error(scene_with(R"(, "x": 1, "x": 2)"), "(top level)", "duplicate key 'x'");
}

TEST(SceneErrors, EqualKeysInDifferentObjectsAreFine) {
  TempDir dir;
  const auto file = dir.write("ok.json", R"({ "bodies": [
      { "name": "a", "shape": { "sphere": 1 }, "position": [0, 0, 0] },
      { "name": "b", "shape": { "sphere": 1 }, "position": [5, 0, 0],
        "kinematic": { "keyframes": [ { "time": 0, "position": [5, 0, 0] },
                                      { "time": 1, "position": [6, 0, 0] } ] } } ] })");
  const Scene scene = load_scene(file);
  ASSERT_EQ(scene.bodies.size(), 2u);
  EXPECT_EQ(scene.bodies[1].name, "b");
}

TEST(SceneErrors, DuplicateJointNames) {
  const std::string hinge = R"({ "type": "hinge", "body1": "a", "body2": "world", "anchor": [0, 0, 0],
                                 "axis": [1, 0, 0])";
  expect_error(scene_with(R"(, "joints": [ )" + hinge + R"(, "name": "j" }, )" + hinge + R"( },
                                           )" + hinge + R"(, "name": "j" } ])"),
               "joints[2].name", "duplicate joint name 'j' (joints[0] has it too");
  // A default name ("joint1") taken explicitly by another joint: the explicit one is named.
  expect_error(scene_with(R"(, "joints": [ )" + hinge + R"(, "name": "joint1" }, )" + hinge + R"( } ])"),
               "joints[0].name", "duplicate joint name 'joint1' (joints[1] has it too");
}

TEST(SceneErrors, BadCableJoints) {
  const std::string cable = R"({ "type": "cable", "body1": "a", "body2": "b", "anchor": [0, 0, 0], "axis": [0, 0, -1])";
  expect_error(joint_scene(R"({ "type": "cable", "body1": "a", "body2": "b", "anchor": [0, 0, 0] })"),
               "joints[0].axis", "required field for a cable joint is missing");
  expect_error(joint_scene(cable + R"(, "bending": { "stiffness": 0 } })"), "joints[0].bending.stiffness", "positive");
  expect_error(joint_scene(cable + R"(, "axial": { "damping": -1 } })"), "joints[0].axial.damping", "non-negative");
  expect_error(joint_scene(cable + R"(, "torsion": { "stifness": 1 } })"), "joints[0].torsion.stifness",
               "unknown field");
  expect_error(joint_scene(cable + R"(, "stiffness": 1e6 })"), "joints[0].stiffness", "not allowed on a cable joint");
  expect_error(joint_scene(cable + R"(, "limits_deg": [-1, 1] })"), "joints[0].limits_deg",
               "unknown field for a cable joint");
}

TEST(SceneErrors, BadMotorsAndServos) {
  const std::string hinge = R"({ "type": "hinge", "body1": "a", "body2": "b", "anchor": [0, 0, 0], "axis": [1, 0, 0])";
  expect_error(joint_scene(hinge + R"(, "motor": { "max_force": 5 } })"), "joints[0].motor.velocity",
               "required field");
  expect_error(joint_scene(hinge + R"(, "motor": { "velocity": 1, "max_force": 0 } })"), "joints[0].motor.max_force",
               "positive");
  expect_error(joint_scene(hinge + R"(, "motor": { "velocity": 1, "speed": 2 } })"), "joints[0].motor.speed",
               "unknown field");
  // Beyond ±10⁶ rad/s or rad no mechanism is meant; 10³⁰⁰ was accepted and then diverged (hostile16 #14).
  expect_error(joint_scene(hinge + R"(, "motor": { "velocity": 1e300 } })"), "joints[0].motor.velocity",
               "expected a number within ±1e6");
  expect_error(joint_scene(hinge + R"(, "servo": { "position": -1e300, "stiffness": 1 } })"),
               "joints[0].servo.position", "expected a number within ±1e6");
  expect_error(joint_scene(hinge + R"(, "servo": { "position": 1 } })"), "joints[0].servo.stiffness",
               "required field");
  expect_error(joint_scene(hinge + R"(, "servo": { "stiffness": -1 } })"), "joints[0].servo.stiffness", "positive");
  expect_error(joint_scene(hinge + R"(, "servo": { "stiffness": 1, "damping": -1 } })"), "joints[0].servo.damping",
               "non-negative");
  expect_error(joint_scene(hinge + R"(, "motor": { "velocity": 1 }, "servo": { "stiffness": 1 } })"),
               "joints[0].servo", "only one of motor and servo");
  expect_error(joint_scene(R"({ "type": "ball", "body1": "a", "body2": "b", "anchor": [0, 0, 0],
                                "motor": { "velocity": 1 } })"),
               "joints[0].motor", "unknown field for a ball joint");
  expect_error(joint_scene(R"({ "type": "slider", "body1": "a", "body2": "b", "point": [0, 0, 0], "normal": [0, 0, 1],
                                "servo": { "stiffness": 1 } })"),
               "joints[0].servo", "only allowed with direction");
}

// ---------------------------------------------------------------- forces

TEST(SceneErrors, ForceUnknownBody) {
  expect_error(scene_with(R"(, "forces": [ { "body": "z", "force": [0, 0, 1] } ])"), "forces[0].body",
               "unknown body 'z'");
}

TEST(SceneErrors, BadForces) {
  expect_error(scene_with(R"(, "forces": [ { "body": "a" } ])"), "forces[0]", "force and torque");
  expect_error(scene_with(R"(, "forces": [ { "body": "a", "force": [0, 0, 1], "start": 1, "end": 1 } ])"),
               "forces[0].end", "after start");
  expect_error(scene_with(R"(, "forces": [ { "body": "a", "force": [0, 0, 1], "start": -1 } ])"),
               "forces[0].start", "non-negative");
}

}  // namespace
}  // namespace affix
