#include "affix/geometry/primitives.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace affix {

namespace {

constexpr double kPi = std::numbers::pi;

void require_positive(double value, const char* what) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(std::string(what) + " must be a positive finite number");
  }
}

void require_at_least(int value, int minimum, const char* what) {
  if (value < minimum) {
    throw std::invalid_argument(std::string(what) + " must be at least " + std::to_string(minimum));
  }
}

// ---------------------------------------------------------------- box

/// One face of the box: the outward axis `normal_axis` on side `sign` (±1), spanned by tangent axes
/// (u, v) chosen so that e_u × e_v = sign · e_normal; a counter-clockwise (u, v) quad is then
/// counter-clockwise seen from outside.
struct BoxFace {
  int normal_axis, u, v;
  int sign;
};

constexpr BoxFace kBoxFaces[6] = {
    {0, 1, 2, +1}, {0, 2, 1, -1},  // x: e_y × e_z = +e_x
    {1, 2, 0, +1}, {1, 0, 2, -1},  // y: e_z × e_x = +e_y
    {2, 0, 1, +1}, {2, 1, 0, -1},  // z: e_x × e_y = +e_z
};

}  // namespace

TriangleMesh make_box(const Vec3& size, int segments_per_edge) {
  require_positive(size.x(), "box size x");
  require_positive(size.y(), "box size y");
  require_positive(size.z(), "box size z");
  require_at_least(segments_per_edge, 1, "box segments per edge");
  const int n = segments_per_edge;

  // Vertices are the surface points of the (n+1)³ lattice; a lattice point shared by several faces
  // (edges, corners) gets a single index, which is what keeps the mesh closed. Only the surface is
  // indexed: a point belongs to the first axis on which it sits at 0 or n, and each axis keeps a
  // (side, u, v) table of (n+1)² entries per side — O(n²) memory where the whole lattice is O(n³).
  TriangleMesh mesh;
  const std::size_t side = static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(n + 1);
  std::array<std::vector<int>, 3> index;
  for (auto& table : index) table.assign(2 * side, -1);
  auto vertex = [&](const std::array<int, 3>& g) {
    int axis = 0;
    while (g[axis] != 0 && g[axis] != n) ++axis;  // some axis is on the surface: g is a face point
    const auto u = static_cast<std::size_t>(g[(axis + 1) % 3]);
    const auto v = static_cast<std::size_t>(g[(axis + 2) % 3]);
    int& id = index[axis][(g[axis] == n ? side : 0) + u * static_cast<std::size_t>(n + 1) + v];
    if (id < 0) {
      id = static_cast<int>(mesh.vertices.size());
      Vec3 p;
      for (int a = 0; a < 3; ++a) {
        p[a] = size[a] * (static_cast<double>(g[a]) / n - 0.5);
      }
      mesh.vertices.push_back(p);
    }
    return id;
  };

  for (const BoxFace& face : kBoxFaces) {
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        auto corner = [&](int da, int db) {
          std::array<int, 3> g{};
          g[face.normal_axis] = face.sign > 0 ? n : 0;
          g[face.u] = a + da;
          g[face.v] = b + db;
          return vertex(g);
        };
        const int c00 = corner(0, 0), c10 = corner(1, 0), c11 = corner(1, 1), c01 = corner(0, 1);
        mesh.faces.push_back({c00, c10, c11});
        mesh.faces.push_back({c00, c11, c01});
      }
    }
  }
  return mesh;
}

// ---------------------------------------------------------------- surfaces of revolution
// A profile is a list of (rho, z) points in a half-plane through the z axis, revolved about z.
// Walking the profile clockwise in the (rho, z) plane (downwards on the outer side) and the rings
// counter-clockwise about +z makes every facet counter-clockwise seen from outside.

namespace {

struct ProfilePoint {
  double rho, z;
};

/// Appends a ring of `segments` vertices at radius rho and height z; returns its first index.
int add_ring(TriangleMesh& mesh, const ProfilePoint& p, int segments) {
  const int first = static_cast<int>(mesh.vertices.size());
  for (int j = 0; j < segments; ++j) {
    const double phi = 2.0 * kPi * j / segments;
    mesh.vertices.emplace_back(p.rho * std::cos(phi), p.rho * std::sin(phi), p.z);
  }
  return first;
}

/// Two triangles per quad between an upper ring and the ring after it on the profile.
void add_band(TriangleMesh& mesh, int upper, int lower, int segments) {
  for (int j = 0; j < segments; ++j) {
    const int k = (j + 1) % segments;
    const int a = upper + j, b = upper + k, c = lower + k, d = lower + j;
    mesh.faces.push_back({a, d, c});
    mesh.faces.push_back({a, c, b});
  }
}

/// Fan from a pole vertex to a ring; `top` when the pole comes before the ring on the profile.
void add_fan(TriangleMesh& mesh, int pole, int ring, int segments, bool top) {
  for (int j = 0; j < segments; ++j) {
    const int a = ring + j, b = ring + (j + 1) % segments;
    mesh.faces.push_back(top ? std::array<int, 3>{pole, a, b} : std::array<int, 3>{pole, b, a});
  }
}

/// Revolves an open profile whose first and last points are the poles (only their z is used) and
/// whose points between are rings.
TriangleMesh revolve_between_poles(const std::vector<ProfilePoint>& profile, int segments) {
  TriangleMesh mesh;
  const int top = 0;
  mesh.vertices.emplace_back(0.0, 0.0, profile.front().z);
  std::vector<int> rings;
  for (std::size_t i = 1; i + 1 < profile.size(); ++i) {
    rings.push_back(add_ring(mesh, profile[i], segments));
  }
  const int bottom = static_cast<int>(mesh.vertices.size());
  mesh.vertices.emplace_back(0.0, 0.0, profile.back().z);

  add_fan(mesh, top, rings.front(), segments, true);
  for (std::size_t i = 0; i + 1 < rings.size(); ++i) {
    add_band(mesh, rings[i], rings[i + 1], segments);
  }
  add_fan(mesh, bottom, rings.back(), segments, false);
  return mesh;
}

/// Points of a circular arc of `radius` about (0, z_center) in the profile plane, at polar angles
/// θ (from +z, towards +rho) for each value in `angles`.
void append_arc(std::vector<ProfilePoint>& profile, double radius, double z_center,
                const std::vector<double>& angles) {
  for (double theta : angles) {
    profile.push_back({radius * std::sin(theta), z_center + radius * std::cos(theta)});
  }
}

/// `count` + 1 evenly spaced values from `from` to `to` inclusive.
std::vector<double> linspace(double from, double to, int count) {
  std::vector<double> values;
  for (int k = 0; k <= count; ++k) {
    values.push_back(from + (to - from) * k / count);
  }
  return values;
}

}  // namespace

// Triangle counts, from the same band and ring numbers as the meshing below. A surface revolved between
// two poles through r rings has two fans of `segments` triangles and r − 1 bands of 2·segments.

namespace {

std::int64_t between_poles(std::int64_t rings, std::int64_t segments) { return 2 * segments * rings; }

}  // namespace

std::int64_t box_triangle_count(std::int64_t segments_per_edge) {
  return 12 * segments_per_edge * segments_per_edge;  // 6 faces of n² squares
}

std::int64_t sphere_triangle_count(std::int64_t segments) {
  const std::int64_t bands = std::max<std::int64_t>(2, segments / 2);
  return between_poles(bands - 1, segments);
}

std::int64_t capsule_triangle_count(double length, std::int64_t segments) {
  const std::int64_t cap_bands = std::max<std::int64_t>(1, segments / 4);
  return between_poles(length == 0.0 ? 2 * cap_bands - 1 : 2 * cap_bands, segments);
}

std::int64_t cylinder_triangle_count(std::int64_t segments) { return between_poles(2, segments); }

std::int64_t torus_triangle_count(std::int64_t segments) {
  return 2 * segments * std::max<std::int64_t>(3, segments / 2);
}

TriangleMesh make_sphere(double radius, int segments) {
  require_positive(radius, "sphere radius");
  require_at_least(segments, 3, "sphere segments");
  const int bands = std::max(2, segments / 2);
  std::vector<ProfilePoint> profile;
  append_arc(profile, radius, 0.0, linspace(0.0, kPi, bands));
  return revolve_between_poles(profile, segments);
}

TriangleMesh make_capsule(double radius, double length, int segments) {
  require_positive(radius, "capsule radius");
  if (!(length >= 0.0) || !std::isfinite(length)) {
    throw std::invalid_argument("capsule length must be a non-negative finite number");
  }
  require_at_least(segments, 3, "capsule segments");
  const int cap_bands = std::max(1, segments / 4);
  const double half = 0.5 * length;

  // Upper hemisphere from the pole down to its equator at z = +L/2, lower one from its equator at
  // z = −L/2 down to the pole; without a cylinder (L = 0) the two equators are the same ring.
  std::vector<ProfilePoint> profile;
  append_arc(profile, radius, half, linspace(0.0, kPi / 2, cap_bands));
  std::vector<double> lower = linspace(kPi / 2, kPi, cap_bands);
  if (length == 0.0) {
    lower.erase(lower.begin());
  }
  append_arc(profile, radius, -half, lower);
  return revolve_between_poles(profile, segments);
}

TriangleMesh make_cylinder(double radius, double length, int segments) {
  require_positive(radius, "cylinder radius");
  require_positive(length, "cylinder length");
  require_at_least(segments, 3, "cylinder segments");
  const double half = 0.5 * length;
  return revolve_between_poles({{0.0, half}, {radius, half}, {radius, -half}, {0.0, -half}}, segments);
}

TriangleMesh make_torus(double major, double minor, int segments) {
  require_positive(major, "torus major radius");
  require_positive(minor, "torus minor radius");
  if (!(minor < major)) {
    throw std::invalid_argument("torus minor radius must be smaller than the major radius");
  }
  require_at_least(segments, 3, "torus segments");
  const int tube = std::max(3, segments / 2);

  // The tube's cross-section, walked clockwise in the (rho, z) plane: ψ from 0, going down outside.
  TriangleMesh mesh;
  std::vector<int> rings;
  for (int k = 0; k < tube; ++k) {
    const double psi = 2.0 * kPi * k / tube;
    rings.push_back(add_ring(mesh, {major + minor * std::cos(psi), -minor * std::sin(psi)}, segments));
  }
  for (int k = 0; k < tube; ++k) {
    add_band(mesh, rings[k], rings[(k + 1) % tube], segments);
  }
  return mesh;
}

}  // namespace affix
