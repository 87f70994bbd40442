#include <gtest/gtest.h>

#include "affix/body/initial_overlap.hpp"
#include "affix/error.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

Scene two_boxes(double gap) {
  return test::scene_with({test::box_body("left", Vec3::Ones(), Vec3(0, 0, 1)),
                           test::box_body("right", Vec3::Ones(), Vec3(1 + gap, 0.2, 1.1))},
                          0.01);
}

TEST(InitialOverlap, SeparatedBodiesAreAccepted) {
  const Scene scene = two_boxes(1e-3);
  EXPECT_NO_THROW(refuse_intersecting_bodies(scene, build_affine_bodies(scene)));
}

TEST(InitialOverlap, OverlappingBodiesAreRefusedNamingThePair) {
  const Scene scene = two_boxes(-0.1);
  try {
    refuse_intersecting_bodies(scene, build_affine_bodies(scene));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("test.json: bodies[0]:"), std::string::npos) << message;
    EXPECT_NE(message.find("'left'"), std::string::npos) << message;
    EXPECT_NE(message.find("'right' (bodies[1])"), std::string::npos) << message;
  }
}

TEST(InitialOverlap, PairsThatCannotCollideMayOverlap) {
  Scene filtered = two_boxes(-0.1);
  filtered.bodies[0].collision = {1, ~2};  // left ignores group 2
  filtered.bodies[1].collision = {2, -1};
  EXPECT_NO_THROW(refuse_intersecting_bodies(filtered, build_affine_bodies(filtered)));

  Scene both_fixed = two_boxes(-0.1);
  both_fixed.bodies[0].fixed = both_fixed.bodies[1].fixed = true;
  EXPECT_NO_THROW(refuse_intersecting_bodies(both_fixed, build_affine_bodies(both_fixed)));
}

}  // namespace
}  // namespace affix
