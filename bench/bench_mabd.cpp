// The mabd solver on the paper-scale scenes (He 2026 §6: chains of 10³–10⁶ links, the 30K-link net of
// Fig. 14, the 20K-link tree of Fig. 16) and the pulley loop: what `affix generate` writes, taken
// through every stage of `affix run` with a timer on each. Not a test and not Google Benchmark: each
// scene is run once, in a child process of its own so that its peak memory is its own, and a
// 10⁶-link scene is too slow to repeat.
//
//   affix_bench_mabd [SCENE ...]     SCENE: chain1e3 chain1e4 chain1e5 chain1e6 net tree pulley
//                                    (default: all of them), one Markdown table row each
//
// Setup is generate → scene file written → read back (load_scene) → compile → solver built → the
// first output frame (meshes.json, trajectory.h5 frame 0, joints.csv frame 0), each timed. Then one
// step of warm-up and 10 steps, each timed alone: the median ms/step, the mean Newton iterations, and
// the largest joint gap measured from the poses after the last step (joint_records of the model at
// those poses, the gap joints.csv writes). Memory is the process's peak resident set (VmHWM), once when
// the solver is built (setup: the loaded scene, the model and the factorised solver) and once at the end.
// affix's own code runs on one thread; run with OMP_NUM_THREADS=1 so that CHOLMOD's BLAS does too.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "affix/io/joints_writer.hpp"
#include "affix/io/scene_meshes.hpp"
#include "affix/io/trajectory_sink.hpp"
#include "affix/model/model.hpp"
#include "affix/model/records.hpp"
#include "affix/scene/generate/chain.hpp"
#include "affix/scene/generate/net.hpp"
#include "affix/scene/generate/pulley.hpp"
#include "affix/scene/generate/tree.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"
#include "affix/solvers/registry.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kTimedSteps = 10;

struct BenchScene {
  std::string name;
  std::string description;  // the generate command that writes the same scene
  std::function<affix::Scene()> make;
};

std::vector<BenchScene> scenes() {
  using namespace affix::generate;
  const auto chain_of = [](long long links) {
    return [links] { return chain(ChainOptions{links, 1.0, ChainJoint::ball}); };
  };
  return {
      {"chain1e3", "chain --links 1000", chain_of(1'000)},
      {"chain1e4", "chain --links 10000", chain_of(10'000)},
      {"chain1e5", "chain --links 100000", chain_of(100'000)},
      {"chain1e6", "chain --links 1000000", chain_of(1'000'000)},
      {"net", "net --kind links --size 123", [] { return net(NetOptions{123, NetKind::links}); }},
      {"tree", "tree --depth 14 --branching 2", [] { return tree(TreeOptions{14, 2}); }},
      {"pulley", "pulley", [] { return pulley(PulleyOptions{}); }},
  };
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The process's peak resident set in MB (VmHWM), 0 if /proc cannot say.
double peak_rss_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  }
  return 0.0;
}

/// The largest gap over every joint at `poses`, as joints.csv measures it.
double largest_joint_gap(const affix::Model& model, const std::vector<affix::BodyPose>& poses) {
  double gap = 0.0;
  for (const affix::JointRecord& record : affix::joint_records(model, poses)) {
    gap = std::max(gap, affix::joint_gap(model.joints[record.joint].def, record));
  }
  return gap;
}

/// Runs one scene and prints its table row.
void run(const BenchScene& bench, const fs::path& work) {
  fs::create_directories(work);
  const fs::path file = work / (bench.name + ".json");
  std::vector<double> setup;  // s: generate, write, load, compile, solver, first frame
  Clock::time_point t = Clock::now();
  affix::Scene scene = bench.make();
  scene.settings.solver = "mabd";
  scene.file = file;
  setup.push_back(seconds_since(t));

  t = Clock::now();
  affix::save_scene(scene, file);
  setup.push_back(seconds_since(t));
  const std::size_t bodies = scene.bodies.size(), joints = scene.joints.size();
  scene = affix::Scene();  // what `affix run` has: only the file

  t = Clock::now();
  const affix::Scene loaded = affix::load_scene(file);
  setup.push_back(seconds_since(t));

  t = Clock::now();
  const auto model = std::make_shared<const affix::Model>(affix::compile(loaded));
  setup.push_back(seconds_since(t));

  t = Clock::now();
  const std::unique_ptr<affix::Simulator> simulator = affix::make_simulator(model);
  setup.push_back(seconds_since(t));
  const double setup_mb = peak_rss_mb();  // everything a run holds before its first output

  t = Clock::now();
  std::vector<std::string> names;
  names.reserve(loaded.bodies.size());
  for (const affix::BodyDef& body : loaded.bodies) names.push_back(body.name);
  affix::write_scene_meshes(work / "meshes.json", *model);
  const auto trajectory = affix::open_trajectory(work, affix::TrajectoryFormat::hdf5, names);
  trajectory->write_frame(0, 0.0, simulator->poses());
  affix::JointsWriter(work / "joints.csv", loaded.joints).write_frame(0, 0.0, simulator->joint_records());
  setup.push_back(seconds_since(t));

  simulator->step();  // warm-up
  std::vector<double> ms;
  double iterations = 0.0;
  for (int n = 0; n < kTimedSteps; ++n) {
    t = Clock::now();
    iterations += simulator->step().iterations;
    ms.push_back(1e3 * seconds_since(t));
  }
  std::sort(ms.begin(), ms.end());
  const double median = 0.5 * (ms[(kTimedSteps - 1) / 2] + ms[kTimedSteps / 2]);
  const double gap = largest_joint_gap(*model, simulator->poses());
  double total = 0.0;
  for (double s : setup) total += s;

  std::printf("| %s | `%s` | %zu | %zu | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | **%.2f** | %.0f | %.1f | %.2f | %.1e | %.0f |\n",
              bench.name.c_str(), bench.description.c_str(), bodies, joints, setup[0], setup[1], setup[2],
              setup[3], setup[4], setup[5], total, setup_mb, median, iterations / kTimedSteps, gap, peak_rss_mb());
  std::fflush(stdout);
  fs::remove_all(work);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> wanted(argv + 1, argv + argc);
  const std::vector<BenchScene> all = scenes();
  if (wanted.empty()) {
    for (const BenchScene& bench : all) wanted.push_back(bench.name);
  }
  const fs::path work = fs::temp_directory_path() / ("affix_bench_mabd." + std::to_string(::getpid()));
  std::printf("| scene | generated by | bodies | joints | generate s | write s | load s | compile s | solver s | "
              "first frame s | setup s | setup memory (MB) | ms/step (median of %d) | Newton it./step | "
              "largest joint gap (m) | peak memory (MB) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
              kTimedSteps);
  std::fflush(stdout);
  int failures = 0;
  for (const std::string& name : wanted) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const BenchScene& b) { return b.name == name; });
    if (it == all.end()) {
      std::cerr << "affix_bench_mabd: unknown scene '" << name << "'\n";
      return 2;
    }
    // A child per scene: its peak memory is its own, and a scene that fails does not stop the rest.
    const pid_t child = ::fork();
    if (child == 0) {
      try {
        run(*it, work / name);
      } catch (const std::exception& e) {
        std::cerr << "affix_bench_mabd: " << name << ": " << e.what() << "\n";
        std::_Exit(1);
      }
      std::_Exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failures;
  }
  std::error_code ignored;
  fs::remove_all(work, ignored);
  return failures == 0 ? 0 : 1;
}
