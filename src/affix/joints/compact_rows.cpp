#include "affix/joints/compact_rows.hpp"

#include <cassert>

#include "affix/body/affine_body.hpp"

namespace affix {
namespace {

/// Control point k of a joint frame: P₀ = origin, P₁ = P₀ + ℓ x̄, P₂ = P₀ + ℓ ȳ.
Vec3 control_point(const JointFrame& frame, double edge, int k) {
  return k == 0 ? frame.origin : Vec3(frame.origin + edge * frame.axes.col(k - 1));
}

/// e·J(P): the row that reads the e component of rest point P's world position from q.
Eigen::Matrix<double, 1, 12> point_row(const Vec3& e, const Vec3& P) {
  return e.transpose() * point_jacobian(P);
}

/// Appends the rows of the header comment, one at a time.
class Rows {
 public:
  Rows(const ModelJoint& joint, double edge, const Vec12& q1, const Vec12& q2)
      : joint_(joint), edge_(edge), q1_(q1), q2_(q2), world2_(joint.body2 < 0) {
    const int m = compact_row_count(joint.def.type);
    E_ = world2_ ? joint.frame2.axes : Mat3(state_matrix(q2) * joint.frame2.axes);
    out_.rows1.setZero(m, 12);
    out_.rows2.setZero(world2_ ? 0 : m, 12);
    out_.frame_rows2.setZero(world2_ ? 0 : m, 12);
    out_.rhs.setZero(m);
  }

  /// d_k in world component i (frame-independent): x_k¹[i] − x_k²[i].
  void world_gap(int k, int i) { add(Vec3::Unit(i), -1, k, k, true); }
  /// e_c·d_k, e_c column c of E.
  void frame_gap(int c, int k) { add(E_.col(c), c, k, k, true); }
  /// e_c·(x_j¹ − x_k¹): two points of body 1.
  void frame_edge_of_body1(int c, int j, int k) { add(E_.col(c), c, j, k, false); }

  CompactRows finish() {
    assert(row_ == out_.rhs.size());
    out_.value = out_.rows1 * q1_ - out_.rhs;
    if (!world2_) out_.value += out_.rows2 * q2_;
    return out_;
  }

 private:
  Vec3 P1(int k) const { return control_point(joint_.frame1, edge_, k); }
  Vec3 P2(int k) const { return control_point(joint_.frame2, edge_, k); }
  Vec3 x1(int k) const { return world_point(q1_, P1(k)); }
  Vec3 x2(int k) const { return world2_ ? P2(k) : world_point(q2_, P2(k)); }

  /// The row e·(x_j¹ − x_k^b), b = 2 when `across`, else 1; `column` ≥ 0 when e is E's column.
  void add(const Vec3& e, int column, int j, int k, bool across) {
    out_.rows1.row(row_) = point_row(e, P1(j));
    Vec3 w = Vec3::Zero();  // the vector e is dotted with, for the frame term
    if (!across) {
      out_.rows1.row(row_) -= point_row(e, P1(k));
      w = x1(j) - x1(k);
    } else {
      w = x1(j) - x2(k);
      if (world2_) out_.rhs[row_] = e.dot(P2(k));
      else out_.rows2.row(row_) = -point_row(e, P2(k));
    }
    if (column >= 0 && !world2_) {  // e = A₂ F̄₂ e_c: ∂(e·w)/∂A₂(i, j) = w_i F̄₂(j, c), at q index 3 + 3i + j
      for (int i = 0; i < 3; ++i)
        out_.frame_rows2.row(row_).segment<3>(3 + 3 * i) = w[i] * joint_.frame2.axes.col(column).transpose();
    }
    ++row_;
  }

  const ModelJoint& joint_;
  double edge_;
  const Vec12 &q1_, &q2_;
  bool world2_;
  Mat3 E_;
  CompactRows out_;
  int row_ = 0;
};

}  // namespace

bool has_compact_rows(JointType type) { return type != JointType::distance && type != JointType::slider; }

int compact_row_count(JointType type) {
  switch (type) {
    case JointType::ball:
    case JointType::cone_twist: return 3;
    case JointType::hinge: return 5;
    case JointType::universal: return 4;
    case JointType::prismatic: return 5;
    case JointType::fixed: return 6;
    case JointType::distance:
    case JointType::slider: return 0;
  }
  return 0;
}

CompactRows compact_rows(const ModelJoint& joint, double edge, const Vec12& q1, const Vec12& q2) {
  assert(joint.body1 >= 0 && has_compact_rows(joint.def.type) && edge > 0.0);
  Rows rows(joint, edge, q1, q2);
  constexpr int y = 1, z = 2;
  const auto ball = [&] {
    for (int i = 0; i < 3; ++i) rows.world_gap(0, i);
  };
  switch (joint.def.type) {
    case JointType::ball:
    case JointType::cone_twist: ball(); break;
    case JointType::hinge:
      ball();
      rows.frame_gap(y, 1);
      rows.frame_gap(z, 1);
      break;
    case JointType::universal:
      ball();
      rows.frame_edge_of_body1(y, 1, 0);
      break;
    case JointType::prismatic:
      rows.frame_gap(y, 0);
      rows.frame_gap(z, 0);
      rows.frame_gap(y, 1);
      rows.frame_gap(z, 1);
      rows.frame_gap(z, 2);
      break;
    case JointType::fixed:
      ball();
      rows.frame_gap(y, 1);
      rows.frame_gap(z, 1);
      rows.frame_gap(z, 2);
      break;
    case JointType::distance:
    case JointType::slider: break;
  }
  return rows.finish();
}

}  // namespace affix
