#pragma once
// The subcommands of `affix`. Each returns its exit status (exit_codes.hpp) and lets an InputError
// escape, which main() prints as `affix: error: <message>` and turns into exit 2.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace CLI {
class App;
}

#include "affix/app/settings_overrides.hpp"

namespace affix::cli {

struct RunArgs {
  std::filesystem::path scene;
  std::optional<std::filesystem::path> out_dir;  ///< absent: out/<scene name>, relative to the cwd
  SettingsOverrides overrides;
  bool quiet = false;
  bool contacts = false;  ///< --contacts: write contacts.csv
  std::optional<std::string> format;  ///< --format csv|hdf5, checked by run_command; absent: by body count
};

/// `affix run`: simulates the scene, writes the run output (DESIGN §4), prints where it went and a
/// summary. kExitOk when the run completed, kExitSimulationFailed when it stopped early.
int run_command(const RunArgs& args);

/// `affix validate`: loads the scene and builds its simulator (every build-time check) without taking
/// a step; prints `<file>: ok (N bodies, M joints)`.
int validate_command(const std::filesystem::path& scene_file);

/// `affix info`: the settings with defaults filled in, and per body its shape, mesh size and mass
/// properties.
int info_command(const std::filesystem::path& scene_file);

/// A subcommand that owns its options: add_* registers it on the app and returns the action that runs
/// it once the command line has been parsed.
using Action = std::function<int()>;

/// `affix view OUT_DIR`: writes OUT_DIR/view.html, the interactive page of a run (view_command.cpp).
Action add_view(CLI::App& app);

/// `affix render OUT_DIR`: PNG frames of a run, optionally a GIF or MP4 (render_command.cpp).
Action add_render(CLI::App& app);

/// `affix import MODEL --out FILE`: an MJCF/URDF model written as a scene file (import_command.cpp).
Action add_import(CLI::App& app);

/// `affix generate KIND --out FILE`: writes a scene file of one family (generate_command.cpp).
Action add_generate(CLI::App& app);

}  // namespace affix::cli
