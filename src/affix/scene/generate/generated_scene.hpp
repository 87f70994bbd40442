#pragma once
// What every generated scene (`affix generate`, one family per file beside this one) shares: the
// clearance kept between bodies at the start, the size limit, the settings, and appending bodies and
// joints with their names and indices both filled in, so that a generated Scene is complete before it
// is ever written or read back.
#include <optional>
#include <string>

#include "affix/scene/scene.hpp"

namespace affix::generate {

/// The least gap (m) between two bodies that may touch, and between a dynamic body and the ground, at
/// t = 0. The ipc solver refuses gaps under d̂/1000 = 1 µm; 5 mm is visible in a render, is far above
/// the rounding of the written numbers, and the meshes are inscribed in the smooth shapes laid out
/// here, so the meshed gaps are at least as large.
inline constexpr double kClearance = 0.005;

/// The most bodies a generated scene of joints alone (chain, net, tree, pulley) may have: the
/// 10⁶-link chain of He 2026 §6, which the mabd solver sets up in seconds (README, Performance).
inline constexpr long long kMaxBodies = 1'000'000;

/// The most bodies a generated scene with contact (pile, drop, wrecking-ball) may have. A step of the
/// 1,000-body drop already takes seconds (README, Performance); 10⁵ bodies at the resolutions used here
/// stay under the loader's triangle limit, and anything larger is a typing mistake rather than a scene
/// anyone can run.
inline constexpr long long kMaxContactBodies = 100'000;

/// The time step and simulated time of every generated scene (s), before --dt and --duration.
inline constexpr double kTimeStep = 0.01;
inline constexpr double kDuration = 2.0;

/// Frames per second written by a generated scene, when its time step allows it.
inline constexpr double kOutputFps = 50.0;

/// kOutputFps when 1/dt allows it and the frames stay within the frame limit; otherwise absent (every
/// step is a frame), so that a larger --dt never makes a generated scene invalid.
std::optional<double> output_fps_for(double dt, double duration);

/// An empty scene with kTimeStep, kDuration and output_fps_for() of them.
Scene make_scene(const std::string& name);

/// Appends `body` and returns its index.
int add_body(Scene& scene, BodyDef body);

/// Appends a joint of `type` between bodies[body1] and bodies[body2] (−1: the world), named
/// "<body1>-<body2>", with the body names and indices set; the caller fills in the geometry.
JointDef& add_joint(Scene& scene, JointType type, int body1, int body2);

/// The rotation taking the body z axis (the axis of capsules and cylinders) to `direction`.
Quat rotation_from_z_to(const Vec3& direction);

}  // namespace affix::generate
