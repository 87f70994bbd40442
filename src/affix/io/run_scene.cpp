// run_simulation(scene, options): the one entry that needs a solver back-end; it also records the
// bodies' meshes (meshes.json) for viewers. It lives apart from the run loop (run.cpp) so that the
// loop and its tests link without any back-end.
#include <memory>

#include "affix/io/run.hpp"
#include "affix/io/scene_meshes.hpp"

namespace affix {

RunResult run_simulation(const Scene& scene, const RunOptions& options) {
  // The simulator is built first: a scene it refuses leaves the output directory untouched.
  const std::unique_ptr<Simulator> simulator = make_simulator(scene);
  // meshes.json is written before the first step, so a viewer can open a run that is still going or
  // that failed.
  const auto write_meshes = [&](const std::filesystem::path& dir) {
    write_scene_meshes(dir / "meshes.json", scene, build_affine_bodies(scene));
  };
  return run_simulation(scene, *simulator, options, write_meshes);
}

}  // namespace affix
