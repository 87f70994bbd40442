// run_simulation(scene, options): the one entry that needs a solver back-end. It lives apart from the
// run loop (run.cpp) so that the loop and its tests link without any back-end.
#include <memory>

#include "affix/io/run.hpp"

namespace affix {

RunResult run_simulation(const Scene& scene, const RunOptions& options) {
  const std::unique_ptr<Simulator> simulator = make_simulator(scene);
  return run_simulation(scene, *simulator, options);
}

}  // namespace affix
