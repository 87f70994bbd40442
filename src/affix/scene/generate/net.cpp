#include "affix/scene/generate/net.hpp"

#include <array>
#include <cmath>
#include <vector>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {

namespace {

constexpr double kRadius = 0.03;  // m
constexpr double kPitch = 0.1;    // m between neighbouring centres
constexpr int kResolution = 12;   // a 3 cm ball looks round with 12 meridians

// The links of --kind links (He 2026 Fig. 14): capsules ending kLinkGap short of the knots, so that two
// unjoined, perpendicular links of one knot keep gap − radius = 5 mm between their bounding boxes (and
// √2·(gap + radius) − 2·radius ≈ 15 mm between their tips).
constexpr double kLinkRadius = 0.01;  // m
constexpr double kLinkGap = 0.015;    // m from a link's tip to its knot
constexpr double kLinkLength = kPitch - 2.0 * kLinkGap - 2.0 * kLinkRadius;  // the cylindrical part

std::string node_name(long long row, long long column) {
  return "node" + std::to_string(row) + "_" + std::to_string(column);
}

/// Links along x (`horizontal`) join knot (row, column) to (row, column + 1), links along y join
/// (row, column) to (row + 1, column); x links are numbered first, row by row.
Scene link_net(long long n) {
  require_count("--size", n, 2, static_cast<long long>(std::sqrt(static_cast<double>(kMaxBodies) / 2.0)));
  Scene scene = make_scene("net");
  const double half = 0.5 * kPitch * static_cast<double>(n - 1);
  const double height = kPitch * static_cast<double>(n - 1) + 0.1;
  const auto knot = [&](long long row, long long column) {
    return Vec3(kPitch * static_cast<double>(column) - half, kPitch * static_cast<double>(row) - half, height);
  };
  const long long per_direction = n * (n - 1);
  const auto x_link = [n](long long row, long long column) { return static_cast<int>(row * (n - 1) + column); };
  const auto y_link = [n, per_direction](long long row, long long column) {
    return static_cast<int>(per_direction + row * n + column);
  };
  scene.bodies.reserve(static_cast<std::size_t>(2 * per_direction));
  const auto add_link = [&](std::string name, const Vec3& from, const Vec3& to, const Vec3& along) {
    BodyDef link;
    link.name = std::move(name);
    link.shape = CapsuleShape{kLinkRadius, kLinkLength, kResolution};
    link.position = 0.5 * (from + to);
    link.rotation = rotation_from_z_to(along);
    add_body(scene, std::move(link));
  };
  for (long long row = 0; row < n; ++row)
    for (long long column = 0; column + 1 < n; ++column)
      add_link("x" + std::to_string(row) + "_" + std::to_string(column), knot(row, column), knot(row, column + 1),
               Vec3::UnitX());
  for (long long row = 0; row + 1 < n; ++row)
    for (long long column = 0; column < n; ++column)
      add_link("y" + std::to_string(row) + "_" + std::to_string(column), knot(row, column), knot(row + 1, column),
               Vec3::UnitY());

  scene.joints.reserve(static_cast<std::size_t>(4 * per_direction - n * n + 4));
  for (long long row = 0; row < n; ++row) {
    for (long long column = 0; column < n; ++column) {
      // The links meeting at this knot, in the order −x, +x, −y, +y.
      std::vector<int> links;
      if (column > 0) links.push_back(x_link(row, column - 1));
      if (column + 1 < n) links.push_back(x_link(row, column));
      if (row > 0) links.push_back(y_link(row - 1, column));
      if (row + 1 < n) links.push_back(y_link(row, column));
      for (std::size_t k = 1; k < links.size(); ++k)
        add_joint(scene, JointType::ball, links[k], links[0]).anchor = knot(row, column);
      // A corner pins a link no other corner pins (at size 2 every link has two corners): its x link
      // at the first and the last corner, its y link at the other two.
      const bool corner = (row == 0 || row == n - 1) && (column == 0 || column == n - 1);
      if (corner) {
        const bool along_x = (row == 0) == (column == 0);
        const int pinned = along_x ? x_link(row, column == 0 ? 0 : n - 2) : y_link(row == 0 ? 0 : n - 2, column);
        add_joint(scene, JointType::ball, pinned, -1).anchor = knot(row, column);
      }
    }
  }
  return scene;
}

}  // namespace

const char* to_string(NetKind kind) { return kind == NetKind::links ? "links" : "spheres"; }

NetKind parse_net_kind(std::string_view text) {
  if (text == "spheres") return NetKind::spheres;
  if (text == "links") return NetKind::links;
  throw InputError("--kind " + excerpt(text) + ": unknown kind of net (expected spheres or links)");
}

Scene net(const NetOptions& options) {
  if (options.kind == NetKind::links) return link_net(options.size);
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
