// `affix generate KIND [options] --out FILE`: writes a scene file of one of the families that users and
// benchmarks need, built by the option table of app/generate_options and written with save_scene. Each
// kind is a subcommand owning its options; --out and the settings options belong to `generate` and are
// reachable after the kind (CLI11 fallthrough).
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "affix/app/generate_options.hpp"
#include "affix/cli/commands.hpp"
#include "affix/cli/exit_codes.hpp"
#include "affix/scene/scene_writer.hpp"

namespace affix::cli {

namespace {

struct GenerateCommandArgs {
  GenerateArgs options;
  std::filesystem::path out;
};

int generate_command(const std::string& kind, const GenerateArgs& args, const std::filesystem::path& out) {
  Scene scene = generated_scene(kind, args);
  scene.name = out.stem().string();
  scene.file = out;
  save_scene(scene, out);
  std::cout << "wrote " << out.string() << ": " << kind << ", " << scene.bodies.size()
            << (scene.bodies.size() == 1 ? " body, " : " bodies, ") << scene.joints.size()
            << (scene.joints.size() == 1 ? " joint\n" : " joints\n");
  return kExitOk;
}

}  // namespace

Action add_generate(CLI::App& app) {
  auto args = std::make_shared<GenerateCommandArgs>();
  CLI::App* generate = app.add_subcommand(
      "generate", std::string("Write a scene file of one family: ") + kGenerateKinds + " (affix generate KIND --help)");
  generate->add_option("--out,-o", args->out, "Scene file to write (JSON)")->required();
  add_generate_options(*generate, args->options);
  return [args, generate] { return generate_command(chosen_kind(*generate, args->options), args->options, args->out); };
}

}  // namespace affix::cli
