#include <algorithm>

#include "affix/model/model.hpp"
#include "affix/model/start_checks.hpp"

namespace affix {

bool Model::may_collide(int i, int j) const {
  const ModelBody& a = bodies[i];
  const ModelBody& b = bodies[j];
  if (a.is_dirichlet() && b.is_dirichlet()) return false;
  const std::array<int, 2> pair{std::min(i, j), std::max(i, j)};
  if (std::binary_search(excluded_pairs.begin(), excluded_pairs.end(), pair)) return false;
  return (a.collision.group & b.collision.mask) != 0 && (b.collision.group & a.collision.mask) != 0;
}

Model compile(const Scene& scene) {
  Model model;
  model.name = scene.name;
  model.file = scene.file;
  model.settings = scene.settings;
  model.ground = scene.ground;
  model.forces = scene.forces;
  model.bodies = compile_bodies(scene);
  model.joints.reserve(scene.joints.size());
  for (const JointDef& def : scene.joints) {
    model.joints.push_back(compile_joint(def, model.bodies));
    // Jointed bodies overlap at the joint more often than not (a hinge pin in its bore).
    if (def.body2_index >= 0 && !def.collide_connected)
      model.excluded_pairs.push_back({std::min(def.body1_index, def.body2_index),
                                      std::max(def.body1_index, def.body2_index)});
  }
  for (const ExclusionDef& def : scene.exclusions) {
    model.excluded_pairs.push_back({std::min(def.body1_index, def.body2_index),
                                    std::max(def.body1_index, def.body2_index)});
  }
  std::sort(model.excluded_pairs.begin(), model.excluded_pairs.end());
  model.excluded_pairs.erase(std::unique(model.excluded_pairs.begin(), model.excluded_pairs.end()),
                             model.excluded_pairs.end());
  refuse_bodies_below_ground(model);
  refuse_intersecting_bodies(model);
  return model;
}

}  // namespace affix
