// The peers this binary links, each at its defaults, in every mode the comparison asks for.
#include "engine.hpp"

namespace affix::peers {

std::unique_ptr<Engine> make_mujoco(const BenchInput& input);
std::unique_ptr<Engine> make_bullet(const BenchInput& input);
std::unique_ptr<Engine> make_bullet_multibody(const BenchInput& input);
std::unique_ptr<Engine> make_ode(const BenchInput& input, bool quick);

std::vector<EngineSpec> peer_engines() {
  return {
      {"MuJoCo 2.2.2", "Newton", false, make_mujoco},
      {"Bullet 3.24", "sequential impulse", false, make_bullet},
      {"Bullet 3.24", "btMultiBody", false, make_bullet_multibody},
      {"ODE 0.16.2", "dWorldStep", false, [](const BenchInput& input) { return make_ode(input, false); }},
      {"ODE 0.16.2", "dWorldQuickStep", false, [](const BenchInput& input) { return make_ode(input, true); }},
  };
}

}  // namespace affix::peers
