#include <gtest/gtest.h>

#include "affix/model/start_checks.hpp"
#include "affix/error.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

Scene two_boxes(double gap) {
  return test::scene_with({test::box_body("left", Vec3::Ones(), Vec3(0, 0, 1)),
                           test::box_body("right", Vec3::Ones(), Vec3(1 + gap, 0.2, 1.1))},
                          0.01);
}

TEST(StartChecks, SeparatedBodiesAreAccepted) {
  const Scene scene = two_boxes(1e-3);
  EXPECT_NO_THROW(compile(scene));
}

TEST(StartChecks, OverlappingBodiesAreRefusedNamingThePair) {
  const Scene scene = two_boxes(-0.1);
  try {
    compile(scene);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("test.json: bodies[0]:"), std::string::npos) << message;
    EXPECT_NE(message.find("'left'"), std::string::npos) << message;
    EXPECT_NE(message.find("'right' (bodies[1])"), std::string::npos) << message;
  }
}

TEST(StartChecks, PairsThatCannotCollideMayOverlap) {
  Scene filtered = two_boxes(-0.1);
  filtered.bodies[0].collision = {1, ~2};  // left ignores group 2
  filtered.bodies[1].collision = {2, -1};
  EXPECT_NO_THROW(compile(filtered));

  Scene both_fixed = two_boxes(-0.1);
  both_fixed.bodies[0].fixed = both_fixed.bodies[1].fixed = true;
  EXPECT_NO_THROW(compile(both_fixed));
}

}  // namespace
}  // namespace affix
