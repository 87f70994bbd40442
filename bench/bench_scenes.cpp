// Whole-scene benchmarks on the same scene files as the CLI and README (STYLE.md practice 11).
// Each benchmark iteration simulates the scene's full duration from a fresh solver; the counters are
// wall milliseconds per step and Newton iterations per step. Not part of the test run.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <string>

#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/registry.hpp"

namespace {

void simulate_scene(benchmark::State& state, const std::string& relative_path) {
  const affix::Scene scene = affix::load_scene(std::string(AFFIX_SOURCE_DIR) + "/" + relative_path);
  const int steps = static_cast<int>(std::ceil(scene.settings.duration / scene.settings.dt - 1e-9));
  double seconds = 0.0, iterations = 0.0;
  long total_steps = 0;
  for (auto _ : state) {
    auto simulator = affix::make_simulator(scene);
    const auto start = std::chrono::steady_clock::now();
    for (int n = 0; n < steps; ++n) iterations += simulator->step().iterations;
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total_steps += steps;
  }
  state.counters["bodies"] = static_cast<double>(scene.bodies.size());
  state.counters["ms_per_step"] = 1e3 * seconds / static_cast<double>(total_steps);
  state.counters["newton_iterations_per_step"] = iterations / static_cast<double>(total_steps);
}

BENCHMARK_CAPTURE(simulate_scene, drop, std::string("examples/drop.json"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_scene, drop_1000, std::string("examples/drop_1000.json"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
