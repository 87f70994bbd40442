// Chen 2022 §6.2.1–6.2.2 restitution study on examples/joints/falling_box.json: a 1 m cube dropped
// from 1 m (g = 8, body stiffness 1e9, fixed κ, d̂ = 0.064 m, h = 1e-3). The scaled energy
//   E = (m g z_com + KE − E_rest) / (E₀ − E_rest)
// is 1 at the start and 0 at rest, E_rest being the resting energy: the centre at 0.5 m plus the
// equilibrium gap d_eq of the four bottom corners, where 4 κ |b'(d_eq)| = m g, and the barrier energy
// 4 κ b(d_eq) stored there. The energy a bounce keeps is E at the apex after it (KE ≈ 0 there).
// On every solver with ground contact and BDF-2: the resting state above is ipc's barrier equilibrium;
// a solver without a barrier rests at the half height with nothing stored.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "affix/energy/barrier.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/ipc/ipc_settings.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

using test::Feature;

class Restitution : public test::SolverTest {};

Scene falling_box(Integrator integrator, double damping) {
  Scene scene = load_scene(std::string(AFFIX_SOURCE_DIR) + "/examples/joints/falling_box.json");
  scene.settings.integrator = integrator;
  scene.settings.duration = 1.2;
  scene.bodies[0].damping = damping;
  return scene;
}

/// The gap d at which the four bottom corners carry the weight: 4 κ |b'(d)| = m g (bisection; |b'|
/// falls from ∞ at 0 to 0 at d̂).
double equilibrium_gap(double weight, double kappa, double dhat) {
  double lo = 1e-12 * dhat, hi = dhat;
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    (4.0 * kappa * std::abs(barrier_first_derivative(mid, dhat)) > weight ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

struct Bounce {
  double kept = 0.0;     ///< scaled energy at the apex after the first bounce
  double apex = 0.0;     ///< z of the centre there (m)
  double t_apex = 0.0;   ///< s
  double lowest = 0.0;   ///< lowest z of the centre during the bounce (m)
  double rest_z = 0.0;   ///< resting height of the centre (m)
  double wall_s = 0.0;
};

Bounce first_bounce(const std::string& solver, Integrator integrator, double damping) {
  const Scene scene = falling_box(integrator, damping);
  const auto model = test::compiled(scene, solver);
  const auto sim = make_simulator(model);
  const ModelBody& box = model->bodies[0];
  const IpcSettings ipc = read_ipc_settings(scene.settings, scene.file);
  const double g = -scene.settings.gravity.z(), kappa = *ipc.kappa, dhat = ipc.dhat;
  const double half_height = 0.5;
  const bool barrier_rest = solver == "ipc";  // ipc rests on its barrier, the others on the ground
  const double d_eq = barrier_rest ? equilibrium_gap(box.mass * g, kappa, dhat) : 0.0;
  Bounce r;
  r.rest_z = half_height + d_eq;
  const double e_rest = box.mass * g * r.rest_z + (barrier_rest ? 4.0 * kappa * barrier(d_eq, dhat) : 0.0);
  const auto z_of = [&](const BodyPose& pose) { return (pose.A * box.center_of_mass + pose.p).z(); };
  const double e0 = box.mass * g * z_of(sim->poses()[0]);

  double z_previous = z_of(sim->poses()[0]);
  r.lowest = z_previous;
  bool rising = false, done = false;
  const int steps = static_cast<int>(std::lround(scene.settings.duration / scene.settings.dt));
  for (int n = 1; n <= steps && !done; ++n) {
    const StepStats stats = sim->step();
    r.wall_s += stats.wall_ms * 1e-3;
    const double z = z_of(sim->poses()[0]);
    if (!rising) {
      r.lowest = std::min(r.lowest, z);
      rising = z > z_previous && z < half_height + dhat;  // moving up off the ground: the bounce
    } else if (z <= z_previous) {
      done = true;  // past the apex
    }
    if (rising && z > r.apex) {
      r.apex = z;
      r.t_apex = sim->time();
      r.kept = (box.mass * g * z + stats.kinetic_energy - e_rest) / (e0 - e_rest);
    }
    z_previous = z;
  }
  if (!done) r.kept = std::max(r.kept, 0.0);  // still rising at the end, or never left the ground
  EXPECT_TRUE(done) << "no apex after the first bounce within the run (k_d = " << damping << ")";
  return r;
}

void print(const char* label, double damping, const Bounce& b) {
  std::printf("%s, k_d = %g s: kept %.4f (apex z %.4f m at t = %.3f s, lowest z %.4f m, rest z %.5f m; %.2f s wall)\n",
              label, damping, b.kept, b.apex, b.t_apex, b.lowest, b.rest_z, b.wall_s);
}

TEST_P(Restitution, Bdf2WithoutDampingKeepsAlmostAllTheEnergyOfABounce) {
  AFFIX_REQUIRE(GetParam(), Feature::ground_contact, Feature::bdf2);
  const Bounce b = first_bounce(GetParam(), Integrator::bdf2, 0.0);
  print("BDF-2", 0.0, b);
  RecordProperty("bdf2_kept", std::to_string(b.kept));
  EXPECT_GE(b.kept, 0.95);  // Chen reports about 0.99
  EXPECT_LE(b.kept, 1.0 + 1e-3) << "no energy is created";
  EXPECT_GT(b.lowest, 0.5) << "the box never reaches the ground";
}

TEST_P(Restitution, ContactDampingLowersTheBounceMonotonically) {
  AFFIX_REQUIRE(GetParam(), Feature::ground_contact, Feature::bdf2, Feature::damping);
  // 1e-2 s already takes the whole bounce (kept ≈ 0), so the smallest of the three is 3e-4 s.
  const double dampings[] = {0.0, 3e-4, 1e-3, 3e-3};
  double previous = 2.0;
  for (double kd : dampings) {
    const Bounce b = first_bounce(GetParam(), Integrator::bdf2, kd);
    print("BDF-2", kd, b);
    RecordProperty("bdf2_kept_kd_" + std::to_string(kd), std::to_string(b.kept));
    EXPECT_LT(b.kept, previous - 0.02) << "k_d = " << kd << " should keep clearly less than the smaller k_d";
    previous = b.kept;
  }
}

TEST_P(Restitution, ImplicitEulerKeepsVisiblyLessThanBdf2) {
  AFFIX_REQUIRE(GetParam(), Feature::ground_contact, Feature::bdf2);
  const Bounce bdf2 = first_bounce(GetParam(), Integrator::bdf2, 0.0);
  const Bounce euler = first_bounce(GetParam(), Integrator::implicit_euler, 0.0);
  print("BDF-2", 0.0, bdf2);
  print("implicit Euler", 0.0, euler);
  RecordProperty("euler_kept", std::to_string(euler.kept));
  EXPECT_LT(euler.kept, bdf2.kept - 0.05);
}

/// Chen 2022 §6.2.2, right of Fig. 19: the rotating board (examples/joints/rotating_board.json) with
/// Rayleigh damping k_d on its hinge limit. Returns the angular speed about the hinge after it has
/// bounced back off the +30° stop, over the speed it arrived with.
double board_rebound(const std::string& solver, double damping) {
  Scene scene = load_scene(std::string(AFFIX_SOURCE_DIR) + "/examples/joints/rotating_board.json");
  scene.settings.duration = 1.0;
  scene.joints[0].damping = damping;
  const auto sim = test::simulate(scene, solver);
  const double omega0 = scene.bodies[0].angular_velocity.z();
  double omega = omega0;
  for (int n = 0; n < 1000; ++n) {
    sim->step();
    omega = (sim->velocities()[0].A_dot * sim->poses()[0].A.transpose())(1, 0);  // [ω]ₓ = Ȧ Aᵀ, ω_z = (1, 0)
  }
  return -omega / omega0;
}

TEST_P(Restitution, LimitDampingLowersTheReboundOfAHingeStopMonotonically) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge, Feature::joint_limits, Feature::bdf2, Feature::damping);
  double previous = 2.0;
  for (double damping : {0.0, 1e-3, 1e-2}) {
    const double rebound = board_rebound(GetParam(), damping);
    std::printf("rotating board, limit k_d = %g s: rebound speed ratio %.4f\n", damping, rebound);
    EXPECT_LT(rebound, previous - 0.02) << "k_d = " << damping;
    EXPECT_GT(rebound, -1e-9) << "a damped stop does not pull the board through it";
    previous = rebound;
  }
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, Restitution, ::testing::ValuesIn(solver_names()), test::SolverName());

}  // namespace
}  // namespace affix
