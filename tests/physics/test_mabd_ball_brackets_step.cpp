// The mabd step with ball joints through constant brackets (ball_brackets.hpp, ball_chain.hpp) against
// the same step on the generic path (every joint's rows G, responses by co-rotated solves, block Thomas
// on dynamic blocks), which MabdSimulator::use_constant_brackets(false) keeps as the reference: on a
// generated chain with a 1000× heavier end (stressed links, so the twist term is in every block), a
// generated tree (ABD-ABA reads the rows, so they are formed from the brackets), a ball chain falling
// onto the ground (bodies in penalty contact take their dense factor) and a cone-twist chain whose swing
// limits clamp (a limit row sends its chain to the generic solver). The two paths do the same arithmetic
// in a different order, so the states agree to round-off, step after step. Where the scene amplifies
// round-off (stiff penalty contact roughly doubles a difference each step once several links press on
// the ground; limit passes that run out at their cap stop at a point that depends on it), the runs are
// compared over the steps before that: 10⁻¹⁶ grows to 7·10⁻¹¹ in the ground's first 25 steps and to
// 4·10⁻¹² in the cone twist's first 16, measured when these tests were written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "affix/scene/generate/chain.hpp"
#include "affix/scene/generate/tree.hpp"
#include "affix/solvers/mabd/mabd_simulator.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

/// The most Newton iterations a step of the last largest_difference took.
int most_iterations = 0;

/// The largest difference of the two runs' poses (p in m, A unitless) over `steps` steps, each run
/// checked to have taken the path asked for.
double largest_difference(const Scene& scene, int steps) {
  most_iterations = 0;
  const auto model = test::compiled(scene, "mabd");
  MabdSimulator brackets(model), generic(model);
  generic.use_constant_brackets(false);
  double largest = 0.0;
  for (int s = 0; s < steps; ++s) {
    const StepStats a = brackets.step(), b = generic.step();
    EXPECT_EQ(a.iterations, b.iterations) << "step " << s;
    EXPECT_EQ(generic.kkt_system().brackets, nullptr);
    EXPECT_NE(brackets.kkt_system().brackets, nullptr);
    const std::vector<BodyPose> pa = brackets.poses(), pb = generic.poses();
    for (std::size_t i = 0; i < pa.size(); ++i)
      largest = std::max({largest, (pa[i].p - pb[i].p).cwiseAbs().maxCoeff(), (pa[i].A - pb[i].A).cwiseAbs().maxCoeff()});
    most_iterations = std::max(most_iterations, a.iterations);
  }
  return largest;
}

/// Whether the last step left any ball joint's rows unformed (the ball chain solve took it).
bool rows_left_to_brackets(const Scene& scene) {
  MabdSimulator sim(test::compiled(scene, "mabd"));
  sim.step();
  const KktSystem& system = sim.kkt_system();
  return std::any_of(system.joints.begin(), system.joints.end(),
                     [](const KktJoint& j) { return j.ball() && j.G1.rows() + j.G2.rows() == 0; });
}

Scene mabd(Scene scene) {
  scene.settings.solver = "mabd";
  return scene;
}

TEST(MabdBallBracketsStep, HeavyEndChainStepsAsOnTheGenericPath) {
  const Scene scene = mabd(generate::chain({40, 1000.0, generate::ChainJoint::ball}));
  EXPECT_TRUE(rows_left_to_brackets(scene));
  EXPECT_LT(largest_difference(scene, 60), 1e-11);
}

TEST(MabdBallBracketsStep, TreeFormsItsBallRowsAndStepsAsOnTheGenericPath) {
  generate::TreeOptions options;
  options.depth = 4;
  const Scene scene = mabd(generate::tree(options));
  EXPECT_FALSE(rows_left_to_brackets(scene));
  EXPECT_LT(largest_difference(scene, 30), 1e-11);
}

TEST(MabdBallBracketsStep, ChainOnTheGroundStepsAsOnTheGenericPath) {
  // A pinned 12-link capsule chain whose free part swings down onto a ground 5 cm below its pivot.
  Scene scene = mabd(generate::chain({12, 1.0, generate::ChainJoint::ball}));
  const double pivot = scene.bodies.front().position.z();
  scene.ground = Ground{};
  scene.ground->height = pivot - 0.05;
  int touching = 0;
  {
    MabdSimulator sim(test::compiled(scene, "mabd"));
    for (int s = 0; s < 40; ++s) touching = std::max(touching, sim.step().active_contacts);
  }
  EXPECT_GT(touching, 0);
  EXPECT_LT(largest_difference(scene, 25), 1e-9);
}

TEST(MabdBallBracketsStep, ConeTwistChainAtItsSwingLimitStepsAsOnTheGenericPath) {
  Scene scene = mabd(generate::chain({10, 1.0, generate::ChainJoint::ball}));
  for (JointDef& j : scene.joints) {
    j.type = JointType::cone_twist;
    j.swing1_limits = AngleRange{-0.2, 0.2};
    j.swing2_limits = AngleRange{-0.2, 0.2};
  }
  // 1e-9: the strained steps' extra iterations (mabd_settings.hpp) carry the two paths' round-off on.
  EXPECT_LT(largest_difference(scene, 16), 1e-9);
  EXPECT_GT(most_iterations, 1);  // a limit row was added and iterated (joint_limits.hpp)
}

}  // namespace
}  // namespace affix
