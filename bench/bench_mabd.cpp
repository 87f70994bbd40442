// The mabd solver on the paper-scale scenes (He 2026 §6: chains of 10³–10⁶ links, the 30K-link net of
// Fig. 14, the 20K-link tree of Fig. 16) and the pulley loop: what `affix generate` writes, taken
// through every stage of `affix run` with a timer on each. Not a test and not Google Benchmark: each
// scene is run once, and a 10⁶-link scene is too slow to repeat.
//
//   affix_bench_mabd [--setup] [SCENE ...]   SCENE: chain1e3 chain1e4 chain1e5 chain1e6 net tree pulley
//                                            (default: all of them), one Markdown table row each;
//                                            --setup: the setup columns only (no frame, no steps)
//
// Each scene runs in three child processes, one after the other, so that each one's peak memory
// (VmHWM) is its own:
//   1. generate the scene and write its file (generate s, write s: what `affix generate` does);
//   2. setup path (a), no file: generate → compile → solver built (factorised), the scene dropped
//      once the model is compiled; its seconds, its CPU seconds (user + system: what to read on a
//      loaded machine) and peak memory;
//   3. setup path (b): load the file child 1 wrote → compile (the scene dropped, as `affix run`
//      drops it) → solver built; its seconds, CPU seconds and peak memory ("setup memory"); then the first output
//      frame (meshes.json, trajectory.h5 frame 0, joints.csv frame 0), one step of warm-up and 10
//      steps, each timed alone: the median ms/step, the mean Newton iterations, the largest joint gap
//      measured from the poses after the last step (joint_records of the model at those poses, the gap
//      joints.csv writes), and the peak memory at the end.
// The mabd issue's setup requirement (under 10 s and 4 GB at 10⁶ links) is read from (a) or (b).
// affix's own code runs on one thread; run with OMP_NUM_THREADS=1 so that CHOLMOD's BLAS does too.
#include <sys/resource.h>
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

/// The process's CPU time so far (user + system), in s: on a loaded machine the honest measure.
double cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  const auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return s(usage.ru_utime) + s(usage.ru_stime);
}

/// The largest gap over every joint at `poses`, as joints.csv measures it.
double largest_joint_gap(const affix::Model& model, const std::vector<affix::BodyPose>& poses) {
  double gap = 0.0;
  for (const affix::JointRecord& record : affix::joint_records(model, poses)) {
    gap = std::max(gap, affix::joint_gap(model.joints[record.joint].def, record));
  }
  return gap;
}

/// What one child measured, sent to the parent through a pipe (plain doubles: no parsing).
struct Measured {
  double bodies = 0, joints = 0;
  double generate_s = 0, write_s = 0;                               // the writer child
  double gen_generate_s = 0, gen_compile_s = 0, gen_solver_s = 0;  // path (a): no file
  double gen_setup_mb = 0, gen_cpu_s = 0;
  double load_s = 0, compile_s = 0, solver_s = 0, setup_mb = 0, cpu_s = 0;  // path (b): the file
  double load_cpu_s = 0, compile_cpu_s = 0, solver_cpu_s = 0;               // path (b), each stage's CPU
  double first_frame_s = 0, median_ms = 0, iterations = 0, gap = 0, peak_mb = 0;
};

affix::Scene generate_scene(const BenchScene& bench, const fs::path& file) {
  affix::Scene scene = bench.make();
  scene.settings.solver = "mabd";
  scene.file = file;
  return scene;
}

/// The writer child: generate the scene and write its file, as `affix generate` does.
void write_file(const BenchScene& bench, const fs::path& file, Measured& m) {
  Clock::time_point t = Clock::now();
  const affix::Scene scene = generate_scene(bench, file);
  m.generate_s = seconds_since(t);
  t = Clock::now();
  affix::save_scene(scene, file);
  m.write_s = seconds_since(t);
  m.bodies = static_cast<double>(scene.bodies.size());
  m.joints = static_cast<double>(scene.joints.size());
}

/// Path (a), in a fresh process: generate → compile → solver, no file; the scene is dropped once the
/// model is compiled, as `affix run` drops it.
void generate_path(const BenchScene& bench, const fs::path& file, Measured& m) {
  Clock::time_point t = Clock::now();
  auto scene = std::make_unique<affix::Scene>(generate_scene(bench, file));
  m.gen_generate_s = seconds_since(t);
  t = Clock::now();
  const auto model = std::make_shared<const affix::Model>(affix::compile(*scene));
  scene.reset();
  m.gen_compile_s = seconds_since(t);
  t = Clock::now();
  const std::unique_ptr<affix::Simulator> simulator = affix::make_simulator(model);
  m.gen_solver_s = seconds_since(t);
  m.gen_setup_mb = peak_rss_mb();
  m.gen_cpu_s = cpu_seconds();
}

/// Path (b), in a fresh process: load the file the writer child wrote → compile → solver, then the
/// first output frame and the timed steps.
void load_path(const fs::path& file, const fs::path& work, bool setup_only, Measured& m) {
  double cpu = cpu_seconds();
  const auto cpu_since = [&cpu] {
    const double now = cpu_seconds(), spent = now - cpu;
    cpu = now;
    return spent;
  };
  Clock::time_point t = Clock::now();
  auto loaded = std::make_unique<affix::Scene>(affix::load_scene(file));
  m.load_s = seconds_since(t);
  m.load_cpu_s = cpu_since();

  t = Clock::now();
  const auto model = std::make_shared<const affix::Model>(affix::compile(*loaded));
  loaded.reset();  // the model has all a run needs from here on
  m.compile_s = seconds_since(t);
  m.compile_cpu_s = cpu_since();

  t = Clock::now();
  const std::unique_ptr<affix::Simulator> simulator = affix::make_simulator(model);
  m.solver_s = seconds_since(t);
  m.solver_cpu_s = cpu_since();
  m.setup_mb = peak_rss_mb();  // everything a run holds before its first output
  m.cpu_s = cpu_seconds();
  if (setup_only) return;

  t = Clock::now();
  std::vector<std::string> names;
  names.reserve(model->bodies.size());
  for (const affix::ModelBody& body : model->bodies) names.push_back(body.name);
  std::vector<affix::JointDef> joints;
  joints.reserve(model->joints.size());
  for (const affix::ModelJoint& joint : model->joints) joints.push_back(joint.def);
  affix::write_scene_meshes(work / "meshes.json", *model);
  const auto trajectory = affix::open_trajectory(work, affix::TrajectoryFormat::hdf5, names);
  trajectory->write_frame(0, 0.0, simulator->poses());
  affix::JointsWriter(work / "joints.csv", std::move(joints)).write_frame(0, 0.0, simulator->joint_records());
  m.first_frame_s = seconds_since(t);

  simulator->step();  // warm-up
  std::vector<double> ms;
  for (int n = 0; n < kTimedSteps; ++n) {
    t = Clock::now();
    m.iterations += simulator->step().iterations;
    ms.push_back(1e3 * seconds_since(t));
  }
  m.iterations /= kTimedSteps;
  std::sort(ms.begin(), ms.end());
  m.median_ms = 0.5 * (ms[(kTimedSteps - 1) / 2] + ms[kTimedSteps / 2]);
  m.gap = largest_joint_gap(*model, simulator->poses());
  m.peak_mb = peak_rss_mb();
}

/// Runs `stage` in a fresh child process (its peak memory is its own) and merges what it measured
/// into `m`. False when the child failed.
bool in_child(const char* scene, const std::function<void(Measured&)>& stage, Measured& m) {
  int fds[2];
  if (::pipe(fds) != 0) return false;
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    Measured mine = m;
    try {
      stage(mine);
    } catch (const std::exception& e) {
      std::cerr << "affix_bench_mabd: " << scene << ": " << e.what() << "\n";
      std::_Exit(1);
    }
    const bool sent = ::write(fds[1], &mine, sizeof mine) == static_cast<ssize_t>(sizeof mine);
    std::_Exit(sent ? 0 : 1);
  }
  ::close(fds[1]);
  Measured theirs;
  const bool received = ::read(fds[0], &theirs, sizeof theirs) == static_cast<ssize_t>(sizeof theirs);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  if (!received || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
  m = theirs;
  return true;
}

/// Runs one scene (three children: write the file, path (a), path (b)) and prints its table row.
bool run(const BenchScene& bench, const fs::path& work, bool setup_only) {
  fs::create_directories(work);
  const fs::path file = work / (bench.name + ".json");
  const char* name = bench.name.c_str();
  Measured m;
  const bool ok = in_child(name, [&](Measured& r) { write_file(bench, file, r); }, m) &&
                  in_child(name, [&](Measured& r) { generate_path(bench, file, r); }, m) &&
                  in_child(name, [&](Measured& r) { load_path(file, work, setup_only, r); }, m);
  std::error_code ignored;
  fs::remove_all(work, ignored);
  if (!ok) return false;
  std::printf("| %s | `%s` | %.0f | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | **%.2f** | %.2f | %.0f | %.2f | %.2f | "
              "%.2f | **%.2f** | %.2f | %.0f | ",
              name, bench.description.c_str(), m.bodies, m.joints, m.generate_s, m.write_s, m.gen_generate_s,
              m.gen_compile_s, m.gen_solver_s, m.gen_generate_s + m.gen_compile_s + m.gen_solver_s, m.gen_cpu_s,
              m.gen_setup_mb, m.load_s, m.compile_s, m.solver_s, m.load_s + m.compile_s + m.solver_s, m.cpu_s, m.setup_mb);
  if (setup_only) {
    std::printf("— | — | — | — | — |\n");
  } else {
    std::printf("%.2f | %.1f | %.2f | %.1e | %.0f |\n", m.first_frame_s, m.median_ms, m.iterations, m.gap, m.peak_mb);
  }
  // Each stage's CPU seconds of path (b) (user + system), the stages' measure on a loaded machine.
  std::fprintf(stderr, "%s: (b) CPU s by stage: load %.2f, compile %.2f, solver %.2f\n", name, m.load_cpu_s,
               m.compile_cpu_s, m.solver_cpu_s);
  std::fflush(stdout);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> wanted(argv + 1, argv + argc);
  // --setup: only the setup paths, no output frame and no steps (a 10⁶-link chain's steps take minutes).
  const auto setup_flag = std::find(wanted.begin(), wanted.end(), "--setup");
  const bool setup_only = setup_flag != wanted.end();
  if (setup_only) wanted.erase(setup_flag);
  const std::vector<BenchScene> all = scenes();
  if (wanted.empty()) {
    for (const BenchScene& bench : all) wanted.push_back(bench.name);
  }
  const fs::path work = fs::temp_directory_path() / ("affix_bench_mabd." + std::to_string(::getpid()));
  std::printf("| scene | generated by | bodies | joints | generate s | write s | (a) generate s | (a) compile s | "
              "(a) solver s | (a) setup s | (a) CPU s | (a) setup memory (MB) | (b) load s | (b) compile s | (b) solver s | "
              "(b) setup s | (b) CPU s | (b) setup memory (MB) | first frame s | ms/step (median of %d) | Newton it./step | "
              "largest joint gap (m) | peak memory (MB) |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
              kTimedSteps);
  std::fflush(stdout);
  int failures = 0;
  for (const std::string& name : wanted) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const BenchScene& b) { return b.name == name; });
    if (it == all.end()) {
      std::cerr << "affix_bench_mabd: unknown scene '" << name << "'\n";
      return 2;
    }
    if (!run(*it, work / name, setup_only)) ++failures;  // a scene that fails does not stop the rest
  }
  std::error_code ignored;
  fs::remove_all(work, ignored);
  return failures == 0 ? 0 : 1;
}
