// The ipc solver on the scenes of issue 12: Lan 2022 Table 1 (a free steel ball thrown into a wall of
// blocks, light / medium / full × h = 1/100, 1/240, 1/1000), the chain curve (ball-joint chains of 100,
// 1,000 and 10,000 links with a 1000× end mass at h = 1e-2), one ragdoll over 3 s, ten ragdolls and
// 1,000 dropped bodies over 1 s. Not a test and not Google Benchmark: each scene runs once from a fresh
// solver, each step timed alone, and a scene too slow for its wall-clock budget is cut off there and
// reported as such (the steps it ran of those planned). Each scene runs in a child process: the budget
// is checked between steps, and a scene whose single step outlasts (thread counts + 1) budgets plus a
// minute is killed and reported as cut off.
//
//   affix_bench_ipc [--quick] [--budget S] [--threads 1,2] [SCENE ...]
//     SCENE: light100 light240 light1000 medium100 … full1000 chain100 chain1000 chain10000 ragdoll
//            ragdolls10 drop1000 (default: all)
//     --quick     3 steps of each scene, for the `bench` ctest label (a smoke test: it runs, it prints)
//     --budget S  wall seconds per scene and thread count (default 120)
//     --threads   the thread counts to run each scene with (tbb::global_control), default 1,2; the
//                 second and later counts run as many steps as the first did, and the last column is
//                 the first count's mean ms per step over theirs
//
// One Markdown table row per scene: bodies, triangles, steps run of planned, mean Newton iterations per
// step, ms per step (median and mean) with the first thread count, steps at the iteration cap, the
// smallest contact distance any step reported, the largest joint error, then mean ms per step with each
// further thread count and the speed-up. CHOLMOD's BLAS may thread on its own: run with
// OMP_NUM_THREADS=1 for one-thread numbers.
#include <signal.h>
#include <sys/wait.h>
#include <tbb/global_control.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "affix/model/model.hpp"
#include "affix/scene/generate/chain.hpp"
#include "affix/scene/generate/wrecking_ball.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/registry.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kQuickSteps = 3;

struct BenchScene {
  std::string name;
  std::string source;  // the generate command or example file
  std::function<affix::Scene()> make;
  double h = 0.01;
  double duration = 1.0;
};

std::vector<BenchScene> scenes() {
  using namespace affix::generate;
  std::vector<BenchScene> all;
  for (const auto variant : {WreckingBallVariant::light, WreckingBallVariant::medium, WreckingBallVariant::full}) {
    for (const int per_second : {100, 240, 1000}) {
      const std::string v = to_string(variant);
      all.push_back({v + std::to_string(per_second), "wrecking-ball --variant " + v + " --free-ball",
                     [variant] { return wrecking_ball({variant_blocks(variant), true}); }, 1.0 / per_second, 1.0});
    }
  }
  for (const long long links : {100LL, 1'000LL, 10'000LL}) {
    all.push_back({"chain" + std::to_string(links),
                   "chain --links " + std::to_string(links) + " --end-mass-ratio 1000",
                   [links] { return chain({links, 1000.0, ChainJoint::ball}); }, 0.01, 1.0});
  }
  const auto example = [](const std::string& path) {
    return [path] { return affix::load_scene(std::string(AFFIX_SOURCE_DIR) + "/" + path); };
  };
  all.push_back({"ragdoll", "examples/joints/ragdoll.json", example("examples/joints/ragdoll.json"), 0.01, 3.0});
  all.push_back({"ragdolls10", "examples/joints/ragdolls_10.json", example("examples/joints/ragdolls_10.json"),
                 0.01, 3.0});
  all.push_back({"drop1000", "examples/drop_1000.json", example("examples/drop_1000.json"), 0.01, 1.0});
  return all;
}

struct RunResult {
  std::vector<double> ms;     // per step
  double iterations = 0.0;    // summed
  int capped = 0;
  double min_distance = std::numeric_limits<double>::infinity();
  double joint_error = 0.0;
  std::string error;          // a failed run's reason
};

/// Steps a fresh solver up to `steps` times, or until `budget_s` of wall time has gone.
RunResult run(const std::shared_ptr<const affix::Model>& model, int steps, double budget_s, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  RunResult r;
  try {
    const std::unique_ptr<affix::Simulator> simulator = affix::make_simulator(model);
    const Clock::time_point start = Clock::now();
    for (int n = 0; n < steps; ++n) {
      const Clock::time_point t = Clock::now();
      const affix::StepStats s = simulator->step();
      r.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
      r.iterations += s.iterations;
      r.capped += s.hit_iteration_cap ? 1 : 0;
      r.min_distance = std::min(r.min_distance, s.min_distance);
      r.joint_error = std::max(r.joint_error, s.max_joint_error);
      if (std::chrono::duration<double>(Clock::now() - start).count() > budget_s) break;
    }
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

double mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return 0.5 * (v[(v.size() - 1) / 2] + v[v.size() / 2]);
}

std::size_t triangles(const affix::Model& model) {
  std::size_t count = 0;
  for (const affix::ModelBody& b : model.bodies) count += b.mesh ? b.mesh->faces.size() : 0;
  return count;
}

std::vector<int> parse_threads(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const int t = std::atoi(item.c_str());
    if (t < 1) throw std::invalid_argument("--threads " + text + ": expected counts ≥ 1 separated by commas");
    out.push_back(t);
  }
  if (out.empty()) throw std::invalid_argument("--threads: expected at least one count");
  return out;
}

int bench_scene(const BenchScene& bench, bool quick, double budget_s, const std::vector<int>& threads);

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  double budget_s = 120.0;
  std::vector<int> threads{1, 2};
  std::vector<std::string> wanted;
  try {
    for (int k = 1; k < argc; ++k) {
      const std::string a = argv[k];
      if (a == "--quick") {
        quick = true;
      } else if (a == "--budget" && k + 1 < argc) {
        budget_s = std::atof(argv[++k]);
      } else if (a == "--threads" && k + 1 < argc) {
        threads = parse_threads(argv[++k]);
      } else if (a.rfind("--", 0) == 0) {
        throw std::invalid_argument(a + ": unknown option (--quick, --budget S, --threads 1,2)");
      } else {
        wanted.push_back(a);
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "affix_bench_ipc: " << e.what() << "\n";
    return 2;
  }
  const std::vector<BenchScene> all = scenes();
  if (wanted.empty()) {
    // Quick mode keeps to the scenes that take milliseconds per step.
    for (const BenchScene& b : all)
      if (!quick || b.name.rfind("light", 0) == 0 || b.name == "chain100" || b.name == "ragdoll") wanted.push_back(b.name);
  }

  std::printf("| scene | from | h (s) | bodies | triangles | steps run / planned | Newton it./step (mean) | "
              "ms/step median (%d thr.) | ms/step mean (%d thr.) | steps at cap | min distance (m) | "
              "largest joint error (m)",
              threads[0], threads[0]);
  for (std::size_t t = 1; t < threads.size(); ++t) std::printf(" | ms/step mean (%d thr.) | speed-up", threads[t]);
  std::printf(" |\n|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (std::size_t t = 1; t < threads.size(); ++t) std::printf("---|---|");
  std::printf("\n");
  std::fflush(stdout);

  int failures = 0;
  for (const std::string& name : wanted) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const BenchScene& b) { return b.name == name; });
    if (it == all.end()) {
      std::cerr << "affix_bench_ipc: unknown scene '" << name << "'\n";
      return 2;
    }
    // A child per scene: the budget is checked between steps, so a scene whose single step outlasts
    // it (a long chain at today's speed) is stopped from outside, at a hard limit, and reported.
    const double hard_limit_s = budget_s * static_cast<double>(threads.size() + 1) + 60.0;
    const pid_t child = ::fork();
    if (child == 0) std::_Exit(bench_scene(*it, quick, budget_s, threads));
    const Clock::time_point start = Clock::now();
    int status = 0;
    bool cut = false;  // a scene cut off is a result, not a failure
    while (::waitpid(child, &status, WNOHANG) == 0) {
      if (std::chrono::duration<double>(Clock::now() - start).count() > hard_limit_s) {
        ::kill(child, SIGKILL);
        cut = true;
        ::waitpid(child, &status, 0);
        std::printf("| %s | `%s` | %.6g | cut off: no result within %.0f s (a step outlasts the budget) |\n",
                    it->name.c_str(), it->source.c_str(), it->h, hard_limit_s);
        std::fflush(stdout);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (!cut && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) ++failures;
  }
  return failures == 0 ? 0 : 1;
}

namespace {

/// Runs one scene on each thread count and prints its row; the number of failed runs.
int bench_scene(const BenchScene& bench, bool quick, double budget_s, const std::vector<int>& threads) {
  const BenchScene* it = &bench;
  int failures = 0;
  {
    affix::Scene scene = it->make();
    scene.settings.solver = "ipc";
    scene.settings.dt = it->h;
    scene.settings.duration = it->duration;
    const auto model = std::make_shared<const affix::Model>(affix::compile(scene));
    const int planned = quick ? kQuickSteps : static_cast<int>(std::ceil(it->duration / it->h - 1e-9));
    const RunResult first = run(model, planned, budget_s, threads[0]);
    const int ran = static_cast<int>(first.ms.size());
    std::printf("| %s | `%s` | %.6g | %zu | %zu | %d / %d%s | %.2f | %.1f | %.1f | %d | %.3g | %.1e", it->name.c_str(),
                it->source.c_str(), it->h, model->bodies.size(), triangles(*model), ran, planned,
                ran < planned ? (first.error.empty() ? " (budget)" : " (failed)") : "",
                ran > 0 ? first.iterations / ran : 0.0, median(first.ms), mean(first.ms), first.capped,
                first.min_distance, first.joint_error);
    for (std::size_t t = 1; t < threads.size(); ++t) {
      const RunResult other = run(model, ran, std::numeric_limits<double>::infinity(), threads[t]);
      std::printf(" | %.1f | %.2f", mean(other.ms), mean(other.ms) > 0.0 ? mean(first.ms) / mean(other.ms) : 0.0);
      if (!other.error.empty()) ++failures;
    }
    std::printf(" |\n");
    std::fflush(stdout);
    if (!first.error.empty()) {
      std::cerr << "affix_bench_ipc: " << it->name << ": " << first.error << "\n";
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace
