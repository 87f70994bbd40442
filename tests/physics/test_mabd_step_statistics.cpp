// The mabd step's max_joint_error against the gaps of the joints read back from the poses alone. The
// step takes the gaps of the ball joints whose two sides move in its pass over the new states, each as
// soon as that pass has reached both of its bodies, and every other joint (here the one on the world)
// after it (mabd_simulator.cpp); here the joints are listed in an order unrelated to the bodies'
// (reversed, every other one with its sides swapped), so that pass reaches them late and out of order. A
// ball row is linear in q, so one exact dual solve closes every gap to round-off: the dual solve here is
// one Gauss–Seidel sweep, which leaves gaps of millimetres, and before each step one body is pushed off
// its joints, so that a different joint holds the largest gap each time.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "affix/scene/generate/chain.hpp"
#include "affix/solvers/mabd/mabd_simulator.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

/// The largest gap |anchor₁ − anchor₂|∞ over the joints (for a ball joint, its compact rows' largest).
double largest_gap(const Simulator& sim) {
  double largest = 0.0;
  for (const JointRecord& r : sim.joint_records())
    largest = std::max(largest, (r.anchor1 - r.anchor2).cwiseAbs().maxCoeff());
  return largest;
}

TEST(MabdStepStatistics, MaxJointErrorIsTheLargestGapOfJointsInAnyOrder) {
  Scene scene = generate::chain({24, 1000.0, generate::ChainJoint::ball});  // pinned to the world
  scene.settings.solver = "mabd";
  scene.settings.solver_settings["mabd"] = {{"dual_solver", "gauss_seidel"}, {"gauss_seidel_iterations", 1}};
  std::reverse(scene.joints.begin(), scene.joints.end());
  for (std::size_t k = 0; k < scene.joints.size(); k += 2) {
    JointDef& j = scene.joints[k];
    if (j.body2 == "world") continue;
    std::swap(j.body1, j.body2);
    std::swap(j.body1_index, j.body2_index);
  }
  MabdSimulator sim(test::compiled(scene, "mabd"));
  const int bodies = static_cast<int>(scene.bodies.size());
  for (int s = 0; s < 2 * bodies; ++s) {
    std::vector<BodyPose> poses = sim.poses();
    poses[s % bodies].p += Vec3(1e-3, -2e-3, 0.5e-3);  // its joints' gaps the largest after the step
    sim.set_state(poses, sim.velocities());
    const StepStats stats = sim.step();
    const double expected = largest_gap(sim);
    ASSERT_GT(expected, 1e-6) << "step " << s;
    ASSERT_NEAR(stats.max_joint_error, expected, 1e-13 + 1e-9 * expected) << "step " << s;
  }
}

}  // namespace
}  // namespace affix
