// affix_peers: the side-by-side benchmark of issue 13 (bench/peers/README.md). Every scene of
// cases.cpp — or one scene file — is built in every affix solver and in MuJoCo, Bullet and ODE, each
// run in a child process of its own on one thread within a time budget, and measured from its poses by
// one piece of code (measures.hpp); the tables go to a Markdown page (docs/benchmarks.md).
//
//   affix_peers [--quick] [--budget S] [--family F] [--size S] [--engine E] [--out FILE]   the benchmark scenes
//   affix_peers --scene FILE.json [--budget S]                      one scene, its table on stdout
//
// Exit 0 when every run produced a row (whatever its status); with --quick, 1 when a run failed (an
// error or a crash rather than a result); 2 for bad input.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "affix/error.hpp"
#include "affix/model/model.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/registry.hpp"
#include "cases.hpp"
#include "engine.hpp"
#include "measures.hpp"
#include "report.hpp"
#include "trial.hpp"

namespace {

using namespace affix;
using namespace affix::peers;

std::string first_line_of(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[512];
    if (std::fgets(buffer, sizeof buffer, pipe)) out = buffer;
    pclose(pipe);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string load_average() { return first_line_of("cut -d' ' -f1-3 /proc/loadavg"); }

std::string header(bool quick, double budget, const std::string& load_at_start) {
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  std::ostringstream s;
  s << "# affix side by side with MuJoCo, Bullet and ODE\n\n"
    << "Written by `make bench-peers" << (quick ? " QUICK=1" : "") << "` (`build/release/bench/peers/affix_peers"
    << (quick ? " --quick" : "") << " --out docs/benchmarks.md`; harness and translation choices: "
    << "[bench/peers/README.md](../bench/peers/README.md)).\n\n"
    << "- Date: " << date << "; affix commit "
    << first_line_of("git -C " AFFIX_SOURCE_DIR " rev-parse --short HEAD 2>/dev/null") << "\n"
    << "- Machine: " << first_line_of("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'") << ", "
    << std::thread::hardware_concurrency() << " cores, "
    << first_line_of("awk '/MemTotal/ {printf \"%.0f GB\", $2/1048576}' /proc/meminfo") << "; "
    << first_line_of("uname -sr") << "; " << first_line_of("c++ --version | head -1") << "\n"
    << "- Every run on one thread, in a child process of its own, with a budget of " << budget
    << " s of stepping time (setup and measuring not counted): a run that reaches it stops and is marked "
       "partial, and its measures cover the steps it made; a run still inside one step long after it is "
       "killed, keeping the measures of its last snapshot. **The machine is shared with other engineers' builds and tests**, so "
       "times carry their load (two cores for everyone; load average " << load_at_start << " when the run began, "
    << load_average() << " when it ended); ratios within a table were taken minutes apart.\n"
    << "- Measures, all computed from the bodies' poses by one piece of code (bench/peers/measures.hpp): "
       "ms/step is the median wall time of the engine's step call; joint gap the largest distance between a "
       "joint's two anchors as its bodies carry them; body pen. and ground pen. the largest penetration depth "
       "between bodies and into the ground (exact for boxes, spheres and capsules); energy drift (E_end − E_0) over the most "
       "energy in motion or released at any step (−1: all of it dissipated, 0: conserved, > 0: energy made); "
       "intact: a complete run with joint gap < 1 mm, penetrations < 1 cm and no blow-up (so far: the same for "
       "the steps a partial run made); the last column divides an affix solver's ms/step by the fastest intact "
       "peer's.\n"
    << "- Statuses: complete; partial (the budget reached, or killed in a step or in setup past its limit); blew up "
       "(a non-finite or far-away body, or the engine's own verdict: MuJoCo's instability check, an affix "
       "solver's SimulationError); refused (the engine cannot translate or run what the scene asks, with the JSON "
       "path); cannot run (an affix solver whose SolverCapabilities lack the contact a contact scene is about; not "
       "started); failed (an error or a crash).\n";
  return s.str();
}

/// Whether any two bodies of the model may touch each other.
bool has_body_pairs(const Model& model) {
  const int n = static_cast<int>(model.bodies.size());
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (model.may_collide(i, j)) return true;
    }
  }
  return false;
}

/// What an affix solver's capabilities leave out of this scene (it runs it anyway, and the measures
/// show the consequence), or "".
std::string capability_caveat(const EngineSpec& spec, const Model& model, bool body_pairs) {
  if (!spec.affix) return "";
  const SolverCapabilities caps = solver_capabilities(spec.engine.substr(std::string("affix ").size()));
  if (body_pairs && !caps.body_contact) return "no body-body contact (solver capabilities): bodies pass through each other";
  if (model.ground && !caps.ground_contact) return "no ground contact (solver capabilities)";
  return "";
}

/// Why an affix solver cannot run a contact scene (BenchCase::contact), from its declared capabilities,
/// or "": a pile or a wall without body–body contact would only measure bodies falling through each
/// other. Joint types and limits it lacks are refused by the solver itself (check_model, naming the path).
std::string cannot_run(const EngineSpec& spec, const BenchCase& bench, const Model& model) {
  if (!spec.affix || !bench.contact) return "";
  const std::string name = spec.engine.substr(std::string("affix ").size());
  const SolverCapabilities caps = solver_capabilities(name);
  if (!caps.body_contact) return "a contact scene; the " + name + " solver has no body-body contact (SolverCapabilities)";
  if (model.ground && !caps.ground_contact) return "a contact scene; the " + name + " solver has no ground contact (SolverCapabilities)";
  return "";
}

std::string engine_filter;  // --engine
std::string size_filter;    // --size

CaseResult run_case(const BenchCase& bench, Scene scene, const TrialLimits& limits) {
  CaseResult result;
  result.bench = bench;
  const Model model = compile(scene);
  const BenchInput input{scene, model};
  result.bodies = model.bodies.size();
  result.joints = model.joints.size();
  for (const ModelBody& body : model.bodies) result.triangles += body.mesh->faces.size();
  result.dt = model.settings.dt;
  result.steps = static_cast<int>(std::llround(model.settings.duration / model.settings.dt));
  result.blow_up_radius = blow_up_radius(model);
  std::vector<EngineSpec> specs = affix_engines();
  for (EngineSpec& peer : peer_engines()) {
    if (!bench.affix_and_bullet_only || peer.engine.rfind("Bullet", 0) == 0) specs.push_back(std::move(peer));
  }
  const bool body_pairs = has_body_pairs(model);
  for (const EngineSpec& spec : specs) {
    if (spec.engine.find(engine_filter) == std::string::npos) continue;
    if (const std::string why = cannot_run(spec, bench, model); !why.empty()) {
      TrialResult refused;
      refused.status = "cannot run";
      refused.note = why;
      refused.steps_planned = result.steps;
      result.runs.emplace_back(spec, std::move(refused));
      continue;
    }
    std::cerr << "  " << spec.engine << " (" << spec.mode << ") ... " << std::flush;
    const auto start = std::chrono::steady_clock::now();
    TrialResult run = run_trial(input, spec, limits);
    std::cerr << run.status << ", " << run.measures.steps << " steps, "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s"
              << (run.note.empty() ? "" : " (" + run.note + ")") << "\n";
    if (const std::string caveat = capability_caveat(spec, model, body_pairs); !caveat.empty()) {
      run.note = run.note.empty() ? caveat : caveat + "; " + run.note;
    }
    result.runs.emplace_back(spec, std::move(run));
  }
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("affix side by side with MuJoCo, Bullet and ODE (bench/peers/README.md)");
  bool quick = false;
  double budget = 10.0;
  std::string family, out, scene_file;
  app.add_flag("--quick", quick, "The smallest scene of each family, 3 s budget (the `bench` ctest)");
  app.add_option("--budget", budget, "Budget of one run's stepping time in s (default 10; 3 with --quick)");
  app.add_option("--family", family, "Only this family: chain, net, pile, wrecking-ball, showcase");
  app.add_option("--size", size_filter, "Only the cases whose size contains this (\"N = 100\", \"crane\")");
  app.add_option("--out", out, "Markdown page to write (default: stdout)");
  app.add_option("--engine", engine_filter, "Only the engines whose name contains this (\"MuJoCo\", \"affix\")");
  app.add_option("--scene", scene_file, "Run one scene file instead of the benchmark scenes");
  CLI11_PARSE(app, argc, argv);
  if (quick && app.count("--budget") == 0) budget = 3.0;
  TrialLimits limits;
  limits.budget_s = budget;
  int exit_code = 0;
  const std::string load_at_start = load_average();
  try {
    std::vector<CaseResult> results;
    if (!scene_file.empty()) {
      const BenchCase bench{"scene", scene_file, "affix_peers --scene " + scene_file, nullptr};
      results.push_back(run_case(bench, load_scene(scene_file), limits));
    } else {
      for (const BenchCase& bench : bench_cases(quick)) {
        if (!family.empty() && bench.family != family) continue;
        if (!size_filter.empty() && bench.size.find(size_filter) == std::string::npos) continue;
        std::cerr << bench.family << ", " << bench.size << "\n";
        results.push_back(run_case(bench, bench.make(), limits));
      }
    }
    const std::string page = benchmarks_page(header(quick, budget, load_at_start), results);
    if (quick) {
      // The `bench` ctest: every run must end in a row of its own making — complete, partial, blown up
      // or refused with a reason — not a failure or crash of the harness or an engine.
      for (const CaseResult& r : results) {
        for (const auto& [spec, run] : r.runs) {
          if (run.status == "failed") {
            std::cerr << "affix_peers: " << r.bench.family << ", " << r.bench.size << ": " << spec.engine << " ("
                      << spec.mode << ") failed: " << run.note << "\n";
            exit_code = 1;
          }
        }
      }
    }
    if (out.empty()) {
      std::cout << page;
    } else {
      std::ofstream(out) << page;
      std::cerr << "wrote " << out << "\n";
    }
  } catch (const InputError& e) {
    std::cerr << "affix_peers: error: " << e.what() << "\n";
    return 2;
  }
  return exit_code;
}
