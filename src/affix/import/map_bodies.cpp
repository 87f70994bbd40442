#include "affix/import/map_bodies.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "affix/error.hpp"
#include "affix/import/map_mesh.hpp"

namespace affix {
namespace {

/// One geom as a compound part in its body's frame, or nullopt for a type affix cannot represent
/// (counted in `unmapped`). MuJoCo sizes are half-sizes (box) and half-lengths (capsule, cylinder),
/// affix's full ones; capsule and cylinder both run along the geom's z axis in both.
std::optional<ShapePart> geom_part(const mjModel& m, int g, Unmapped& unmapped) {
  const mjtNum* size = m.geom_size + 3 * g;
  ShapePart part;
  part.position = mj_vec(m.geom_pos + 3 * g);
  part.rotation = mj_quat(m.geom_quat + 4 * g);
  switch (m.geom_type[g]) {
    case mjGEOM_SPHERE: part.shape = SphereShape{size[0], kImportResolution}; break;
    case mjGEOM_CAPSULE: part.shape = CapsuleShape{size[0], 2.0 * size[1], kImportResolution}; break;
    case mjGEOM_CYLINDER: part.shape = CylinderShape{size[0], 2.0 * size[1], kImportResolution}; break;
    case mjGEOM_BOX: part.shape = BoxShape{2.0 * mj_vec(size), 1}; break;
    case mjGEOM_ELLIPSOID:  // a unit sphere scaled by the semi-axes
      part.shape = SphereShape{1.0, kImportResolution};
      part.scale = mj_vec(size);
      break;
    case mjGEOM_MESH: part.shape = mujoco_mesh(m, m.geom_dataid[g], unmapped); break;
    case mjGEOM_HFIELD: unmapped.add("height-field geoms"); return std::nullopt;
    default: unmapped.add("planes on moving bodies"); return std::nullopt;
  }
  return part;
}

bool visual_only(const mjModel& m, int g) { return m.geom_contype[g] == 0 && m.geom_conaffinity[g] == 0; }

/// A body's surface: its collision geoms welded together; visual-only geoms (contype = conaffinity =
/// 0) only when it has nothing else. A body with no geom affix can mesh gets a small sphere at its
/// centre of mass that touches nothing (collision group 0), so that it still has a surface to draw.
struct BodyGeometry {
  CompoundShape shape;
  int contype = 0, conaffinity = 0;
  double friction = 0.0;
  int geoms = 0;  // mapped
};

BodyGeometry body_geometry(const mjModel& m, int b, Unmapped& unmapped) {
  BodyGeometry out;
  const int first = m.body_geomadr[b], count = m.body_geomnum[b];
  bool any_collision = false;
  for (int g = first; g < first + count; ++g) any_collision = any_collision || !visual_only(m, g);
  for (int g = first; g < first + count; ++g) {
    if (any_collision && visual_only(m, g)) {
      unmapped.add("visual-only geoms (contype = conaffinity = 0)");
      continue;
    }
    auto part = geom_part(m, g, unmapped);
    if (!part) continue;
    out.shape.parts.push_back(std::move(*part));
    out.contype |= m.geom_contype[g];
    out.conaffinity |= m.geom_conaffinity[g];
    out.friction += m.geom_friction[3 * g];
    ++out.geoms;
  }
  if (out.geoms > 0) out.friction /= out.geoms;
  return out;
}

/// The central inertia in the body frame: MuJoCo keeps principal moments in the frame body_iquat.
Mat3 body_inertia(const mjModel& m, int b) {
  const Mat3 R = mj_quat(m.body_iquat + 4 * b).toRotationMatrix();
  return R * mj_vec(m.body_inertia + 3 * b).asDiagonal() * R.transpose();
}

/// The world's geoms: the first plane facing +z becomes the ground (a half-space: MuJoCo's plane size
/// only sets how it is drawn), the rest one fixed compound body.
void map_world(ImportContext& ctx) {
  const mjModel& m = ctx.mj.model();
  const mjData& d = ctx.mj.data();
  CompoundShape statics;
  double friction = 0.0;
  int contype = 0, conaffinity = 0;
  for (int g = m.body_geomadr[0]; g >= 0 && g < m.body_geomadr[0] + m.body_geomnum[0]; ++g) {
    if (m.geom_type[g] == mjGEOM_PLANE) {
      const Vec3 normal(d.geom_xmat[9 * g + 2], d.geom_xmat[9 * g + 5], d.geom_xmat[9 * g + 8]);
      if (!ctx.scene.ground && normal.z() > 1.0 - 1e-12) {
        ctx.scene.ground = Ground{d.geom_xpos[3 * g + 2], m.geom_friction[3 * g], 0.0};
      } else {
        ctx.unmapped.add("planes other than one +z floor");
      }
      continue;
    }
    if (visual_only(m, g)) {
      ctx.unmapped.add("visual-only geoms (contype = conaffinity = 0)");
      continue;
    }
    auto part = geom_part(m, g, ctx.unmapped);
    if (!part) continue;
    statics.parts.push_back(std::move(*part));
    friction += m.geom_friction[3 * g];
    contype |= m.geom_contype[g];
    conaffinity |= m.geom_conaffinity[g];
  }
  if (statics.parts.empty()) return;
  BodyDef world;
  world.name = ctx.unique_body_name("worldbody");
  world.friction = friction / static_cast<double>(statics.parts.size());
  world.shape = std::move(statics);
  world.fixed = true;
  world.collision = {contype | conaffinity, contype | conaffinity};
  ctx.scene.bodies.push_back(std::move(world));
}

}  // namespace

void map_bodies(ImportContext& ctx) {
  const mjModel& m = ctx.mj.model();
  ctx.body_index.assign(static_cast<std::size_t>(m.nbody), -1);
  map_world(ctx);
  for (int b = 1; b < m.nbody; ++b) {
    BodyDef body;
    body.name = ctx.unique_body_name(ctx.mj.name(mjOBJ_BODY, b, "body"));
    BodyGeometry geometry = body_geometry(m, b, ctx.unmapped);
    const double mass = m.body_mass[b];
    // Welded to the world (no joint between it and the world): MuJoCo never moves it.
    body.fixed = m.body_weldid[b] == 0;
    if (!body.fixed && !(mass > 0.0)) {
      throw InputError(ctx.scene.file.string() + ": body '" + body.name +
                       "' moves but has no mass (MuJoCo body_mass " + std::to_string(mass) +
                       "); expected a positive mass, from an <inertial> or from its geoms");
    }
    if (mass > 0.0) body.inertial = Inertial{mass, mj_vec(m.body_ipos + 3 * b), body_inertia(m, b)};
    if (geometry.geoms == 0) {
      // A proxy: the radius of gyration about the smallest principal axis, so that it lies inside
      // whatever the body would be; it touches nothing (group 0), the ground aside.
      const double I = mass > 0.0 ? std::max(1e-12, m.body_inertia[3 * b]) : 0.0;
      const double radius = mass > 0.0 ? std::clamp(std::sqrt(2.5 * I / mass), 1e-3, 0.05) : 0.01;
      ShapePart proxy;
      proxy.shape = SphereShape{radius, kImportResolution};
      proxy.position = mj_vec(m.body_ipos + 3 * b);
      geometry.shape.parts.push_back(std::move(proxy));
      ctx.unmapped.add("bodies without a collision geom (given a sphere that touches nothing)");
    } else {
      body.friction = geometry.friction;
    }
    const int bits = geometry.contype | geometry.conaffinity;
    body.collision = {bits, bits};
    body.shape = std::move(geometry.shape);
    body.position = ctx.mj.body_position(b);
    body.rotation = ctx.mj.body_rotation(b);
    ctx.body_index[static_cast<std::size_t>(b)] = static_cast<int>(ctx.scene.bodies.size());
    ctx.scene.bodies.push_back(std::move(body));
  }
}

void map_contact_filter(ImportContext& ctx) {
  const mjModel& m = ctx.mj.model();
  // Per affix body, the OR of its collision geoms' bits (a body is one surface in affix).
  const std::size_t n = ctx.scene.bodies.size();
  std::vector<int> contype(n, 0), conaffinity(n, 0);
  std::vector<int> mj_body(n, -1);
  for (int b = 1; b < m.nbody; ++b) mj_body[static_cast<std::size_t>(ctx.body_index[static_cast<std::size_t>(b)])] = b;
  for (int g = 0; g < m.ngeom; ++g) {
    const int i = ctx.body_index[static_cast<std::size_t>(m.geom_bodyid[g])];
    if (i < 0 || (m.geom_contype[g] == 0 && m.geom_conaffinity[g] == 0)) continue;
    contype[static_cast<std::size_t>(i)] |= m.geom_contype[g];
    conaffinity[static_cast<std::size_t>(i)] |= m.geom_conaffinity[g];
  }
  std::set<std::pair<int, int>> excluded;
  // group = mask = contype | conaffinity lets every pair MuJoCo lets touch touch in affix too (if
  // contype₁ & conaffinity₂ ≠ 0 then both (g₁ & m₂) and (g₂ & m₁) contain it); the pairs it lets
  // touch that MuJoCo would not are excluded one by one.
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const BodyDef &a = ctx.scene.bodies[i], &b = ctx.scene.bodies[j];
      if ((a.fixed && b.fixed) || mj_body[i] < 0 || mj_body[j] < 0) continue;
      const bool affix_touch = (a.collision.group & b.collision.mask) && (b.collision.group & a.collision.mask);
      const bool mujoco_touch = (contype[i] & conaffinity[j]) || (contype[j] & conaffinity[i]);
      if (affix_touch && !mujoco_touch) excluded.insert({static_cast<int>(i), static_cast<int>(j)});
    }
  }
  for (int e = 0; e < m.nexclude; ++e) {  // signature (body1 + 1) << 16 + body2 + 1
    const int sig = m.exclude_signature[e];
    const int b1 = (sig >> 16) - 1, b2 = (sig & 0xFFFF) - 1;
    if (b1 < 0 || b2 < 0 || b1 >= m.nbody || b2 >= m.nbody) continue;
    const int i = ctx.body_index[static_cast<std::size_t>(b1)], j = ctx.body_index[static_cast<std::size_t>(b2)];
    if (i >= 0 && j >= 0 && i != j) excluded.insert({std::min(i, j), std::max(i, j)});
  }
  for (const auto& [i, j] : excluded) {
    ctx.scene.exclusions.push_back({ctx.scene.bodies[static_cast<std::size_t>(i)].name,
                                    ctx.scene.bodies[static_cast<std::size_t>(j)].name, i, j});
  }
}

}  // namespace affix
