#include "affix/joints/compact_rows.hpp"

#include <stdexcept>
#include <cassert>
#include <cmath>

#include "affix/body/affine_body.hpp"

namespace affix {
namespace {

using RowVec12 = Eigen::Matrix<double, 1, 12>;

/// One row: its value and its gradient on body 1, on body 2 with E held, and through E (header).
struct Row {
  RowVec12 g1 = RowVec12::Zero(), g2 = RowVec12::Zero(), frame = RowVec12::Zero();
  double value = 0.0;

  /// Adds s × another row's gradient (not its value): a chain-rule term.
  void add_gradient(double s, const Row& r) {
    g1 += s * r.g1, g2 += s * r.g2, frame += s * r.frame;
  }
};

/// Control point k of a joint frame: P₀ = origin, P₁ = P₀ + ℓ x̄, P₂ = P₀ + ℓ ȳ.
Vec3 control_point(const JointFrame& frame, double edge, int k) {
  return k == 0 ? frame.origin : Vec3(frame.origin + edge * frame.axes.col(k - 1));
}

/// e·J(P): the row that reads the e component of rest point P's world position from q. With
/// J(P) = [I₃ | diag(Pᵀ, Pᵀ, Pᵀ)] it is [eᵀ, e₀Pᵀ, e₁Pᵀ, e₂Pᵀ], written out rather than multiplied
/// through the 3×12 J (the same numbers: the product only adds zeros).
RowVec12 point_row(const Vec3& e, const Vec3& P) {
  RowVec12 r;
  r.head<3>() = e.transpose();
  for (int i = 0; i < 3; ++i) r.segment<3>(3 + 3 * i) = e[i] * P.transpose();
  return r;
}

Mat3 rotation_z(double a) { return Eigen::AngleAxisd(a, Vec3::UnitZ()).toRotationMatrix(); }
Mat3 rotation_y(double a) { return Eigen::AngleAxisd(a, Vec3::UnitY()).toRotationMatrix(); }

/// The control points and frame of one joint at given states, and its rows (header comment).
class JointPoints {
 public:
  JointPoints(const ModelJoint& joint, double edge, const Vec12& q1, const Vec12& q2)
      : joint_(joint), edge_(edge), q1_(q1), q2_(q2), world2_(joint.body2 < 0) {
    E_ = world2_ ? joint.frame2.axes : Mat3(state_matrix(q2) * joint.frame2.axes);
  }

  bool world2() const { return world2_; }
  /// Point k of body b (1 or 2).
  Vec3 x(int b, int k) const {
    if (b == 1) return world_point(q1_, P(1, k));
    return world2_ ? P(2, k) : world_point(q2_, P(2, k));
  }
  /// Eᵀw: w in E's coordinates.
  Vec3 local(const Vec3& w) const { return E_.transpose() * w; }
  /// Body 1's edge from P₀ to P_k in E's coordinates (a for k = 1, b for k = 2).
  Vec3 edge1(int k) const { return local(x(1, k) - x(1, 0)); }

  /// e·(x_j^a − x_k^b) for a fixed world vector e.
  Row world_row(const Vec3& e, int a, int j, int b, int k) const {
    Row r;
    add_point(r, e, a, j, 1.0);
    add_point(r, e, b, k, -1.0);
    r.value = e.dot(x(a, j) - x(b, k));
    return r;
  }

  /// (E c)·(x_j^a − x_k^b), c in E's coordinates: E's motion adds ∂/∂A₂(i, j) = w_i (F̄₂ c)_j
  /// (Eq. 32–34, E = A₂F̄₂ linear in q₂), at q index 3 + 3i + j.
  Row frame_row(const Vec3& c, int a, int j, int b, int k) const {
    Row r = world_row(E_ * c, a, j, b, k);
    if (!world2_) {
      const Vec3 w = x(a, j) - x(b, k), Fc = joint_.frame2.axes * c;
      for (int i = 0; i < 3; ++i) r.frame.segment<3>(3 + 3 * i) = w[i] * Fc.transpose();
    }
    return r;
  }

 private:
  Vec3 P(int b, int k) const { return control_point(b == 1 ? joint_.frame1 : joint_.frame2, edge_, k); }
  void add_point(Row& r, const Vec3& e, int b, int k, double sign) const {
    if (b == 1) r.g1 += sign * point_row(e, P(1, k));
    else if (!world2_) r.g2 += sign * point_row(e, P(2, k));
  }

  const ModelJoint& joint_;
  double edge_;
  const Vec12 &q1_, &q2_;
  bool world2_;
  Mat3 E_;
};

/// Cone-twist angles from body 1's edges a, b in E's coordinates (header comment).
struct SwingTwist {
  double swing2, swing1, twist;
  Mat3 S;   // R_z(swing2)·R_y(swing1)
  Vec3 b_;  // Sᵀb
};
SwingTwist swing_twist(const Vec3& a, const Vec3& b) {
  SwingTwist st;
  st.swing2 = std::atan2(a.y(), a.x());
  st.swing1 = std::atan2(-a.z(), std::hypot(a.x(), a.y()));
  st.S = rotation_z(st.swing2) * rotation_y(st.swing1);
  st.b_ = st.S.transpose() * b;
  st.twist = std::atan2(st.b_.z(), st.b_.y());
  return st;
}

/// The length a distance row holds (header comment).
double distance_target(const JointDef& def) {
  double L = def.length.value_or((def.anchor2 - def.anchor1).norm());
  if (def.min_length) L = std::max(L, *def.min_length);
  if (def.max_length) L = std::min(L, *def.max_length);
  return L;
}

/// ‖d₀‖ − L as n̂·d₀ − L with n̂ held (exact gradient: ∂n̂ ⟂ d₀); n̂ falls back to E's x axis at d₀ = 0.
Row distance_row(const JointPoints& p, double L, const Vec3& fallback) {
  const Vec3 d = p.x(1, 0) - p.x(2, 0);
  const double n = d.norm();
  Row r = p.world_row(n > 0.0 ? Vec3(d / n) : fallback, 1, 0, 2, 0);
  r.value = n - L;
  return r;
}

/// The row that holds `clamp` (header comment).
Row clamp_row(const JointPoints& p, const Mat3& E, const LimitClamp& clamp) {
  const double s = std::sin(clamp.bound), c = std::cos(clamp.bound);
  switch (clamp.dof) {
    case JointDof::hinge_angle: return p.frame_row(Vec3(0, -s, c), 1, 2, 1, 0);
    case JointDof::slide: {
      Row r = p.frame_row(Vec3::UnitX(), 1, 0, 2, 0);
      r.value -= clamp.bound;
      return r;
    }
    case JointDof::distance: return distance_row(p, clamp.bound, E.col(0));
    case JointDof::swing2: return p.frame_row(Vec3(-s, c, 0), 1, 1, 1, 0);
    case JointDof::swing1: {
      const double s2 = swing_twist(p.edge1(1), p.edge1(2)).swing2;
      return p.frame_row(-Vec3(s * std::cos(s2), s * std::sin(s2), c), 1, 1, 1, 0);
    }
    case JointDof::twist: {
      const Vec3 a = p.edge1(1);
      const SwingTwist st = swing_twist(a, p.edge1(2));
      const Vec3 v(0, -s, c), vb = v.cross(st.b_);
      Row r = p.frame_row(st.S * v, 1, 2, 1, 0);  // S held
      // S's own motion: ω·(v × b′), ω = (−sin s₁ ds₂, ds₁, cos s₁ ds₂); ds₁, ds₂ as rows on a.
      const double rho2 = a.x() * a.x() + a.y() * a.y(), rho = std::sqrt(rho2), r2 = rho2 + a.z() * a.z();
      const Vec3 ds2 = Vec3(-a.y(), a.x(), 0) / rho2;
      const Vec3 ds1 = Vec3(a.z() * a.x() / rho, a.z() * a.y() / rho, -rho) / r2;
      r.add_gradient(-std::sin(st.swing1) * vb.x() + std::cos(st.swing1) * vb.z(), p.frame_row(ds2, 1, 1, 1, 0));
      r.add_gradient(vb.y(), p.frame_row(ds1, 1, 1, 1, 0));
      return r;
    }
  }
  return {};
}

}  // namespace

bool has_compact_rows(JointType) { return true; }

int compact_row_count(const JointDef& def) {
  switch (def.type) {
    case JointType::ball:
    case JointType::cone_twist: return 3;
    case JointType::hinge: return 5;
    case JointType::universal: return 4;
    case JointType::prismatic: return 5;
    case JointType::fixed: return 6;
    case JointType::slider: return def.normal ? 1 : 2;
    case JointType::distance: return def.length || !(def.min_length || def.max_length) ? 1 : 0;
    case JointType::cable: return 6;  // never built: the solvers on compact rows refuse cables (registry)
  }
  return 0;
}

int max_limit_rows(const JointDef& def) {
  switch (def.type) {
    case JointType::hinge: return def.angle_limits ? 1 : 0;
    case JointType::prismatic:
    case JointType::slider: return def.limits ? 1 : 0;
    case JointType::cone_twist: return (def.twist_limits ? 1 : 0) + (def.swing1_limits ? 1 : 0) + (def.swing2_limits ? 1 : 0);
    case JointType::distance: return compact_row_count(def) == 0 ? 1 : 0;
    default: return 0;
  }
}

Vec3 ball_gap(const ModelJoint& joint, const Vec12& q1, const Vec12& q2) {
  // The ball rows e_i·(x₀¹ − x₀²) of world_row.
  const Vec3 x2 = joint.body2 < 0 ? joint.frame2.origin : world_point(q2, joint.frame2.origin);
  return world_point(q1, joint.frame1.origin) - x2;
}

double compact_row_error(const ModelJoint& joint, double edge, const Vec12& q1, const Vec12& q2) {
  if (joint.def.type == JointType::ball || joint.def.type == JointType::cone_twist)
    return ball_gap(joint, q1, q2).cwiseAbs().maxCoeff();
  const CompactRows rows = compact_rows(joint, edge, q1, q2);
  return rows.value.size() > 0 ? rows.value.cwiseAbs().maxCoeff() : 0.0;
}

CompactRows compact_rows(const ModelJoint& joint, double edge, const Vec12& q1, const Vec12& q2,
                         std::span<const LimitClamp> clamps) {
  assert(joint.body1 >= 0 && edge > 0.0);
  const JointPoints p(joint, edge, q1, q2);
  const Mat3 E = p.world2() ? joint.frame2.axes : Mat3(state_matrix(q2) * joint.frame2.axes);
  Row rows[6];
  int m = 0;
  const auto gap = [&](int i) { rows[m++] = p.world_row(Vec3::Unit(i), 1, 0, 2, 0); };
  const auto ball = [&] {
    for (int i = 0; i < 3; ++i) gap(i);
  };
  const auto frame_gap = [&](int axis, int k) { rows[m++] = p.frame_row(Vec3::Unit(axis), 1, k, 2, k); };
  constexpr int x = 0, y = 1, z = 2;
  switch (joint.def.type) {
    case JointType::ball:
    case JointType::cone_twist: ball(); break;
    case JointType::hinge:
      ball();
      frame_gap(y, 1);
      frame_gap(z, 1);
      break;
    case JointType::universal:
      ball();
      rows[m++] = p.frame_row(Vec3::Unit(y), 1, 1, 1, 0);
      break;
    case JointType::prismatic:
      frame_gap(y, 0);
      frame_gap(z, 0);
      frame_gap(y, 1);
      frame_gap(z, 1);
      frame_gap(z, 2);
      break;
    case JointType::fixed:
      ball();
      frame_gap(y, 1);
      frame_gap(z, 1);
      frame_gap(z, 2);
      break;
    case JointType::slider:
      if (joint.def.normal) {
        frame_gap(x, 0);
      } else {
        frame_gap(y, 0);
        frame_gap(z, 0);
      }
      break;
    case JointType::distance:
      if (compact_row_count(joint.def) > 0) rows[m++] = distance_row(p, distance_target(joint.def), E.col(0));
      break;
    case JointType::cable:
      throw std::logic_error("compact rows: a cable joint reached a solver that refuses it (solvers/registry.cpp)");
  }
  assert(m == compact_row_count(joint.def) && m + static_cast<int>(clamps.size()) <= 6);
  for (const LimitClamp& clamp : clamps) rows[m++] = clamp_row(p, E, clamp);

  CompactRows out;
  const int m2 = p.world2() ? 0 : m;
  out.rows1.resize(m, 12);
  out.rows2.resize(m2, 12);
  out.frame_rows2.resize(m2, 12);
  out.value.resize(m);
  out.rhs.resize(m);
  for (int r = 0; r < m; ++r) {
    out.rows1.row(r) = rows[r].g1;
    out.value[r] = rows[r].value;
    out.rhs[r] = rows[r].g1.dot(q1) - rows[r].value;
    if (m2 > 0) {
      out.rows2.row(r) = rows[r].g2;
      out.frame_rows2.row(r) = rows[r].frame;
      out.rhs[r] += rows[r].g2.dot(q2);
    }
  }
  return out;
}

double joint_dof(const ModelJoint& joint, double edge, const Vec12& q1, const Vec12& q2, JointDof dof) {
  const JointPoints p(joint, edge, q1, q2);
  switch (dof) {
    case JointDof::hinge_angle: {
      const Vec3 w = p.edge1(2);
      return std::atan2(w.z(), w.y());
    }
    case JointDof::slide: return p.local(p.x(1, 0) - p.x(2, 0)).x();
    case JointDof::distance: return (p.x(1, 0) - p.x(2, 0)).norm();
    case JointDof::twist: return swing_twist(p.edge1(1), p.edge1(2)).twist;
    case JointDof::swing1: return swing_twist(p.edge1(1), p.edge1(2)).swing1;
    case JointDof::swing2: return swing_twist(p.edge1(1), p.edge1(2)).swing2;
  }
  return 0.0;
}

CompactBlock skew_symmetrised_frame_rows(const CompactRows& rows, const Vec12& q2) {
  // Eq. 35: M = ∂C/∂A₂ of one row ↦ skew(M A₂ᵀ) A₂, its part along rigid motions [ω]×A₂ (header).
  const Mat3 A = state_matrix(q2);
  CompactBlock out = CompactBlock::Zero(rows.frame_rows2.rows(), 12);
  for (int r = 0; r < rows.frame_rows2.rows(); ++r) {
    Mat3 M;
    for (int i = 0; i < 3; ++i) M.row(i) = rows.frame_rows2.row(r).segment<3>(3 + 3 * i);
    const Mat3 X = M * A.transpose();
    const Mat3 projected = 0.5 * (X - X.transpose()) * A;
    for (int i = 0; i < 3; ++i) out.row(r).segment<3>(3 + 3 * i) = projected.row(i);
  }
  return out;
}

}  // namespace affix
