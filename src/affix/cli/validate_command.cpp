#include <iostream>
#include <string>

#include "affix/cli/commands.hpp"
#include "affix/cli/exit_codes.hpp"
#include "affix/import/load_scene_file.hpp"
#include "affix/model/model.hpp"
#include "affix/solvers/registry.hpp"

namespace affix::cli {

namespace {

std::string count(std::size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace

int validate_command(const std::filesystem::path& scene_file) {
  const Scene scene = load_scene_file(scene_file);
  // Compiling the model runs the checks that need geometry (closed meshes, mass properties, bodies that
  // start intersecting the ground or each other); the chosen solver then checks its own start
  // conditions on the model. No solver is built and no step is taken.
  check_model(compile(scene));
  std::cout << scene_file.string() << ": ok (" << count(scene.bodies.size(), "body", "bodies") << ", "
            << count(scene.joints.size(), "joint", "joints") << ")\n";
  return kExitOk;
}

}  // namespace affix::cli
