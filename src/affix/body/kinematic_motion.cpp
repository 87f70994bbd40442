#include "affix/body/kinematic_motion.hpp"

#include <cassert>

#include "affix/math/rotation.hpp"

namespace affix {
namespace {

Vec12 keyframe_state(const AffineBody& body, const std::vector<Keyframe>& keys, double t) {
  Keyframe start{0.0, state_translation(body.q0), Quat(state_matrix(body.q0))};
  const Keyframe* previous = &start;
  for (const Keyframe& key : keys) {
    if (t < key.time) {
      const double span = key.time - previous->time;
      const double s = span > 0.0 ? (t - previous->time) / span : 1.0;
      const Vec3 p = (1.0 - s) * previous->position + s * key.position;
      const Quat r = previous->rotation.slerp(s, key.rotation);
      return affine_state(p, r.toRotationMatrix());
    }
    previous = &key;
  }
  return affine_state(previous->position, previous->rotation.toRotationMatrix());
}

}  // namespace

Vec12 prescribed_state(const AffineBody& body, double t) {
  if (!body.kinematic) return body.q0;
  const Kinematic& k = *body.kinematic;
  if (!k.keyframes.empty()) return keyframe_state(body, k.keyframes, t);
  const Vec3 p = state_translation(body.q0) + t * k.velocity;
  const Mat3 A = rotation_from_rotation_vector(t * k.angular_velocity) * state_matrix(body.q0);
  return affine_state(p, A);
}

}  // namespace affix
