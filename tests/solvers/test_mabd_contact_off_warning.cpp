// mabd with body contact off warns when bodies can touch (solvers/mabd/contact_off_warning.hpp, hostile
// pass D4): a box resting 0.5 mm above another (within ξ; the start check refuses overlaps), a box
// dropped onto another from 0.25 m above it (it reaches it after √(2·0.25/g) = 0.226 s: a run of 0.2 s
// does not, 0.25 s does), one thrown up first (the sweep's turning point); and not two boxes side by
// side 0.1 m apart, nor a jointed pair whose joint excludes the pair.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "affix/model/model.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/mabd/contact_off_warning.hpp"

namespace affix {
namespace {

using nlohmann::json;

constexpr double kXi = 1e-3;  // settings.mabd.contact_thickness's default

/// Two 0.5 m boxes, b at `b_position`, a fixed with its top at z = 0.5; `duration` s.
Model two_boxes(const json& b_position, double duration, const json& joints = json::array(),
                const json& b_velocity = {0, 0, 0}) {
  json scene = json::parse(R"({
    "settings": { "solver": "mabd", "dt": 0.01 },
    "bodies": [ { "name": "a", "shape": { "box": [0.5, 0.5, 0.5] }, "position": [0, 0, 0.25], "fixed": true },
                { "name": "b", "shape": { "box": [0.5, 0.5, 0.5] } } ]
  })");
  scene["settings"]["duration"] = duration;
  scene["bodies"][1]["position"] = b_position;
  scene["bodies"][1]["velocity"] = b_velocity;
  scene["joints"] = joints;
  return compile(parse_scene(scene, "two_boxes.json"));
}

TEST(MabdContactOffWarning, FindsBodiesStackedOnEachOther) {
  const auto pair = bodies_that_can_touch(two_boxes({0, 0, 0.7505}, 0.01), kXi);
  ASSERT_TRUE(pair);
  EXPECT_EQ(*pair, (std::array<int, 2>{0, 1}));
}

TEST(MabdContactOffWarning, FindsABodyThatFallsOntoAnotherWithinTheRun) {
  // b at z = 1: its bottom at 0.75, a's top at 0.5; it falls 0.25 m in √(2·0.25/9.81) = 0.226 s.
  EXPECT_FALSE(bodies_that_can_touch(two_boxes({0, 0, 1.0}, 0.2), kXi));
  EXPECT_TRUE(bodies_that_can_touch(two_boxes({0, 0, 1.0}, 0.25), kXi));
  // Thrown up at 3 m/s: z = 1 + 3t − ½gt² comes down to 0.752 (a's top plus b's half and both ξ) at
  // t = (3 + √(9 + 2g·0.248))/g = 0.685 s.
  EXPECT_FALSE(bodies_that_can_touch(two_boxes({0, 0, 1.0}, 0.6, json::array(), {0, 0, 3}), kXi));
  EXPECT_TRUE(bodies_that_can_touch(two_boxes({0, 0, 1.0}, 0.8, json::array(), {0, 0, 3}), kXi));
  // Thrown sideways past a: 2 m/s for 1 s from 2.5 m beside it ends 4.5 m away, never above it.
  EXPECT_FALSE(bodies_that_can_touch(two_boxes({2.5, 0, 1.0}, 1.0, json::array(), {2, 0, 0}), kXi));
}

TEST(MabdContactOffWarning, IgnoresBodiesApartAndJointedPairs) {
  EXPECT_FALSE(bodies_that_can_touch(two_boxes({0.6, 0, 0.25}, 5.0), kXi)) << "0.1 m apart, at rest";
  EXPECT_TRUE(bodies_that_can_touch(two_boxes({0.5005, 0, 0.25}, 5.0), kXi)) << "0.5 mm apart: within ξ";
  const json hinge = json::parse(R"([{ "name": "h", "type": "hinge", "body1": "b", "body2": "a",
                                       "anchor": [0, 0, 0.5], "axis": [0, 1, 0] }])");
  EXPECT_FALSE(bodies_that_can_touch(two_boxes({0, 0, 0.7505}, 1.0, hinge), kXi)) << "a joint excludes its pair";
}

}  // namespace
}  // namespace affix
