#pragma once
// What the mapping stages share while one compiled MuJoCo model becomes an affix scene.
#include <set>
#include <string>
#include <vector>

#include "affix/import/mujoco_model.hpp"
#include "affix/import/unmapped.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

struct ImportContext {
  const MujocoModel& mj;
  Scene& scene;
  Unmapped& unmapped;
  /// MuJoCo body id → index into scene.bodies; the world body (id 0) → −1.
  std::vector<int> body_index;
  /// Body names in use (unique, never "world").
  std::set<std::string> body_names;

  /// `wanted` if free, else `wanted` with the first free suffix "_2", "_3", ...
  std::string unique_body_name(const std::string& wanted) {
    std::string name = wanted == "world" ? "world_body" : wanted;
    for (int k = 2; body_names.count(name); ++k) name = wanted + "_" + std::to_string(k);
    body_names.insert(name);
    return name;
  }
  /// The name a joint uses for MuJoCo body `id`: its affix name, or "world".
  std::string body_name(int id) const {
    const int i = body_index[static_cast<std::size_t>(id)];
    return i < 0 ? std::string("world") : scene.bodies[static_cast<std::size_t>(i)].name;
  }
};

/// Primitives are meshed at this many segments around: contact cost grows with the triangles, and 12
/// keeps a sphere's surface within 3.5 % of its radius.
inline constexpr int kImportResolution = 12;

}  // namespace affix
