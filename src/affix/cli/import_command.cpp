// `affix import MODEL.xml|MODEL.urdf --out scene.json`: an MJCF or URDF model imported with MuJoCo's
// compiler (import/import_model.hpp) and written as an affix scene file. What the model has that affix
// cannot represent is listed in one warning on stderr; the scene written is the one `affix run MODEL`
// would simulate.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include "affix/cli/commands.hpp"
#include "affix/cli/exit_codes.hpp"
#include "affix/import/import_model.hpp"
#include "affix/scene/scene_writer.hpp"

namespace affix::cli {

namespace {

struct ImportArgs {
  std::filesystem::path model;
  std::filesystem::path out;
};

int import_command(const ImportArgs& args) {
  const ImportedModel imported = import_model_report(args.model);
  print_import_warnings(std::cerr, args.model, imported);
  save_scene(imported.scene, args.out);
  std::cout << args.out.string() << ": " << imported.scene.bodies.size() << " bodies, "
            << imported.scene.joints.size() << " joints, " << imported.scene.exclusions.size()
            << " contact exclusions\n";
  return kExitOk;
}

}  // namespace

Action add_import(CLI::App& app) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "import", "Import an MJCF (.xml) or URDF (.urdf) model with MuJoCo's compiler; write it as a scene file");
  // The mapping in short, under the options of `affix import --help` (README "Importing MJCF and URDF").
  cmd->footer(
      "Bodies keep the model's mass, centre of mass and inertia; geoms become one compound shape per body;\n"
      "hinge/slide/ball joints keep their ranges as limits (several joints in one body: a chain of virtual\n"
      "links); connect/weld equalities become ball/fixed joints; contype/conaffinity become collision\n"
      "groups and exclusions; the +z floor plane the ground; timestep and gravity the settings. What has no\n"
      "affix equivalent (actuators, tendons, sensors, sites, joint springs, ...) is listed in one warning.\n"
      "`affix run|validate|info MODEL.xml` import the same way without writing a file.");
  cmd->add_option("model", args->model, "MJCF (.xml, .mjcf) or URDF (.urdf) file")->required();
  cmd->add_option("--out", args->out, "Scene file to write (JSON)")->required();
  return [args] { return import_command(*args); };
}

}  // namespace affix::cli
