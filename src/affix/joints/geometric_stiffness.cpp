#include "affix/joints/geometric_stiffness.hpp"

#include <array>
#include <cassert>

#include "affix/joints/rigid_parts.hpp"
#include "affix/math/rotation.hpp"

namespace affix {
namespace {

constexpr int c1 = 0, t1 = 3, c2 = 6, t2 = 9;  // offsets of δc₁, δθ₁, δc₂, δθ₂

/// K̃ split by kind: the point rows' Λ per side (their block is rank 2 and built once), the dot-1 rows'
/// (λ, a, u), and the rest as a dense 12 × 12 sum.
struct Split {
  Vec3 point_force = Vec3::Zero();  // Λ = Σ λ_k e_k
  struct Dot1 {
    double lambda;
    Vec3 a, u;
  };
  std::array<Dot1, 6> dot1{};
  int dot1_count = 0;
  Mat12 other = Mat12::Zero();
};

void add_dot2(Mat12& K, double lambda, const RigidSide& s1, const RigidSide& s2, const Vec3& u) {
  const Mat3 U = lambda * skew(u), R1 = skew(s1.r);
  K.block<3, 3>(t1, t1) += U * R1;
  if (!s2.moves) return;
  const Vec3 w = s1.x - (s2.x - s2.r);  // x₁ − c₂
  K.block<3, 3>(c1, t2) -= U;
  K.block<3, 3>(c2, t2) += U;
  K.block<3, 3>(t1, t2) -= R1 * U;
  K.block<3, 3>(t2, c1) += U;
  K.block<3, 3>(t2, c2) -= U;
  K.block<3, 3>(t2, t1) -= U * R1;
  K.block<3, 3>(t2, t2) += skew(w) * U;
}

void add_length(Mat12& K, double lambda, const RigidSide& s1, const RigidSide& s2) {
  const Vec3 d = s1.x - s2.x;
  const double ell = d.norm();
  const Vec3 n = d / ell;
  Eigen::Matrix<double, 3, 12> G = Eigen::Matrix<double, 3, 12>::Zero();
  G.block<3, 3>(0, c1) = Mat3::Identity();
  G.block<3, 3>(0, t1) = -skew(s1.r);
  if (s2.moves) {
    G.block<3, 3>(0, c2) = -Mat3::Identity();
    G.block<3, 3>(0, t2) = skew(s2.r);
  }
  const Eigen::Matrix<double, 3, 12> dn = (Mat3::Identity() - n * n.transpose()) * G / ell;  // δn
  K.block<3, 12>(c1, 0) += lambda * dn;
  K.block<3, 12>(t1, 0) += lambda * skew(s1.r) * dn;
  K.block<3, 3>(t1, t1) += lambda * skew(n) * skew(s1.r);
  if (!s2.moves) return;
  K.block<3, 12>(c2, 0) -= lambda * dn;
  K.block<3, 12>(t2, 0) -= lambda * skew(s2.r) * dn;
  K.block<3, 3>(t2, t2) -= lambda * skew(n) * skew(s2.r);
}

Split split(const RigidJoint& joint, const RigidPose& pose1, const RigidPose& pose2, const RigidVector& lambda) {
  assert(joint.body1 >= 0 && lambda.size() == joint.count);
  const RigidSide s1 = rigid_side(joint.body1, joint.frame1, pose1);
  const RigidSide s2 = rigid_side(joint.body2, joint.frame2, pose2);
  const RigidParts parts = rigid_parts(joint);
  Split out;
  for (int k = 0; k < parts.count; ++k) {
    const RigidPart& p = parts.part[k];
    switch (p.kind) {
      case RigidPart::Kind::point: out.point_force[p.axis1] += lambda[k]; break;
      case RigidPart::Kind::dot1:
        out.dot1[out.dot1_count++] = {lambda[k], s1.axes.col(p.axis1), s2.axes.col(p.axis2)};
        break;
      case RigidPart::Kind::dot2: add_dot2(out.other, lambda[k], s1, s2, s2.axes.col(p.axis2)); break;
      case RigidPart::Kind::length: add_length(out.other, lambda[k], s1, s2); break;
    }
  }
  return out;
}

}  // namespace

Mat12 geometric_stiffness(const RigidJoint& joint, const RigidPose& pose1, const RigidPose& pose2,
                          const RigidVector& lambda) {
  const Split s = split(joint, pose1, pose2, lambda);
  const RigidSide s1 = rigid_side(joint.body1, joint.frame1, pose1);
  const RigidSide s2 = rigid_side(joint.body2, joint.frame2, pose2);
  Mat12 K = s.other;
  const Mat3 L = skew(s.point_force);
  K.block<3, 3>(t1, t1) += L * skew(s1.r);
  if (s2.moves) K.block<3, 3>(t2, t2) -= L * skew(s2.r);
  for (int k = 0; k < s.dot1_count; ++k) {
    const auto& [l, a, u] = s.dot1[k];
    K.block<3, 3>(t1, t1) += l * skew(u) * skew(a);
    if (!s2.moves) continue;
    K.block<3, 3>(t1, t2) -= l * skew(a) * skew(u);
    K.block<3, 3>(t2, t1) -= l * skew(u) * skew(a);
    K.block<3, 3>(t2, t2) += l * skew(a) * skew(u);
  }
  return K;
}

void geometric_stiffness_terms(const RigidJoint& joint, const RigidPose& pose1, const RigidPose& pose2,
                               const RigidVector& lambda, std::vector<RankOneTerm>& out) {
  const Split s = split(joint, pose1, pose2, lambda);
  const RigidSide s1 = rigid_side(joint.body1, joint.frame1, pose1);
  const RigidSide s2 = rigid_side(joint.body2, joint.frame2, pose2);
  // Point parts: ±[Λ][r] = (X t)tᵀ + (X q)qᵀ on the side's θ block (Andrews Eq. 5).
  const auto point_terms = [&](const Vec3& r, int offset, double sign) {
    if (s.point_force.isZero(0.0) || r.isZero(0.0)) return;
    const Vec3 t = any_perpendicular(r.normalized()), q = r.normalized().cross(t);
    const Mat3 X = sign * skew(s.point_force) * skew(r);
    for (const Vec3& e : {t, q}) {
      RankOneTerm term;
      term.a.segment<3>(offset) = X * e;
      term.b.segment<3>(offset) = e;
      out.push_back(term);
    }
  };
  point_terms(s1.r, t1, 1.0);
  if (s2.moves) point_terms(s2.r, t2, -1.0);
  // Dot-1 parts: λ(ā′ū₁ᵀ − ū′ā₂ᵀ) − λ(a·u) Σ ē_k ē_kᵀ (header comment; against the world ū′ → ū₁ and
  // the ā₂ term and the θ₂ halves vanish).
  for (int k = 0; k < s.dot1_count; ++k) {
    const auto& [l, a, u] = s.dot1[k];
    const double side2 = s2.moves ? -1.0 : 0.0;
    RankOneTerm first;
    first.a.segment<3>(t1) = l * a;
    first.a.segment<3>(t2) = side2 * l * a;
    first.b.segment<3>(t1) = u;
    out.push_back(first);
    if (s2.moves) {
      RankOneTerm second;
      second.a.segment<3>(t1) = -l * u;
      second.a.segment<3>(t2) = l * u;
      second.b.segment<3>(t2) = a;
      out.push_back(second);
    }
    const double residual = -l * a.dot(u);
    if (residual == 0.0) continue;
    for (int e = 0; e < 3; ++e) {
      RankOneTerm term;
      term.a[t1 + e] = residual;
      term.a[t2 + e] = side2 * residual;
      term.b[t1 + e] = 1.0;
      term.b[t2 + e] = side2;
      out.push_back(term);
    }
  }
  // Dot-2 and length parts: one term per non-zero column.
  for (int j = 0; j < 12; ++j) {
    if (s.other.col(j).isZero(0.0)) continue;
    RankOneTerm term;
    term.a = s.other.col(j);
    term.b[j] = 1.0;
    out.push_back(term);
  }
}

}  // namespace affix
