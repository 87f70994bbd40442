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

/// Highest z of body `index`'s origin after its first bounce, for a scene dropped from rest.
double apex_after_bounce(const Scene& scene, int index, int steps) {
  const auto sim = test::simulate(scene, "compliant");
  bool bounced = false;
  double apex = -1e300;
  for (int n = 0; n < steps; ++n) {
    sim->step();
    const double vz = sim->velocities()[index].linear.z();
    if (!bounced && vz > 0.0) bounced = true;
    if (bounced) {
      if (vz < 0.0) break;  // past the apex
      apex = std::max(apex, sim->poses()[index].p.z());
    }
  }
  EXPECT_TRUE(bounced);
  return apex;
}

TEST(CompliantContact, SphereBouncesToRestitutionSquaredTimesItsDropHeight) {
  const double r = 0.1, H = 1.0;
  for (const double e : {0.5, 0.8, 1.0}) {
    Scene scene = test::scene_with({test::sphere_body("ball", r, {0, 0, r + H})}, 1e-3);
    scene.settings.solver_settings["compliant"]["restitution"] = e;
    const double apex = apex_after_bounce(scene, 0, 3000) - r;
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
  BodyDef box = test::box_body("box", Vec3::Constant(0.4), {0, 0, 2 * r + 0.2 + H});
  box.mass = 100.0;
  BodyDef foot = test::sphere_body("foot", r, {0, 0, r + H});
  foot.mass = 0.1;
  Scene scene = test::scene_with({box, foot}, 1e-3);
  scene.settings.solver_settings["compliant"]["restitution"] = e;
  JointDef& weld = test::add_joint(scene, JointType::fixed, "foot", "box");
  weld.anchor = {0, 0, 2 * r + H};
  const double apex = apex_after_bounce(scene, 0, 2000) - (2 * r + 0.2);
  std::printf("welded pair, e = %.1f: the box rises to %.4f m, e^2 H = %.4f m\n", e, apex, e * e * H);
  EXPECT_NEAR(apex, e * e * H, 0.02);
}

}  // namespace
}  // namespace affix
