// The impulse solver (Tomcin 2014) on the scenes of its paper, as `affix generate` writes them: the
// Peaucellier–Lipkin linkage (Fig. 3), the rod and block (Fig. 1d), and spiders of growing leg count
// (Fig. 5a, one body carrying every leg: the dense clique that body splitting is for). Not a test and
// not Google Benchmark: each scene runs once for its whole duration, one step at a time on one thread,
// and prints one Markdown row: ms per step (median and mean, from StepStats::wall_ms), joint-correction
// iterations per step (mean and max), steps that hit the cap, and the largest max_joint_error of any
// step. Then the table of Fig. 3(c): the linkage's iterations per step for ε_T from 1e-6 to 1e-16, and
// Fig. 5's: ms per step of spiders with 25 to 400 legs, unsplit and split (body_splitting.hpp).
//
//   affix_bench_impulse            run with OMP_NUM_THREADS=1 (CHOLMOD's BLAS would thread otherwise)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "affix/model/model.hpp"
#include "affix/scene/generate/peaucellier.hpp"
#include "affix/scene/generate/rod_block.hpp"
#include "affix/scene/generate/spider.hpp"
#include "affix/solvers/registry.hpp"

namespace {

using namespace affix;

struct Row {
  double median_ms = 0, mean_ms = 0, mean_iterations = 0, max_error = 0;
  int max_iterations = 0, capped = 0, steps = 0;
};

Row run(const Scene& scene) {
  const auto sim = make_simulator(std::make_shared<const Model>(compile(scene)));
  const int steps = static_cast<int>(std::lround(scene.settings.duration / scene.settings.dt));
  std::vector<double> ms;
  Row row;
  row.steps = steps;
  for (int n = 0; n < steps; ++n) {
    const StepStats s = sim->step();
    ms.push_back(s.wall_ms);
    row.mean_ms += s.wall_ms / steps;
    row.mean_iterations += static_cast<double>(s.iterations) / steps;
    row.max_iterations = std::max(row.max_iterations, s.iterations);
    row.capped += s.hit_iteration_cap;
    row.max_error = std::max(row.max_error, s.max_joint_error);
  }
  std::nth_element(ms.begin(), ms.begin() + steps / 2, ms.end());
  row.median_ms = ms[steps / 2];
  return row;
}

void print(const std::string& name, const Scene& scene, const Row& r) {
  std::printf("| %s | %zu | %zu | %g | %d | %.3f / %.3f | %.2f / %d | %d | %.1e |\n", name.c_str(), scene.bodies.size(),
              scene.joints.size(), scene.settings.dt, r.steps, r.median_ms, r.mean_ms, r.mean_iterations,
              r.max_iterations, r.capped, r.max_error);
}

}  // namespace

int main() {
  using namespace affix::generate;
  std::printf("| scene | bodies | joints | dt (s) | steps | ms/step (median / mean) | iterations/step (mean / max) | "
              "capped | max joint error |\n|---|---|---|---|---|---|---|---|---|\n");
  const Scene linkage = peaucellier({});
  print("peaucellier", linkage, run(linkage));
  const Scene rod = rod_block({});
  print("rod-block", rod, run(rod));
  for (long long legs : {10, 20, 50, 100}) {
    const Scene spider_scene = spider({legs});
    print("spider --legs " + std::to_string(legs), spider_scene, run(spider_scene));
  }
  // Fig. 5: the factorisation's cost against the leg count, the body unsplit (split_parts 1) and split
  // automatically (§5). Collision masks 0, so a step is the factorisation and a velocity correction.
  std::printf("\nFig. 5: spiders in free fall without contact detection, unsplit and split (§5)\n\n"
              "| legs | rows unsplit | ms/step unsplit (median) | ms/step split (median) |\n|---|---|---|---|\n");
  for (long long legs : {25, 50, 100, 200, 400}) {
    Scene scene = spider({legs});
    scene.settings.duration = 0.2;
    for (BodyDef& b : scene.bodies) b.collision = {1, 0};
    Scene whole = scene, split = scene;
    whole.settings.solver_settings["impulse"]["split_parts"] = 1;
    const double unsplit_ms = legs <= 200 ? run(whole).median_ms : NAN;  // 400 unsplit: seconds per step
    // rows: a ball (3) and a hinge (5) per leg
    std::printf("| %lld | %lld | %.3f | %.3f |\n", legs, 8 * legs, unsplit_ms, run(split).median_ms);
  }
  std::printf("\nFig. 3(c): the Peaucellier linkage (ε_P = 1e-9 m, at most 500 iterations, h = 0.03 s, 10 s) by ε_T\n\n"
              "| ε_T | iterations/step (mean / max) | capped | max joint error |\n|---|---|---|---|\n");
  for (double eps_t : {1e-6, 1e-8, 1e-10, 1e-12, 1e-14, 1e-16}) {
    Scene scene = peaucellier({});
    scene.settings.solver_settings["impulse"]["tikhonov"] = eps_t;
    const Row r = run(scene);
    std::printf("| %.0e | %.2f / %d | %d | %.1e |\n", eps_t, r.mean_iterations, r.max_iterations, r.capped, r.max_error);
  }
  return 0;
}
