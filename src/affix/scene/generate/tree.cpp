#include "affix/scene/generate/tree.hpp"

#include <vector>

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {

namespace {

constexpr double kRadius = 0.04;        // m
constexpr double kLevelSpacing = 0.25;  // m between levels
constexpr double kLeafSpacing = 0.12;   // m between neighbouring leaves: 2·radius + 0.04 m
constexpr int kResolution = 12;

}  // namespace

long long tree_body_count(long long depth, long long branching) {
  long long total = 0;
  long long level = 1;  // nodes on the current level
  for (long long k = 0; k <= depth; ++k) {
    total += level;
    if (total > kMaxBodies) return kMaxBodies + 1;
    level *= branching;  // level ≤ kMaxBodies before this, branching ≤ kMaxBodies: no overflow
    if (level > kMaxBodies) level = kMaxBodies + 1;
  }
  return total;
}

Scene tree(const TreeOptions& options) {
  require_count("--depth", options.depth, 1, kMaxBodies);
  require_count("--branching", options.branching, 1, kMaxBodies);
  require_body_limit("--depth " + std::to_string(options.depth) + " --branching " +
                         std::to_string(options.branching),
                     tree_body_count(options.depth, options.branching));
  Scene scene = make_scene("tree");
  const long long b = options.branching;
  const long long depth = options.depth;
  const double top = kLevelSpacing * static_cast<double>(depth) + 0.1;

  // leaves_below[k]: the leaves under one node of level k, b^(depth − k).
  std::vector<long long> leaves_below(static_cast<std::size_t>(depth) + 1, 1);
  for (long long k = depth - 1; k >= 0; --k) leaves_below[k] = leaves_below[k + 1] * b;
  const double leaves = static_cast<double>(leaves_below[0]);

  int first_of_previous_level = -1;
  long long level_size = 1;
  for (long long k = 0; k <= depth; ++k) {
    const int first_of_level = static_cast<int>(scene.bodies.size());
    const double span = static_cast<double>(leaves_below[k]);
    for (long long i = 0; i < level_size; ++i) {
      BodyDef node;
      node.name = "node" + std::to_string(first_of_level + i);
      node.shape = SphereShape{kRadius, kResolution};
      // Node i of level k is over leaves [i·span, (i + 1)·span): centred over them, the tree centred on x = 0.
      const double x = ((static_cast<double>(i) + 0.5) * span - 0.5 * leaves) * kLeafSpacing;
      node.position = {x, 0.0, top - kLevelSpacing * static_cast<double>(k)};
      const int index = add_body(scene, std::move(node));
      const int parent = k == 0 ? -1 : first_of_previous_level + static_cast<int>(i / b);
      JointDef& joint = add_joint(scene, JointType::ball, index, parent);
      joint.anchor = parent < 0 ? scene.bodies[index].position
                                : Vec3(0.5 * (scene.bodies[index].position + scene.bodies[parent].position));
    }
    first_of_previous_level = first_of_level;
    level_size *= b;
  }
  return scene;
}

}  // namespace affix::generate
