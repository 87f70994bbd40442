#include "affix/app/run_scene.hpp"

#include <memory>
#include <utility>

#include "affix/io/scene_meshes.hpp"
#include "affix/model/model.hpp"
#include "affix/solvers/registry.hpp"

namespace affix {

RunResult run_scene(const Scene& scene, const RunOptions& options) {
  const auto model = std::make_shared<const Model>(compile(scene));
  const std::unique_ptr<Simulator> simulator = make_simulator(model);
  const auto write_meshes = [&](const std::filesystem::path& dir) {
    write_scene_meshes(dir / "meshes.json", *model);
  };
  return run_simulation(scene, *simulator, options, write_meshes);
}

RunResult run_scene(Scene&& scene, const RunOptions& options) {
  const auto model = std::make_shared<const Model>(compile(scene));
  RunInputs inputs = RunInputs::take(scene);
  scene = Scene();
  const std::unique_ptr<Simulator> simulator = make_simulator(model);
  const auto write_meshes = [&](const std::filesystem::path& dir) {
    write_scene_meshes(dir / "meshes.json", *model);
  };
  return run_simulation(std::move(inputs), *simulator, options, write_meshes);
}

}  // namespace affix
