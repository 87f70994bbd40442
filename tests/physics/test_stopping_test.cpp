// The Newton stopping test (issue 9, item 1), on every solver: whether a body feels gravity must not
// depend on bodies far away, nor on the body's own size. Each body here falls freely from rest;
// implicit Euler's closed form is z_N = z_0 − g·h²·N(N+1)/2 (v_{n+1} = v_n − g·h, z_{n+1} = z_n + h·v_{n+1}),
// and a free fall is quadratic in p, so one Newton step (ipc) lands on it to round-off.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kG = 9.81;

double implicit_euler_fall(double h, int steps) { return kG * h * h * steps * (steps + 1) / 2.0; }

/// Height of the first body after `steps` steps of `h`.
double height_after(const std::string& solver, const std::vector<BodyDef>& bodies, double h, int steps) {
  Scene scene = test::scene_with(bodies, h, std::nullopt);
  const auto sim = test::simulate(scene, solver);
  for (int n = 0; n < steps; ++n) sim->step();
  return sim->poses()[0].p.z();
}

struct FarCase {
  double h;
  double distance;  ///< of the second body (m)
};

class FarBodyTest : public testing::TestWithParam<std::tuple<std::string, FarCase>> {};

TEST_P(FarBodyTest, ABoxFallsTheSameWithAndWithoutABodyFarAway) {
  const auto& [solver, far_case] = GetParam();
  const auto [h, distance] = far_case;
  const int steps = 20;
  const BodyDef box = test::box_body("box", Vec3::Constant(0.4), Vec3(0, 0, 1));
  const BodyDef far = test::box_body("far", Vec3::Constant(0.4), Vec3(distance, 0, 1));
  const double alone = height_after(solver, {box}, h, steps);
  const double beside = height_after(solver, {box, far}, h, steps);
  EXPECT_NEAR(1.0 - alone, implicit_euler_fall(h, steps), 1e-12);
  EXPECT_NEAR(1.0 - beside, implicit_euler_fall(h, steps), 1e-12);
}

// 98 m at h = 1e-3 and 981 m at h = 1e-2 were where gravity used to vanish; farther is worse.
INSTANTIATE_TEST_SUITE_P(AllSolvers, FarBodyTest,
                         testing::Combine(testing::ValuesIn(solver_names()),
                                          testing::Values(FarCase{1e-3, 100.0}, FarCase{1e-3, 1e4},
                                                          FarCase{1e-2, 1e3}, FarCase{1e-2, 1e6})),
                         [](const testing::TestParamInfo<FarBodyTest::ParamType>& info) {
                           const FarCase& c = std::get<1>(info.param);
                           return std::get<0>(info.param) + "_h" + std::to_string(static_cast<int>(1.0 / c.h)) + "th_" +
                                  std::to_string(static_cast<long>(c.distance)) + "m";
                         });

class StoppingTest : public test::SolverTest {};

TEST_P(StoppingTest, AKilometreSizedBlockAtRestFallsToo) {
  // Its own size makes gravity's first step (g·h² = 1e-5 m at h = 1e-3) tiny against the tolerance;
  // the first Newton direction is taken all the same.
  const BodyDef block = test::box_body("block", Vec3::Constant(1000.0), Vec3(0, 0, 2000));
  const double h = 1e-3;
  const int steps = 10;
  EXPECT_NEAR(2000.0 - height_after(GetParam(), {block}, h, steps), implicit_euler_fall(h, steps), 1e-9);
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, StoppingTest, ::testing::ValuesIn(solver_names()), test::SolverName());

}  // namespace
}  // namespace affix
