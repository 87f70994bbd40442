#include "affix/solvers/mabd/contact_off_warning.hpp"

#include <algorithm>
#include <iostream>
#include <unordered_map>
#include <vector>

#include "affix/geometry/aabb.hpp"
#include "affix/geometry/sweep_and_prune.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {

namespace {

/// The box of coordinate c(t) = c₀ + v t + ½ g t² over t ∈ [0, T]: its ends and, where the parabola
/// turns inside the interval (t* = −v/g), its vertex.
std::array<double, 2> flight_range(double v, double g, double T) {
  const auto at = [&](double t) { return v * t + 0.5 * g * t * t; };
  double lo = std::min(0.0, at(T)), hi = std::max(0.0, at(T));
  if (g != 0.0) {
    const double turn = -v / g;
    if (turn > 0.0 && turn < T) lo = std::min(lo, at(turn)), hi = std::max(hi, at(turn));
  }
  return {lo, hi};
}

}  // namespace

std::optional<std::array<int, 2>> bodies_that_can_touch(const Model& model, double thickness) {
  const std::size_t n = model.bodies.size();
  if (n < 2) return std::nullopt;
  std::vector<bool> jointed(n, false);
  for (const ModelJoint& j : model.joints) {
    jointed[static_cast<std::size_t>(j.body1)] = true;
    if (j.body2 >= 0) jointed[static_cast<std::size_t>(j.body2)] = true;
  }
  // Each distinct mesh's rest box once (a generated chain shares one mesh among 10⁶ links); a body's world
  // box is that box turned by its rotation R: centre R·c + p, half-extents |R|·e.
  std::unordered_map<const TriangleMesh*, Aabb> rest_boxes;
  std::vector<Aabb> boxes(n);
  for (std::size_t b = 0; b < n; ++b) {
    const ModelBody& body = model.bodies[b];
    auto [it, added] = rest_boxes.try_emplace(body.mesh.get());
    if (added)
      for (const Vec3& x : body.mesh->vertices) it->second.extend(x);
    const Vec3 centre = body.rotation * (0.5 * (it->second.min + it->second.max)) + body.position;
    const Vec3 half = body.rotation.cwiseAbs() * (0.5 * (it->second.max - it->second.min));
    Aabb& box = boxes[b];
    box.min = centre - half;
    box.max = centre + half;
    if (!jointed[b] && !body.is_dirichlet()) {
      const Aabb start = box;
      for (int a = 0; a < 3; ++a) {
        const auto [lo, hi] = flight_range(body.velocity(a), model.settings.gravity(a), model.settings.duration);
        box.min(a) = start.min(a) + lo;
        box.max(a) = start.max(a) + hi;
      }
    }
    box.inflate(thickness);
  }
  std::optional<std::array<int, 2>> found;
  for_each_overlapping_pair(boxes, 0, [&](int i, int j) {
    if (!model.may_collide(i, j)) return false;
    found = std::array<int, 2>{i, j};
    return true;
  });
  return found;
}

void warn_when_bodies_can_touch(const Model& model, double thickness) {
  const std::optional<std::array<int, 2>> pair = bodies_that_can_touch(model, thickness);
  if (!pair) return;
  std::cerr << "affix: warning: " << model.file.string() << ": bodies '" << excerpt(model.bodies[(*pair)[0]].name)
            << "' and '" << excerpt(model.bodies[(*pair)[1]].name)
            << "' can touch (they overlap at the start, or one falls onto the other), but "
               "settings.mabd.body_contact is off: mabd's bodies feel only the ground and will pass through "
               "each other; set it to true (experimental) or run the ipc solver\n";
}

}  // namespace affix
