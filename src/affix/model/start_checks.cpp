#include "affix/model/start_checks.hpp"

#include <string>

#include "affix/error.hpp"
#include "affix/geometry/mesh_intersection.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/number_text.hpp"

namespace affix {

void refuse_bodies_below_ground(const Model& model) {
  if (!model.ground) return;
  const double height = model.ground->height;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const ModelBody& b = model.bodies[i];
    if (b.is_dirichlet()) continue;
    for (const Vec3& x_bar : b.mesh->vertices) {
      const double d = b.position.z() + b.rotation.row(2).dot(x_bar) - height;
      if (d <= 0.0) {
        // d = 0 is a vertex on the plane: "0 m below" would read "-0 m below" (−d of +0).
        const std::string where = d == 0.0 ? "on z = " + number_text(height)
                                           : number_text(-d) + " m below z = " + number_text(height);
        throw InputError(model.file.string() + ": bodies[" + std::to_string(i) + "].position: body '" +
                         excerpt(b.name) + "' starts on or below the ground (a vertex is " + where +
                         "); expected every vertex above the ground");
      }
    }
  }
}

void refuse_intersecting_bodies(const Model& model) {
  std::vector<const TriangleMesh*> meshes;
  std::vector<Mat3> A;
  std::vector<Vec3> p;
  for (const ModelBody& b : model.bodies) {
    meshes.push_back(b.mesh.get());
    A.push_back(b.rotation);
    p.push_back(b.position);
  }
  const auto pair = first_intersecting_pair(meshes, A, p, [&](int i, int j) { return model.may_collide(i, j); });
  if (!pair) return;
  const auto [i, j] = *pair;
  throw InputError(model.file.string() + ": bodies[" + std::to_string(i) + "]: body '" +
                   excerpt(model.bodies[i].name) + "' intersects body '" + excerpt(model.bodies[j].name) +
                   "' (bodies[" + std::to_string(j) + "]) at the start; expected bodies that do not overlap");
}

}  // namespace affix
