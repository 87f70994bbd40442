// Scene files at the extremes of JSON — nesting thousands of levels deep, megabytes of text where a
// name goes, quaternions and directions whose norm overflows or underflows — each refused (or read
// correctly) with one short line naming the file and the JSON path, never a crash (DESIGN §4).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "affix/error.hpp"
#include "affix/scene/json_text.hpp"
#include "affix/scene/scene_loader.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;

constexpr std::size_t kShortMessage = 400;  // bytes: a line a person can read

/// The message load_scene throws for `text`, checked to be one short line naming the file.
std::string load_error(const std::string& text) {
  TempDir dir;
  const auto file = dir.write("scene.json", text);
  try {
    load_scene(file);
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message.substr(0, kShortMessage);
    EXPECT_LT(message.size(), kShortMessage) << message.substr(0, kShortMessage);
    EXPECT_EQ(message.rfind(file.string() + ": ", 0), 0u) << message.substr(0, kShortMessage);
    return message;
  }
  ADD_FAILURE() << "no InputError for:\n" << text.substr(0, kShortMessage);
  return {};
}

void expect_error(const std::string& text, const std::string& path, const std::string& word) {
  const std::string message = load_error(text);
  EXPECT_NE(message.find(": " + path + ": "), std::string::npos) << "path " << path << " not in: " << message;
  EXPECT_NE(message.find(word), std::string::npos) << "'" << word << "' not in: " << message;
}

Scene load_text(const std::string& text) {
  TempDir dir;
  return load_scene(dir.write("scene.json", text));
}

const std::string kBody = R"({ "name": "a", "shape": { "sphere": 1 } })";

std::string scene_with(const std::string& extra) { return R"({ "bodies": [ )" + kBody + " ]" + extra + " }"; }

std::string body_scene(const std::string& body) { return R"({ "bodies": [ )" + body + " ] }"; }

std::string nested(int levels, const std::string& inner = "") {
  return std::string(static_cast<std::size_t>(levels), '[') + inner + std::string(static_cast<std::size_t>(levels), ']');
}

// ---------------------------------------------------------------- nesting depth

TEST(SceneLimits, DeepNestingIsRefusedWithLineAndColumn) {
  // 70,000 levels overflowed the stack. The outer object is level 1, so the bracket that opens level
  // 257 is the 256th '[', in column 11 + 256.
  const std::string message = load_error("{\"bodies\": " + nested(70000) + "}");
  EXPECT_NE(message.find("invalid JSON at line 1, column 267: "), std::string::npos) << message;
  EXPECT_NE(message.find("nested more than 256 levels"), std::string::npos) << message;
  // Under an unknown key, and on a later line.
  const std::string under_key = load_error(scene_with(",\n \"zz\": " + nested(70000)));
  EXPECT_NE(under_key.find("invalid JSON at line 2, column "), std::string::npos) << under_key;
  // Objects count as much as arrays.
  std::string objects;
  for (int i = 0; i < 70000; ++i) objects += "{\"a\":";
  objects += '1';
  objects.append(70000, '}');
  EXPECT_NE(load_error(objects).find("nested more than 256 levels"), std::string::npos);
}

TEST(SceneLimits, NestingLimitIsExactAndIgnoresBracketsInStrings) {
  const auto nesting_refused = [](const std::string& text) {
    try {
      parse_json_text(text, "t.json");
    } catch (const InputError& e) {
      return std::string(e.what()).find("nested more than") != std::string::npos;
    }
    return false;
  };
  EXPECT_FALSE(nesting_refused(nested(kMaxJsonNesting)));
  EXPECT_TRUE(nesting_refused(nested(kMaxJsonNesting + 1)));
  // Brackets inside strings, escaped quotes included, are text, not nesting.
  const std::string brackets(1000, '[');
  EXPECT_FALSE(nesting_refused("[\"" + brackets + "\"]"));
  EXPECT_FALSE(nesting_refused("[\"\\\"" + brackets + "\"]"));
  EXPECT_FALSE(nesting_refused("[\"\\\\\", \"" + brackets + "\"]"));  // "\\" ends its string
  // The scene reader then says what is wrong with the (shallow enough) value.
  expect_error(R"({ "bodies": )" + nested(200) + " }", "bodies[0]", "an object");
}

// The depth scan runs only where the parser stops or refuses (json_text.cpp): what it refuses must
// still be named as too deep first, as when the scan ran before everything, whatever comes earlier in
// the text (a duplicate key, a syntax error).
TEST(SceneLimits, TooDeepIsNamedBeforeEarlierFaults) {
  const std::string deep = nested(kMaxJsonNesting + 1);
  for (const std::string& text : {"{\"a\": 1, \"a\": 2, \"b\": " + deep + "}",  // a duplicate key first
                                  "{\"a\": tru, \"b\": " + deep + "}",            // a syntax error first
                                  "{\"b\": " + deep + ", \"a\": 1, \"a\": 2}"}) {
    try {
      parse_json_text(text, "t.json");
      ADD_FAILURE() << "accepted: " << text.substr(0, 40);
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("nested more than 256 levels"), std::string::npos) << e.what();
    }
  }
}

TEST(SceneLimits, DeepValueInABuiltDocumentIsRenderedShort) {
  // parse_scene takes documents built in code, which no text pre-scan sees: the message must still
  // be short, and rendering it must not recurse through 100,000 levels.
  nlohmann::json deep = nlohmann::json::array();
  nlohmann::json* innermost = &deep;  // built downwards: copying a deep value would recurse
  for (int i = 0; i < 100000; ++i) {
    innermost->push_back(nlohmann::json::array());
    innermost = &innermost->back();
  }
  nlohmann::json root = nlohmann::json::parse(scene_with(""));
  root["bodies"][0]["density"] = std::move(deep);
  try {
    parse_scene(root, "built.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_LT(message.size(), 200u) << message;
    EXPECT_NE(message.find("built.json: bodies[0].density: expected a number, got [[[...]]]"),
              std::string::npos)
        << message;
  }
}

// ---------------------------------------------------------------- long user text

TEST(SceneLimits, LongTextInMessagesIsCutAndSaysHowLongItWas) {
  const std::string huge(10'000'000, 'k');
  const std::string key = load_error(scene_with(", \"" + huge + "\": 1"));
  EXPECT_NE(key.find(": kkkkk"), std::string::npos) << key;
  EXPECT_NE(key.find("... (10000000 bytes): unknown field"), std::string::npos) << key;

  const std::string value = load_error(scene_with(", \"settings\": { \"dt\": \"" + huge + "\" }"));
  EXPECT_NE(value.find("settings.dt: expected a number, got \"kkk"), std::string::npos) << value;
  EXPECT_NE(value.find("(10000000 bytes)"), std::string::npos) << value;

  const std::string joint = load_error(scene_with(R"(, "joints": [ { "type": "ball", "body1": ")" + huge +
                                                  R"(", "body2": "world", "anchor": [0, 0, 0] } ])"));
  EXPECT_NE(joint.find("joints[0].body1: unknown body 'kkk"), std::string::npos) << joint;

  const std::string force = load_error(scene_with(R"(, "forces": [ { "body": ")" + huge + R"(", "force": [0, 0, 1] } ])"));
  EXPECT_NE(force.find("forces[0].body: unknown body 'kkk"), std::string::npos) << force;

  // A big array or object as the wrong type of value.
  std::string array = "[";
  for (int i = 0; i < 100000; ++i) array += (i ? ", " : "") + std::to_string(i);
  expect_error(scene_with(", \"settings\": { \"dt\": " + array + "] }"), "settings.dt", "got [0, 1, 2");

  // An unterminated string of 10 MB: the parser's own message quotes it.
  const std::string unterminated = load_error("{ \"bodies\": \"" + huge);
  EXPECT_NE(unterminated.find("invalid JSON at line 1"), std::string::npos) << unterminated;
}

TEST(SceneLimits, ControlCharactersInKeysAndNamesStayOnOneLine) {
  const std::string message = load_error(scene_with(R"(, "bad\nkey\u0007": 1)"));
  EXPECT_NE(message.find(R"(bad\nkey\u0007: unknown field)"), std::string::npos) << message;
  const std::string name = load_error(scene_with(R"(, "forces": [ { "body": "two\nlines", "force": [0, 0, 1] } ])"));
  EXPECT_NE(name.find(R"(unknown body 'two\nlines')"), std::string::npos) << name;
}

// ---------------------------------------------------------------- normalising

bool same_rotation(const Quat& a, const Quat& b) { return std::abs(a.dot(b)) > 1.0 - 1e-15; }

TEST(SceneLimits, QuaternionsAreNormalisedWithoutOverflowOrUnderflow) {
  const auto rotation = [](const std::string& value) {
    return load_text(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "rotation": )" + value + " }"))
        .bodies[0]
        .rotation;
  };
  const Quat quarter_about_x(std::sqrt(0.5), std::sqrt(0.5), 0.0, 0.0);
  EXPECT_TRUE(same_rotation(rotation("[1e200, 1e200, 0, 0]"), quarter_about_x));
  EXPECT_TRUE(same_rotation(rotation("[1.7e308, 1.7e308, 0, 0]"), quarter_about_x));
  EXPECT_TRUE(same_rotation(rotation("[1e-200, 1e-200, 0, 0]"), quarter_about_x));
  EXPECT_TRUE(same_rotation(rotation("[1e-200, 0, 0, 0]"), Quat::Identity()));
  EXPECT_TRUE(same_rotation(rotation("[5e-324, 0, 0, 0]"), Quat::Identity()));
  EXPECT_NEAR(rotation("[1e300, -1e300, 1e300, -1e300]").norm(), 1.0, 1e-15);
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "rotation": [0, 0, 0, 0] })"),
               "bodies[0].rotation", "non-zero quaternion");
  expect_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "rotation": [-0.0, 0, 0, 0] })"),
               "bodies[0].rotation", "non-zero quaternion");
}

TEST(SceneLimits, AxesAndDirectionsAreNormalisedWithoutOverflowOrUnderflow) {
  const Scene axis_angle = load_text(body_scene(
      R"({ "name": "a", "shape": { "sphere": 1 }, "rotation": { "axis": [1e300, 1e300, 0], "angle_deg": 90 } })"));
  const Quat expected(Eigen::AngleAxisd(std::acos(-1.0) / 2, Vec3(1, 1, 0).normalized()));
  EXPECT_TRUE(same_rotation(axis_angle.bodies[0].rotation, expected));
  const Scene tiny_axis = load_text(body_scene(
      R"({ "name": "a", "shape": { "sphere": 1 }, "rotation": { "axis": [0, 1e-320, 0], "angle_deg": 90 } })"));
  EXPECT_TRUE(same_rotation(tiny_axis.bodies[0].rotation, Quat(Eigen::AngleAxisd(std::acos(-1.0) / 2, Vec3::UnitY()))));

  const Scene keyed = load_text(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "kinematic": { "keyframes": [
      { "time": 0, "position": [0, 0, 0], "rotation": [1e-300, 0, 0, 1e-300] } ] } })"));
  EXPECT_TRUE(same_rotation(keyed.bodies[0].kinematic->keyframes[0].rotation, Quat(std::sqrt(0.5), 0, 0, std::sqrt(0.5))));

  const Scene joints = load_text(scene_with(R"(, "joints": [
      { "type": "hinge", "body1": "a", "body2": "world", "anchor": [0, 0, 0], "axis": [1e308, 1e308, 0] },
      { "type": "slider", "body1": "a", "body2": "world", "point": [0, 0, 0], "direction": [0, 0, -1e-310] } ])"));
  EXPECT_LT((joints.joints[0].axis - Vec3(1, 1, 0).normalized()).norm(), 1e-15);
  EXPECT_EQ(*joints.joints[1].direction, Vec3(0, 0, -1));
  expect_error(scene_with(R"(, "joints": [ { "type": "hinge", "body1": "a", "body2": "world", "anchor": [0, 0, 0],
                                               "axis": [0, 0, 0] } ])"),
               "joints[0].axis", "non-zero");
}

}  // namespace
}  // namespace affix
