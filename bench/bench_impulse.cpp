// The impulse solver (Tomcin 2014) on the scenes of its paper, as `affix generate` writes them: the
// Peaucellier–Lipkin linkage (Fig. 3), the rod and block (Fig. 1d), and spiders of growing leg count
// (Fig. 5a, one body carrying every leg: the dense clique that body splitting is for). Not a test and
// not Google Benchmark: each scene runs once for its whole duration, one step at a time on one thread,
// and prints one Markdown row: ms per step (median and mean, from StepStats::wall_ms), joint-correction
// iterations per step (mean and max), steps that hit the cap, and the largest max_joint_error of any
// step. Then the table of Fig. 3(c): the linkage's iterations per step for ε_T from 1e-6 to 1e-16, and
// Fig. 5's: ms per step of spiders with 25 to 400 legs, unsplit and split (body_splitting.hpp).
//
// Last, the table of Tomcin 2014 §7: the scissor lift (Fig. 6a) and the 50-leg Strandbeest (Fig. 6b)
// dropped 0.4 m with k = 0 … 10 times the machine's own mass added to the platform or the frame, each
// for 1 s at h = 0.01 s: median ms per step and the largest joint gap, both measured from the poses by
// bench/peers' MeasureRecorder, for the impulse solver and, where libode-dev was found at configure
// time, beside ODE's dWorldStep and dWorldQuickStep (bench/peers/ode_engine.cpp, its one translation).
//
//   affix_bench_impulse            run with OMP_NUM_THREADS=1 (CHOLMOD's BLAS would thread otherwise)
//   affix_bench_impulse load [S [N]]   the §7 table only; each cell stops after S s of stepping (15);
//                                      loads k = 0, N, 2N, … (1)
#include <algorithm>
#include <chrono>
#include <optional>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "affix/model/model.hpp"
#include "affix/scene/generate/peaucellier.hpp"
#include "affix/scene/generate/rod_block.hpp"
#include "affix/scene/generate/scissor_lift.hpp"
#include "affix/scene/generate/spider.hpp"
#include "affix/scene/generate/strandbeest.hpp"
#include "affix/solvers/registry.hpp"
#include "engine.hpp"
#include "measures.hpp"

namespace affix::peers {
std::unique_ptr<Engine> make_ode(const BenchInput& input, bool quick);  // bench/peers/ode_engine.cpp
}

namespace {

using namespace affix;

#ifdef AFFIX_BENCH_ODE
constexpr bool kOde = true;
#else
constexpr bool kOde = false;
#endif

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

/// Stepping time one cell may take: ODE's dense dWorldStep on the Strandbeest (2,255 joint rows) takes
/// on the order of a second a step, and 11 loads × 100 steps of it would be most of an hour. A cell
/// that reaches it stops there and says how many steps its measures cover (as bench/peers' budget).
/// `affix_bench_impulse load S` sets it to S seconds (the whole second of dWorldStep: about 100 s a cell).
double cell_budget_ms = 15000.0;
/// `load S N`: the loads k = 0, N, 2N, … ≤ 10 only (`load 120 5`: the whole second of every engine at 0, 5, 10).
int load_stride = 1;

/// ms per step and joint gap of one engine over the whole scene (or the steps of cell_budget_ms), as
/// bench/peers measures them; the engine's refusal (InputError) as the cell's text.
std::string measured(const Scene& scene, const Model& model, const std::function<std::unique_ptr<peers::Engine>()>& make) {
  std::unique_ptr<peers::Engine> engine;
  try {
    engine = make();
  } catch (const std::exception& e) {
    std::string why = e.what();
    if (why.rfind(": ", 0) == 0) why.erase(0, 2);  // a generated scene has no file name
    return "refused: " + why;
  }
  std::vector<std::optional<peers::Primitive>> shapes;
  for (const BodyDef& b : scene.bodies) shapes.push_back(peers::primitive_of(b));
  peers::MeasureRecorder recorder(model, shapes);
  std::vector<BodyPose> poses(model.bodies.size());
  const int steps = static_cast<int>(std::lround(scene.settings.duration / scene.settings.dt));
  double spent_ms = 0.0;
  int made = 0;
  while (made < steps && spent_ms < cell_budget_ms) {
    const auto start = std::chrono::steady_clock::now();
    engine->step();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    spent_ms += ms;
    ++made;
    engine->poses(poses);
    if (!recorder.record(poses, ms)) break;
  }
  const peers::Measures m = recorder.result();
  char cell[160];
  std::snprintf(cell, sizeof cell, "%.2f ms, %.1e m%s", m.median_ms, m.max_joint_gap, m.blew_up ? " (blew up)" : "");
  if (!m.blew_up && made < steps) {
    std::snprintf(cell + std::strlen(cell), sizeof cell - std::strlen(cell), " (%d of %d steps)", made, steps);
  }
  return cell;
}

/// The affix impulse solver as a bench/peers engine.
class ImpulseEngine final : public peers::Engine {
 public:
  explicit ImpulseEngine(const std::shared_ptr<const Model>& model) : sim_(make_simulator(model)) {}
  void step() override { sim_->step(); }
  void poses(std::vector<BodyPose>& out) const override { out = sim_->poses(); }

 private:
  std::unique_ptr<Simulator> sim_;
};

/// Tomcin 2014 §7's table: k times the machine's own mass added to body `carrier`.
void load_table(const std::string& title, const Scene& base, const std::string& carrier) {
  const int index = *base.body_index(carrier);
  const Model unloaded = compile(base);
  double own = 0.0;
  for (const ModelBody& b : unloaded.bodies) own += b.mass;
  std::printf("\n%s (%zu bodies, %zu joints, h = %g s, %g s): k × its own mass (%.0f kg) added to the %s; "
              "median ms per step, largest joint gap\n\n| k | impulse |%s\n|---|---|%s\n",
              title.c_str(), base.bodies.size(), base.joints.size(), base.settings.dt, base.settings.duration, own,
              carrier.c_str(), kOde ? " ODE dWorldStep | ODE dWorldQuickStep |" : "", kOde ? "---|---|" : "");
  for (int k = 0; k <= 10; k += load_stride) {
    Scene scene = base;
    scene.bodies[static_cast<std::size_t>(index)].mass = unloaded.bodies[static_cast<std::size_t>(index)].mass + k * own;
    scene.bodies[static_cast<std::size_t>(index)].inertial.reset();
    const auto model = std::make_shared<const Model>(compile(scene));
    std::printf("| %d | %s |", k, measured(scene, *model, [&] { return std::make_unique<ImpulseEngine>(model); }).c_str());
#ifdef AFFIX_BENCH_ODE
    for (const bool quick : {false, true}) {
      std::printf(" %s |", measured(scene, *model, [&] { return peers::make_ode({scene, *model}, quick); }).c_str());
    }
#endif
    std::printf("\n");
    std::fflush(stdout);
  }
}

void load_tables() {
  load_table("Scissor lift (Fig. 6a, 10 segments)", generate::scissor_lift({}), "platform");
  load_table("Strandbeest (Fig. 6b, 50 legs)", generate::strandbeest({}), "frame");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace affix::generate;
  if (argc > 1 && std::string(argv[1]) == "load") {
    if (argc > 2) cell_budget_ms = 1000.0 * std::stod(argv[2]);
    if (argc > 3) load_stride = std::max(1, std::stoi(argv[3]));
    load_tables();
    return 0;
  }
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
  load_tables();
  return 0;
}
