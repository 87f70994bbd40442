// The compliant solver's restitution (settings.compliant.restitution, compliant_unilateral.cpp: a contact
// approaching at speed a asks U v₊ ≥ e·a) against the closed form of a bounce: dropped from rest at
// height H, a body meets the ground at √(2gH), leaves at e√(2gH) and rises to e²H. Once on a free
// sphere, and once on a light sphere welded under a heavy box, where the contact row acts through the
// weld's rows in the mixed LCP (mixed_lcp.hpp): the pair bounces as one body, while a contact that saw
// only the 0.1 kg sphere would stop it and leave the 100 kg box falling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "support/physics.hpp"

namespace affix {
namespace {

TEST(CompliantContact, SphereBouncesToRestitutionSquaredTimesItsDropHeight) {
  const double r = 0.1, H = 1.0;
  for (const double e : {0.5, 0.8, 1.0}) {
    Scene scene = test::scene_with({test::sphere_body("ball", r, {0, 0, r + H})}, 1e-3);
    scene.settings.solver_settings["compliant"]["restitution"] = e;
    const double apex = test::apex_after_bounce(scene, "compliant", 0, 3000) - r;
    std::printf("e = %.1f: apex %.4f m, e^2 H = %.4f m\n", e, apex, e * e * H);
    // The impact is found up to one step early or late (v h = 4.4 mm at h = 1 ms), which changes the height.
    EXPECT_NEAR(apex, e * e * H, 0.01);
  }
}

TEST(CompliantContact, InelasticSphereStaysOnTheGround) {
  const double r = 0.1, H = 1.0;
  const auto sim = test::simulate(test::scene_with({test::sphere_body("ball", r, {0, 0, r + H})}, 1e-3), "compliant");
  double highest_after_impact = -1.0;
  bool landed = false;
  for (int n = 0; n < 1000; ++n) {
    sim->step();
    const double z = sim->poses()[0].p.z();
    landed = landed || z < r + 1e-3;
    if (landed) highest_after_impact = std::max(highest_after_impact, z - r);
  }
  ASSERT_TRUE(landed);
  EXPECT_LT(highest_after_impact, 1e-3);  // e = 0 (the default): no bounce
}

TEST(CompliantContact, ALightSphereWeldedUnderAHeavyBoxBouncesThePairAsOneBody) {
  const double r = 0.05, H = 0.5, e = 0.5;
  const double apex = test::welded_pair_bounce("compliant", r, H, e);
  std::printf("welded pair, e = %.1f: the box rises to %.4f m, e^2 H = %.4f m\n", e, apex, e * e * H);
  EXPECT_NEAR(apex, e * e * H, 0.02);
}

}  // namespace
}  // namespace affix
