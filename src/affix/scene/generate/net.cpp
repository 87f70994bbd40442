#include "affix/scene/generate/net.hpp"

#include <cmath>

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {

namespace {

constexpr double kRadius = 0.03;  // m
constexpr double kPitch = 0.1;    // m between neighbouring centres
constexpr int kResolution = 12;   // a 3 cm ball looks round with 12 meridians

std::string node_name(long long row, long long column) {
  return "node" + std::to_string(row) + "_" + std::to_string(column);
}

}  // namespace

Scene net(const NetOptions& options) {
  // Two per side at least, so that the four corners are four different spheres.
  const auto max_size = static_cast<long long>(std::sqrt(static_cast<double>(kMaxBodies)));
  require_count("--size", options.size, 2, max_size);
  Scene scene = make_scene("net");
  const long long n = options.size;
  const double half = 0.5 * kPitch * static_cast<double>(n - 1);
  const double height = kPitch * static_cast<double>(n - 1) + 0.1;
  const auto index = [n](long long row, long long column) { return static_cast<int>(row * n + column); };

  for (long long row = 0; row < n; ++row) {
    for (long long column = 0; column < n; ++column) {
      BodyDef node;
      node.name = node_name(row, column);
      node.shape = SphereShape{kRadius, kResolution};
      node.position = {kPitch * static_cast<double>(column) - half, kPitch * static_cast<double>(row) - half,
                       height};
      add_body(scene, std::move(node));
    }
  }
  const auto join = [&](int a, int b) {
    JointDef& joint = add_joint(scene, JointType::ball, a, b);
    joint.anchor = 0.5 * (scene.bodies[a].position + scene.bodies[b].position);
  };
  for (long long row = 0; row < n; ++row) {
    for (long long column = 0; column < n; ++column) {
      if (column > 0) join(index(row, column), index(row, column - 1));
      if (row > 0) join(index(row, column), index(row - 1, column));
    }
  }
  for (const int corner : {index(0, 0), index(0, n - 1), index(n - 1, 0), index(n - 1, n - 1)}) {
    JointDef& pin = add_joint(scene, JointType::ball, corner, -1);
    pin.anchor = scene.bodies[corner].position;
  }
  return scene;
}

}  // namespace affix::generate
