#include "affix/scene/generate/drop.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/lattice.hpp"
#include "affix/scene/generate/option_checks.hpp"
#include "affix/scene/generate/seeded_random.hpp"

namespace affix::generate {

namespace {

constexpr double kJitter = 0.03;     // m, sideways
constexpr double kMaxRaise = 0.5;    // m
constexpr double kLowestDrop = 0.1;  // m: even the lowest body falls visibly before it lands
constexpr int kResolution = 12;      // 10⁵ mixed bodies stay far under the loader's triangle limit

struct Kind {
  const char* name;
  Shape shape;
  double bounding_radius;  // of the smooth shape around the body origin
};

const std::array<Kind, 5>& kinds() {
  static const std::array<Kind, 5> all{{
      {"box", BoxShape{Vec3(0.16, 0.16, 0.16)}, 0.08 * std::sqrt(3.0)},
      {"sphere", SphereShape{0.1, kResolution}, 0.1},
      {"capsule", CapsuleShape{0.06, 0.12, kResolution}, 0.06 + 0.06},
      {"cylinder", CylinderShape{0.08, 0.16, kResolution}, std::hypot(0.08, 0.08)},
      {"torus", TorusShape{0.1, 0.035, kResolution}, 0.1 + 0.035},
  }};
  return all;
}

}  // namespace

Scene drop(const DropOptions& options) {
  require_count("--bodies", options.bodies, 1, kMaxContactBodies);
  require_count("--seed", options.seed, 0, std::numeric_limits<long long>::max());
  Scene scene = make_scene("drop");
  scene.ground = Ground{};
  SeededRandom random(static_cast<std::uint64_t>(options.seed));

  auto per_row = static_cast<long long>(std::sqrt(static_cast<double>(options.bodies)));
  while (per_row * per_row < options.bodies) ++per_row;
  double bound = 0.0;
  for (const Kind& kind : kinds()) bound = std::max(bound, kind.bounding_radius);
  // One layer: the height steps of the lattice never come into play.
  const Lattice lattice = square_lattice(per_row, 2.0 * bound + 2.0 * kJitter + kClearance, bound + kLowestDrop);

  for (long long i = 0; i < options.bodies; ++i) {
    const Kind& kind = kinds()[static_cast<std::size_t>(i % 5)];
    BodyDef body;
    body.name = kind.name + std::to_string(i);
    body.shape = kind.shape;
    body.rotation = random.rotation();
    const Vec3 offset(random.uniform(-kJitter, kJitter), random.uniform(-kJitter, kJitter),
                      random.uniform(0.0, kMaxRaise));
    body.position = lattice.point(i) + offset;
    add_body(scene, std::move(body));
  }
  return scene;
}

}  // namespace affix::generate
