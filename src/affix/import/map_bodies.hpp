#pragma once
// MuJoCo bodies and geoms → affix bodies (README "Importing MJCF and URDF"): one affix body per MuJoCo
// body, its geoms welded into one compound shape in the body frame, its mass properties taken from the
// compiled model (mass, centre of mass, full inertia), its pose at qpos0; the world's +z plane becomes
// the ground and its other geoms one fixed body.
#include "affix/import/import_context.hpp"

namespace affix {

/// Fills ctx.scene.bodies, ctx.scene.ground and ctx.body_index.
void map_bodies(ImportContext& ctx);

/// Exclusions that make affix's contact filter ("each one's group bit in the other's mask") agree with
/// MuJoCo's ((contype₁ & conaffinity₂) ≠ 0 or (contype₂ & conaffinity₁) ≠ 0) and with the file's
/// <exclude> pairs. Call after map_bodies.
void map_contact_filter(ImportContext& ctx);

}  // namespace affix
