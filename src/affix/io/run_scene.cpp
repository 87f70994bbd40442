// run_simulation(scene, options): the one entry that needs a solver back-end; it also records the
// bodies' meshes (meshes.json) for viewers. It lives apart from the
// run loop (run.cpp) so that the loop and its tests link without any back-end.
#include <memory>

#include "affix/io/run.hpp"
#include "affix/io/scene_meshes.hpp"

namespace affix {

RunResult run_simulation(const Scene& scene, const RunOptions& options) {
  const std::unique_ptr<Simulator> simulator = make_simulator(scene);
  // The run loop creates the directory too; meshes.json is written first so a viewer can open a run
  // that is still going or that failed.
  std::error_code ignored;  // an unwritable directory is reported by the writer below, as bad input
  std::filesystem::create_directories(options.out_dir, ignored);
  write_scene_meshes(options.out_dir / "meshes.json", scene, build_affine_bodies(scene));
  return run_simulation(scene, *simulator, options);
}

}  // namespace affix
