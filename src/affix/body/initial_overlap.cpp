#include "affix/body/initial_overlap.hpp"

#include <string>

#include "affix/body/collision_filter.hpp"
#include "affix/error.hpp"
#include "affix/geometry/mesh_intersection.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {

void refuse_intersecting_bodies(const Scene& scene, const std::vector<AffineBody>& bodies) {
  std::vector<const TriangleMesh*> meshes;
  std::vector<Mat3> A;
  std::vector<Vec3> p;
  for (const AffineBody& b : bodies) {
    meshes.push_back(&b.mesh);
    A.push_back(state_matrix(b.q0));
    p.push_back(state_translation(b.q0));
  }
  const auto pair = first_intersecting_pair(
      meshes, A, p, [&](int i, int j) { return may_collide(bodies, i, j); });
  if (!pair) return;
  const auto [i, j] = *pair;
  throw InputError(scene.file.string() + ": bodies[" + std::to_string(i) + "]: body '" +
                   excerpt(bodies[i].name) + "' intersects body '" + excerpt(bodies[j].name) + "' (bodies[" +
                   std::to_string(j) + "]) at the start; expected bodies that do not overlap");
}

}  // namespace affix
