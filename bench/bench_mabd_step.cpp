// The mabd step alone on a generated ball-joint chain (what `affix generate chain --links N --solver mabd`
// writes, built in memory: no file, no output frames), for profiling and for the step's numbers in the
// README (Performance, mabd on the paper-scale scenes). Not a test and not Google Benchmark.
//
//   affix_bench_mabd_step [--generic] [--steps K] N ...
//
// For each N: generate → compile → solver, one step of warm-up, then K (default 10) steps each timed
// alone. Prints one Markdown row per N: the median and best wall ms per step, the CPU ms per step
// (user + system over the K steps: what to read on a loaded machine), µs per link, Newton iterations
// per step and the largest joint error of the last step (stats.csv's max_joint_error).
// --generic runs the generic dual path (every joint's rows G formed, responses H⁻¹Gᵀ by co-rotated
// solves, block Thomas on dynamic blocks) instead of the ball rows' constant brackets, for comparison.
// affix's own code runs on one thread; run with OMP_NUM_THREADS=1.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "affix/model/model.hpp"
#include "affix/scene/generate/chain.hpp"
#include "affix/solvers/mabd/mabd_simulator.hpp"

namespace {

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return s(usage.ru_utime) + s(usage.ru_stime);
}

}  // namespace

int main(int argc, char** argv) {
  bool generic = false;
  int steps = 10;
  std::vector<long long> sizes;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--generic") generic = true;
    else if (arg == "--steps" && a + 1 < argc) steps = std::max(1, std::atoi(argv[++a]));
    else sizes.push_back(std::atoll(argv[a]));
  }
  if (sizes.empty()) sizes = {1'000, 10'000, 100'000};
  std::printf("| links | path | ms/step (median of %d) | best ms | CPU ms/step | µs/link | Newton it./step | max_joint_error (m) |\n",
              steps);
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const long long n : sizes) {
    affix::Scene scene = affix::generate::chain(affix::generate::ChainOptions{n, 1.0, affix::generate::ChainJoint::ball});
    scene.settings.solver = "mabd";
    auto model = std::make_shared<const affix::Model>(affix::compile(scene));
    scene = affix::Scene{};
    affix::MabdSimulator sim(model);
    sim.use_constant_brackets(!generic);
    sim.step();  // warm-up: the step's arrays are allocated and faulted in
    std::vector<double> ms;
    double iterations = 0.0, error = 0.0;
    const double cpu0 = cpu_seconds();
    for (int k = 0; k < steps; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      const affix::StepStats stats = sim.step();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      iterations += stats.iterations;
      error = stats.max_joint_error;
    }
    const double cpu_ms = 1e3 * (cpu_seconds() - cpu0) / steps;
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    std::printf("| %lld | %s | %.1f | %.1f | %.1f | %.3f | %.2f | %.1e |\n", n, generic ? "generic" : "brackets", median,
                ms.front(), cpu_ms, 1e3 * cpu_ms / static_cast<double>(n), iterations / steps, error);
    std::fflush(stdout);
  }
  return 0;
}
