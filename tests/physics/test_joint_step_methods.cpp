// The ipc solver's joint step by its methods (settings.ipc.linear_solver, joint_step.hpp) on whole
// scenes: the linear-time tree solve and the null-space reduction find the same Newton steps, so the
// same trajectories up to round-off, with every joint exact — on the ragdoll (cone twists and hinges
// through virtual links, limit barriers coupling the bodies along the joints, ground contact) and the
// 100-link chain with its 1000× end mass. Each run is checked against the other method, not against
// stored output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "affix/scene/scene_loader.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

Scene joint_scene(const std::string& name, const char* method) {
  Scene scene = load_scene(std::string(AFFIX_SOURCE_DIR) + "/examples/joints/" + name + ".json");
  scene.settings.solver = "ipc";
  scene.settings.solver_settings["ipc"]["linear_solver"] = method;
  return scene;
}

/// Runs `steps` steps of the scene by tree and by reduction; returns the largest pose difference (m,
/// on p and, times the body's size 1 m, on A) and checks the joints on the way.
double largest_difference(const std::string& name, int steps) {
  const auto tree = test::simulate(joint_scene(name, "tree"), "ipc");
  const auto reduction = test::simulate(joint_scene(name, "reduction"), "ipc");
  double largest = 0.0;
  for (int n = 1; n <= steps; ++n) {
    const StepStats by_tree = tree->step();
    reduction->step();
    const std::vector<BodyPose> a = tree->poses(), b = reduction->poses();
    for (std::size_t i = 0; i < a.size(); ++i)
      largest = std::max({largest, (a[i].p - b[i].p).lpNorm<Eigen::Infinity>(),
                          (a[i].A - b[i].A).lpNorm<Eigen::Infinity>()});
    EXPECT_LT(by_tree.max_joint_error, 1e-9) << name << ", step " << n;
  }
  return largest;
}

TEST(JointStepMethods, RagdollByTreeAndByReductionMoveAlike) {
  const double difference = largest_difference("ragdoll", 40);
  std::printf("ragdoll, 40 steps: tree and reduction differ by %.2e\n", difference);
  EXPECT_LT(difference, 1e-7);
}

TEST(JointStepMethods, HeavyEndedChainByTreeAndByReductionMoveAlike) {
  const double difference = largest_difference("chain_100", 10);
  std::printf("chain_100, 10 steps: tree and reduction differ by %.2e\n", difference);
  EXPECT_LT(difference, 1e-7);
}

}  // namespace
}  // namespace affix
