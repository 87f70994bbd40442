// The mabd solver's contact records (contacts.csv, Simulator.contacts): its penalty ground contacts, one
// per vertex below the ground, whose forces k·δ must carry a resting body's weight m·g (Newton's first
// law, independent of the penalty's stiffness) and act at its bottom corners along +z.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "support/physics.hpp"

namespace affix {
namespace {

TEST(MabdContactRecords, ABoxAtRestListsItsFourCornersCarryingItsWeight) {
  const double size = 0.2;
  Scene scene = test::scene_with({test::box_body("box", Vec3::Constant(size), Vec3(0.3, -0.1, size / 2 + 0.01))}, 1e-2);
  const auto model = test::compiled(scene, "mabd");
  const auto sim = make_simulator(model);
  int active = 0;
  for (int n = 0; n < 200; ++n) active = sim->step().active_contacts;  // 2 s: landed and settled
  const std::vector<ContactRecord> records = sim->contact_records();
  ASSERT_EQ(static_cast<int>(records.size()), active);
  ASSERT_EQ(records.size(), 4u) << "a box resting flat touches by its four bottom corners";
  double total = 0.0;
  for (const ContactRecord& r : records) {
    EXPECT_EQ(r.body1, 0);
    EXPECT_EQ(r.body2, -1);
    EXPECT_LT(r.distance, 0.0);
    EXPECT_NEAR(r.normal.z(), 1.0, 1e-15);
    EXPECT_NEAR(std::abs(r.point.x() - 0.3), size / 2, 1e-6);
    EXPECT_NEAR(std::abs(r.point.y() + 0.1), size / 2, 1e-6);
    EXPECT_NEAR(r.point.z(), 0.5 * r.distance, 1e-15);
    total += r.force;
  }
  const double weight = model->bodies[0].mass * -scene.settings.gravity.z();
  std::printf("box at rest: %zu contacts, Σ force %.6f N, m·g %.6f N\n", records.size(), total, weight);
  EXPECT_NEAR(total, weight, 1e-6 * weight);
}

}  // namespace
}  // namespace affix
