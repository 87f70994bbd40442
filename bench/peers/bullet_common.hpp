#pragma once
// What Bullet's two modes share (bullet_engine.cpp: btRigidBody with point-to-point and hinge
// constraints; bullet_multibody_engine.cpp: btMultiBody trees): conversions, the primitive shapes, and
// the scene's collision filters as an overlap filter (Bullet's own group/mask test is a one-way AND
// per proxy pair and cannot say affix's "each one's group in the other's mask" for arbitrary masks).
#include <btBulletDynamicsCommon.h>

#include <memory>

#include "affix/model/model.hpp"
#include "primitives.hpp"

namespace affix::peers {

inline btVector3 bt(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

inline btMatrix3x3 bt(const Mat3& m) {
  return {m(0, 0), m(0, 1), m(0, 2), m(1, 0), m(1, 1), m(1, 2), m(2, 0), m(2, 1), m(2, 2)};
}

inline Vec3 from_bt(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

inline Mat3 from_bt(const btMatrix3x3& r) {
  Mat3 m;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) m(a, b) = r[a][b];
  }
  return m;
}

/// Bullet's own primitive for the shape, centred on the body origin: btBoxShape (half extents),
/// btSphereShape, btCapsuleShapeZ (radius and the cylinder's full height, along z as affix's capsule).
inline std::unique_ptr<btCollisionShape> bullet_shape(const Primitive& shape) {
  switch (shape.kind) {
    case Primitive::Kind::box: return std::make_unique<btBoxShape>(bt(shape.half));
    case Primitive::Kind::sphere: return std::make_unique<btSphereShape>(shape.radius);
    case Primitive::Kind::capsule: return std::make_unique<btCapsuleShapeZ>(shape.radius, 2 * shape.half_length);
  }
  return nullptr;
}

/// Whether any body has a collision filter other than the default (group 1, every mask bit).
inline bool has_collision_filters(const Model& model) {
  for (const ModelBody& body : model.bodies) {
    if (body.collision.group != CollisionFilter{}.group || body.collision.mask != CollisionFilter{}.mask) return true;
  }
  return false;
}

/// Model::may_collide for two collision objects whose user index is their model body (−1: the ground,
/// which meets every body), after Bullet's own group test.
class ModelOverlapFilter final : public btOverlapFilterCallback {
 public:
  explicit ModelOverlapFilter(const Model& model) : model_(model) {}
  bool needBroadphaseCollision(btBroadphaseProxy* p0, btBroadphaseProxy* p1) const override {
    if ((p0->m_collisionFilterGroup & p1->m_collisionFilterMask) == 0 ||
        (p1->m_collisionFilterGroup & p0->m_collisionFilterMask) == 0) {
      return false;
    }
    const int i = static_cast<const btCollisionObject*>(p0->m_clientObject)->getUserIndex();
    const int j = static_cast<const btCollisionObject*>(p1->m_clientObject)->getUserIndex();
    return i < 0 || j < 0 || model_.may_collide(i, j);
  }

 private:
  const Model& model_;
};

}  // namespace affix::peers
