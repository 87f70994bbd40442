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

/// A capsule's segment: centre c and half axis e (the rest z axis times the half length).
struct Segment {
  Vec3 c, e;
};
Segment segment_of(const Primitive& capsule, const BodyPose& pose) { return {pose.p, capsule.half_length * pose.A.col(2)}; }

/// Distance from x to the segment.
double point_segment(const Vec3& x, const Segment& s) {
  const double ee = s.e.squaredNorm();
  const double t = ee > 0.0 ? std::clamp((x - s.c).dot(s.e) / ee, -1.0, 1.0) : 0.0;
  return (x - s.c - t * s.e).norm();
}

/// Distance between two segments: the minimum of |c₁ + s e₁ − c₂ − t e₂| over s, t ∈ [−1, 1], a convex
/// quadratic; its minimiser is the unconstrained one clamped, or lies on an edge of the square, where
/// each edge is a point–segment problem (Ericson 2005 §5.1.9 by cases).
double segment_segment(const Segment& a, const Segment& b) {
  const Vec3 d = a.c - b.c;
  const double aa = a.e.squaredNorm(), bb = b.e.squaredNorm(), ab = a.e.dot(b.e);
  const double det = aa * bb - ab * ab;
  if (det > 1e-14 * aa * bb) {
    // Interior stationary point: [aa −ab; −ab bb](s, t) = (−e₁·d, e₂·d).
    const double s = (-bb * a.e.dot(d) + ab * b.e.dot(d)) / det, t = (ab * -a.e.dot(d) + aa * b.e.dot(d)) / det;
    if (std::abs(s) <= 1.0 && std::abs(t) <= 1.0) return (d + s * a.e - t * b.e).norm();
  }
  // Otherwise (or parallel) the minimum is on the square's boundary: an end of one against the other.
  return std::min({point_segment(a.c + a.e, b), point_segment(a.c - a.e, b), point_segment(b.c + b.e, a),
                   point_segment(b.c - b.e, a)});
}

/// Distance from x to the box (0 inside).
double point_box(const Vec3& x, const Primitive& box, const BodyPose& pose) {
  const Vec3 local = pose.A.transpose() * (x - pose.p);
  return (local - local.cwiseMax(-box.half).cwiseMin(box.half)).norm();
}

/// A capsule against a box. Its depth is r plus the segment's overlap with the box, min over n of the
/// projections' overlap; the segment ⊕ box difference is a zonotope whose face normals are the box's 3
/// face normals and the 3 products of e with its edges, so the minimum over those 6 is exact (as for
/// box pairs). When the segment is outside the box that minimum only bounds its distance, so there the
/// depth is r minus the distance, the minimum of a convex function of the segment parameter, found by
/// golden-section search to round-off.
double capsule_box(const Primitive& capsule, const BodyPose& pc, const Primitive& box, const BodyPose& pb) {
  const Segment s = segment_of(capsule, pc);
  const auto distance = [&](double t) { return point_box(s.c + t * s.e, box, pb); };
  double lo = -1.0, hi = 1.0;
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1 = distance(x1), f2 = distance(x2);
  for (int k = 0; k < 80 && f1 + f2 > 0.0; ++k) {
    if (f1 <= f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = distance(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = distance(x2);
    }
  }
  const double outside = std::min({f1, f2, distance(-1.0), distance(1.0)});
  if (outside > 0.0) return capsule.radius - outside;
  const Vec3 d = pc.p - pb.p;
  double depth = std::numeric_limits<double>::infinity();
  const auto axis = [&](Vec3 n) {
    const double length = n.norm();
    if (length < 1e-9) return;
    n /= length;
    depth = std::min(depth, box_radius(pb.A, box.half, n) + std::abs(n.dot(s.e)) - std::abs(n.dot(d)));
  };
  for (int i = 0; i < 3; ++i) axis(pb.A.col(i));
  for (int i = 0; i < 3; ++i) axis(s.e.cross(pb.A.col(i)));
  return capsule.radius + std::max(depth, 0.0);
}

double capsule_any(const Primitive& a, const BodyPose& pa, const Primitive& b, const BodyPose& pb) {
  const Segment s = segment_of(a, pa);
  if (b.kind == Kind::sphere) return a.radius + b.radius - point_segment(pb.p, s);
  if (b.kind == Kind::capsule) return a.radius + b.radius - segment_segment(s, segment_of(b, pb));
  return capsule_box(a, pa, b, pb);
}

}  // namespace

double penetration_depth(const Primitive& a, const BodyPose& pa, const Primitive& b, const BodyPose& pb) {
  // A capsule is its segment ⊕ a ball of its radius: against a sphere or a capsule the depth is the sum
  // of the radii less the distance of the cores (the overlap of the projections on every direction
  // grows by the radii, so the minimum over directions does too; two crossing cores have minimum 0).
  if (a.kind == Kind::capsule) return capsule_any(a, pa, b, pb);
  if (b.kind == Kind::capsule) return capsule_any(b, pb, a, pa);
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
  if (a.kind == Kind::capsule) return a.half_length * pose.A.col(2).cwiseAbs() + Vec3::Constant(a.radius);
  return pose.A.cwiseAbs() * a.half;
}

}  // namespace affix::peers
