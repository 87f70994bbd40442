#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include "affix/app/run_scene.hpp"
#include "affix/cli/commands.hpp"
#include "affix/cli/exit_codes.hpp"
#include "affix/io/interrupt.hpp"
#include "affix/io/number_format.hpp"
#include "affix/io/trajectory_format.hpp"
#include "affix/import/load_scene_file.hpp"

namespace affix::cli {

namespace {

/// A number for a person: four significant digits are plenty to read a timing or a distance.
std::string brief(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

/// Where the output went and what the run did, one labelled line per fact.
void print_report(std::ostream& out, const RunResult& r) {
  // Only the files that are there: a run that could not create one must not claim it.
  std::string written;
  for (const char* name :
       {"trajectory.csv", "trajectory.h5", "stats.csv", "joints.csv", "contacts.csv", "summary.json"}) {
    if (!std::filesystem::is_regular_file(r.out_dir / name)) continue;
    written += (written.empty() ? "" : ", ") + std::string(name);
  }
  out << "wrote " << r.out_dir.string() << ": " << (written.empty() ? "nothing" : written) << '\n';
  out << "  steps          " << r.steps << " of " << r.planned_steps << " (" << format_shortest(r.simulated_time)
      << " s simulated, solver " << r.solver << ", " << brief(r.wall_s) << " s wall)\n";
  out << "  ms per step    " << brief(r.median_ms) << " median, " << brief(r.max_ms) << " max\n";
  out << "  iterations     " << brief(r.mean_iterations) << " mean, " << r.max_iterations << " max";
  if (r.iteration_cap_hits > 0) out << " (" << r.iteration_cap_hits << " steps hit the cap)";
  out << '\n';
  out << "  min distance   " << (std::isfinite(r.min_distance) ? brief(r.min_distance) + " m" : "none near")
      << '\n';
  if (r.warnings > 0) {
    out << "  warnings       " << r.warnings << " (stats.csv column `warnings`; largest strain "
        << brief(100.0 * r.max_strain) << " %)\n";
  }
  out << "  completed      " << (r.completed ? "yes" : "no") << '\n';
}

}  // namespace

int run_command(const RunArgs& args) {
  // From here on Ctrl-C and SIGTERM only raise a flag: a signal while a large scene loads still ends
  // with the earlier run's files removed and an honest summary (the run loop sees the flag at once).
  const InterruptGuard interrupt_guard;
  // A bad --format is refused before the scene is read, like every other usage error.
  std::optional<TrajectoryFormat> format;
  if (args.format) format = parse_trajectory_format(*args.format);
  Scene scene = load_scene_file(args.scene);
  if (const std::optional<std::string> note = apply_overrides(args.overrides, scene.settings))
    std::cerr << "affix: note: " << *note << '\n';
  RunOptions options;
  options.out_dir = args.out_dir.value_or(std::filesystem::path("out") / scene.name);
  options.quiet = args.quiet;
  options.contacts = args.contacts;
  options.format = format;

  const RunResult result = run_scene(std::move(scene), options);  // the scene is dropped once compiled
  print_report(std::cout, result);
  if (result.completed) return kExitOk;
  std::cerr << "affix: simulation failed: " << result.error << '\n';
  return kExitSimulationFailed;
}

}  // namespace affix::cli
