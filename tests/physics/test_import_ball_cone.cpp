// A MuJoCo ball joint with a `range` keeps its cone in a run: a rod hangs from a limited ball
// (range 30°) under gravity along +x, which would swing it to 90° and beyond; imported (as a
// cone_twist) and run with the ipc solver, its whole rotation angle — the angle MuJoCo bounds —
// presses against 30° and never passes it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <numbers>

#include "affix/import/import_model.hpp"
#include "affix/math/rotation.hpp"
#include "affix/model/model.hpp"
#include "affix/solvers/registry.hpp"
#include "scene/scene_files.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

constexpr const char* kModel = R"xml(<mujoco model="cone">
  <option timestep="0.005" gravity="9.81 0 0"/>
  <worldbody>
    <body name="rod" pos="0 0 1">
      <joint name="shoulder" type="ball" pos="0 0 0" limited="true" range="0 30"/>
      <geom type="capsule" fromto="0 0 -0.05 0 0 -0.5" size="0.02"/>
    </body>
  </worldbody>
</mujoco>
)xml";

TEST(ImportBallCone, RodPressesAgainstItsConeAndNeverPassesIt) {
  test::TempDir dir;
  Scene scene = import_model_report(dir.write("cone.xml", kModel)).scene;
  scene.settings.solver = "ipc";
  ASSERT_EQ(scene.joints.front().type, JointType::cone_twist);
  auto model = std::make_shared<const Model>(compile(scene));
  auto sim = make_simulator(model);
  const int rod = *scene.body_index("rod");
  double largest = 0.0;
  for (int s = 0; s < 80; ++s) {  // 0.4 s: the free swing would pass 30° after about 0.15 s
    sim->step();
    // The whole rotation's angle from its trace: MuJoCo's ball limit bounds exactly this.
    const Mat3 R = polar_rotation(sim->poses()[static_cast<std::size_t>(rod)].A);
    largest = std::max(largest, std::acos(std::clamp(0.5 * (R.trace() - 1.0), -1.0, 1.0)));
  }
  std::cout << "largest rotation " << largest / kDeg << " deg\n";
  EXPECT_LE(largest, 30 * kDeg + 1e-3);
  EXPECT_GE(largest, 27 * kDeg);  // it did swing out to the cone
}

}  // namespace
}  // namespace affix
