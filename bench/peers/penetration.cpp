#include "penetration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace affix::peers {

namespace {

using Kind = Primitive::Kind;

/// Projection radius of a box (axes the columns of R, half extents h) on the unit direction n.
double box_radius(const Mat3& R, const Vec3& h, const Vec3& n) {
  return std::abs(n.dot(R.col(0))) * h.x() + std::abs(n.dot(R.col(1))) * h.y() +
         std::abs(n.dot(R.col(2))) * h.z();
}

double box_box(const Primitive& a, const BodyPose& pa, const Primitive& b, const BodyPose& pb) {
  const Vec3 d = pb.p - pa.p;
  double depth = std::numeric_limits<double>::infinity();
  const auto axis = [&](Vec3 n) {
    const double length = n.norm();
    if (length < 1e-9) return;  // parallel edges: their cross product is no direction
    n /= length;
    depth = std::min(depth, box_radius(pa.A, a.half, n) + box_radius(pb.A, b.half, n) - std::abs(n.dot(d)));
  };
  for (int i = 0; i < 3; ++i) axis(pa.A.col(i));
  for (int i = 0; i < 3; ++i) axis(pb.A.col(i));
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) axis(pa.A.col(i).cross(pb.A.col(j)));
  }
  return depth;
}

double sphere_box(double r, const Vec3& centre, const Primitive& box, const BodyPose& pose) {
  const Vec3 local = pose.A.transpose() * (centre - pose.p);
  const Vec3 nearest = local.cwiseMax(-box.half).cwiseMin(box.half);
  if (nearest != local) return r - (local - nearest).norm();  // centre outside the box
  return r + (box.half - local.cwiseAbs()).minCoeff();          // inside: out through the nearest face
}

}  // namespace

double penetration_depth(const Primitive& a, const BodyPose& pa, const Primitive& b, const BodyPose& pb) {
  if (a.kind == Kind::sphere && b.kind == Kind::sphere) return a.radius + b.radius - (pa.p - pb.p).norm();
  if (a.kind == Kind::sphere) return sphere_box(a.radius, pa.p, b, pb);
  if (b.kind == Kind::sphere) return sphere_box(b.radius, pb.p, a, pa);
  return box_box(a, pa, b, pb);
}

double ground_penetration(const Primitive& a, const BodyPose& pose, double height) {
  return height - (pose.p.z() - world_half_extents(a, pose).z());
}

Vec3 world_half_extents(const Primitive& a, const BodyPose& pose) {
  if (a.kind == Kind::sphere) return Vec3::Constant(a.radius);
  return pose.A.cwiseAbs() * a.half;
}

}  // namespace affix::peers
