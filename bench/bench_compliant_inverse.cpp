// Andrews 2017 Table 2 / Fig. 4: the time to form M̃⁻¹ = (M − h² sym K̃)⁻¹ for a cable of n joints, by
// low-rank Sherman–Morrison updates of M⁻¹ (§3, App. B) against assembling M̃ and inverting it with a
// dense LDLT (full rank), for n = 10, 50, 100 ball-and-socket, hinge and universal joints
// (solvers/compliant/augmented_mass.hpp). The cable is n links of 0.1 kg and 0.25 m hanging straight
// down from the world, a 100 kg load's weight in every joint (λ = its tension, as a step would have it).
// Run: cmake -B build/release -DAFFIX_BUILD_BENCH=ON && ninja -C build/release affix_bench_compliant &&
//      build/release/bench/affix_bench_compliant
#include <benchmark/benchmark.h>

#include "affix/joints/geometric_stiffness.hpp"
#include "affix/math/rotation.hpp"
#include "affix/solvers/compliant/augmented_mass.hpp"

namespace {

using namespace affix;

struct Cable {
  std::vector<Mat6> M, Minv;
  std::vector<PlacedStiffness> K;
  std::vector<PlacedTerm> terms;
};

Cable cable(int joints, JointType type) {
  Cable c;
  const double link = 0.25, mass = 0.1, tension = 100.0 * 9.81;
  std::vector<RigidPose> poses;
  for (int k = 0; k < joints; ++k) {
    // A slight bend, so that the levers are not all parallel to the tension (K̃ ≠ 0 in every block).
    poses.push_back({Vec3(0.01 * k, 0.0, -(k + 0.5) * link), rotation_from_rotation_vector(Vec3(0.02 * k, 0.01, 0.0))});
    Mat6 M = Mat6::Zero();
    M.topLeftCorner<3, 3>() = mass * Mat3::Identity();
    M.bottomRightCorner<3, 3>() = Vec3(5e-4, 5e-4, 2e-5).asDiagonal();
    c.M.push_back(M);
    c.Minv.push_back(M.inverse());
  }
  std::vector<ModelBody> bodies(joints);
  for (int k = 0; k < joints; ++k) {
    ModelJoint mj;
    mj.def.type = type;
    mj.body1 = k;
    mj.body2 = k == 0 ? -1 : k - 1;
    mj.frame1 = {Vec3(0, 0, 0.5 * link), rotation_from_rotation_vector(Vec3(0, 0.3, 0))};
    mj.frame2 = {k == 0 ? Vec3::Zero() : Vec3(0, 0, -0.5 * link), rotation_from_rotation_vector(Vec3(0, 0.3, 0))};
    if (type == JointType::universal) mj.frame2.axes = mj.frame1.axes;
    const RigidJoint rj = rigid_joint(mj, bodies);
    RigidVector lambda = RigidVector::Zero(rj.count);
    lambda[2] = tension;                                // the point rows' z: the cable's tension
    for (int r = 3; r < rj.count; ++r) lambda[r] = 5.0;  // some torque on the angular rows
    const RigidPose p2 = k == 0 ? RigidPose{} : poses[k - 1];
    const std::array<int, 2> body{k, k == 0 ? -1 : k - 1};
    c.K.push_back({body, geometric_stiffness(rj, poses[k], p2, lambda)});
    std::vector<RankOneTerm> local;
    geometric_stiffness_terms(rj, poses[k], p2, lambda, local);
    for (const RankOneTerm& t : local) c.terms.push_back({body, t});
  }
  return c;
}

void full_rank(benchmark::State& state, JointType type) {
  const Cable c = cable(static_cast<int>(state.range(0)), type);
  for (auto _ : state) benchmark::DoNotOptimize(augmented_inverse_full_rank(c.M, c.K, 0.01));
  state.counters["terms"] = static_cast<double>(c.terms.size());
}

void low_rank(benchmark::State& state, JointType type) {
  const Cable c = cable(static_cast<int>(state.range(0)), type);
  MatX out;
  for (auto _ : state) {
    augmented_inverse_low_rank(c.Minv, c.terms, 0.01, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["terms"] = static_cast<double>(c.terms.size());
}

BENCHMARK_CAPTURE(full_rank, ball, JointType::ball)->Arg(10)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(low_rank, ball, JointType::ball)->Arg(10)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(full_rank, hinge, JointType::hinge)->Arg(10)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(low_rank, hinge, JointType::hinge)->Arg(10)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(full_rank, universal, JointType::universal)->Arg(10)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(low_rank, universal, JointType::universal)->Arg(10)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
