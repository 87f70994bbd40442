// `affix`: the command-line entry. Parses the command line (CLI11), runs one subcommand, and turns
// what went wrong into one line on stderr and an exit status (exit_codes.hpp, DESIGN §4).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <csignal>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "affix/cli/commands.hpp"
#include "affix/cli/exit_codes.hpp"
#include "affix/error.hpp"
#include "affix/io/trajectory_format.hpp"

// The build may pass the project version (CMake's PROJECT_VERSION); this is the fallback.
#ifndef AFFIX_VERSION
#define AFFIX_VERSION "0.1.0"
#endif

namespace affix::cli {

namespace {

/// What the user typed, filled in by the parser.
struct Arguments {
  RunArgs run;
  std::filesystem::path validate_scene;
  std::filesystem::path info_scene;
  Action view;
  Action render;
  Action generate;
  Action import_model;
};

void add_run(CLI::App& app, RunArgs& args) {
  CLI::App* run = app.add_subcommand("run", "Simulate a scene; write trajectory.csv, stats.csv, summary.json");
  run->add_option("scene", args.scene, "Scene file (JSON), or an MJCF/URDF model imported on the fly")->required();
  run->add_option("--out", args.out_dir, "Output directory (default: out/<scene name>)");
  run->add_option("--solver", args.overrides.solver, "Solver, replacing settings.solver");
  run->add_option("--dt", args.overrides.dt, "Time step in s, replacing settings.dt");
  run->add_option("--duration", args.overrides.duration, "Simulated time in s, replacing settings.duration");
  run->add_flag("--contacts", args.contacts,
                "Also write contacts.csv: each output frame's contacts (point, normal, gap, force)");
  run->add_option("--format", args.format,
                  "Trajectory file: csv (trajectory.csv) or hdf5 (trajectory.h5); default csv up to " +
                      std::to_string(kMaxCsvTrajectoryBodies) + " bodies, hdf5 above");
  run->add_flag("--quiet,-q", args.quiet, "No progress line");
}

void add_validate(CLI::App& app, std::filesystem::path& scene) {
  CLI::App* validate = app.add_subcommand("validate", "Check a scene file and build its bodies; take no step");
  validate->add_option("scene", scene, "Scene file (JSON), or an MJCF/URDF model")->required();
}

void add_info(CLI::App& app, std::filesystem::path& scene) {
  CLI::App* info = app.add_subcommand("info", "Print a scene's settings and its bodies' mass properties");
  info->add_option("scene", scene, "Scene file (JSON), or an MJCF/URDF model")->required();
}

int dispatch(const CLI::App& app, const Arguments& args) {
  if (app.got_subcommand("run")) return run_command(args.run);
  if (app.got_subcommand("view")) return args.view();
  if (app.got_subcommand("render")) return args.render();
  if (app.got_subcommand("generate")) return args.generate();
  if (app.got_subcommand("import")) return args.import_model();
  if (app.got_subcommand("validate")) return validate_command(args.validate_scene);
  return info_command(args.info_scene);
}

/// Error messages are one line by contract; a stray line break would split them.
std::string one_line(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  return message;
}

}  // namespace

int run_cli(int argc, char** argv) {
  // Past a file-size limit (ulimit -f) a write must fail with EFBIG, which the run reports with the
  // file's name and a summary, instead of SIGXFSZ killing the process mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app("affix: multibody dynamics with joints and contact", "affix");
  app.set_version_flag("--version", std::string("affix ") + AFFIX_VERSION);
  app.require_subcommand(1);
  Arguments args;
  add_run(app, args.run);
  add_validate(app, args.validate_scene);
  add_info(app, args.info_scene);
  args.view = add_view(app);
  args.render = add_render(app);
  args.generate = add_generate(app);
  args.import_model = add_import(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // A usage error in the one-line form of every other error (DESIGN §4), not CLI11's two lines.
    std::cerr << "affix: error: " << one_line(e.what()) << " (see affix --help)\n";
    return kExitBadInput;
  }
  try {
    return dispatch(app, args);
  } catch (const InputError& e) {
    std::cerr << "affix: error: " << one_line(e.what()) << '\n';
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    // Not a C++ detail for the user: what ran out, and what to do about it.
    std::cerr << "affix: error: out of memory: the scene or the run needs more memory than this machine "
                 "has (fewer or coarser bodies, or a shorter run with fewer frames)\n";
    return kExitSimulationFailed;
  } catch (const std::exception& e) {
    // Not the user's input: an output file that could not be written, a failure inside a solver.
    std::cerr << "affix: error: " << one_line(e.what()) << '\n';
    return kExitSimulationFailed;
  }
}

}  // namespace affix::cli

int main(int argc, char** argv) { return affix::cli::run_cli(argc, argv); }
