#include "affix/scene/generate/pile.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/lattice.hpp"
#include "affix/scene/generate/option_checks.hpp"
#include "affix/scene/generate/seeded_random.hpp"

namespace affix::generate {

namespace {

constexpr double kMinEdge = 0.1;   // m
constexpr double kMaxEdge = 0.2;   // m
constexpr double kJitter = 0.02;   // m per axis
constexpr double kDensity = 500.0; // kg/m³: wood

}  // namespace

Scene pile(const PileOptions& options) {
  require_count("--boxes", options.boxes, 1, kMaxContactBodies);
  require_count("--seed", options.seed, 0, std::numeric_limits<long long>::max());
  Scene scene = make_scene("pile");
  scene.ground = Ground{};
  SeededRandom random(static_cast<std::uint64_t>(options.seed));

  // The smallest n with n³ ≥ boxes (the cube root in doubles may be a hair off either way).
  auto per_row = static_cast<long long>(std::cbrt(static_cast<double>(options.boxes)));
  while (per_row * per_row * per_row < options.boxes) ++per_row;
  while (per_row > 1 && (per_row - 1) * (per_row - 1) * (per_row - 1) >= options.boxes) --per_row;

  const double bound = 0.5 * kMaxEdge * std::sqrt(3.0);  // bounding radius of the largest box
  const double pitch = 2.0 * bound + 2.0 * kJitter + kClearance;
  const Lattice lattice = square_lattice(per_row, pitch, bound + kJitter + kClearance);

  for (long long i = 0; i < options.boxes; ++i) {
    BodyDef box;
    box.name = "box" + std::to_string(i);
    box.shape = BoxShape{Vec3(random.uniform(kMinEdge, kMaxEdge), random.uniform(kMinEdge, kMaxEdge),
                              random.uniform(kMinEdge, kMaxEdge))};
    box.density = kDensity;
    box.rotation = random.rotation();
    const Vec3 jitter(random.uniform(-kJitter, kJitter), random.uniform(-kJitter, kJitter),
                      random.uniform(-kJitter, kJitter));
    box.position = lattice.point(i) + jitter;
    add_body(scene, std::move(box));
  }
  return scene;
}

}  // namespace affix::generate
