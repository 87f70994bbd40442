#pragma once
// Ball rows through constant brackets (He 2026 §4.2 with §3.3 and §5: "computing H⁻¹Gᵀ ... still needs
// to rotate into the local frame attached at each affine body"; the text lost the formulas).
//
// A ball side's rows are G = ±J(P), P the joint's rest point on the body and J(P) = [I₃ | diag(Pᵀ,Pᵀ,Pᵀ)]
// (affine_body.hpp, Eq. 19). Co-rotation maps q → Q q with Q = diag(R, R ⊗ I₃) (corotated_body.hpp,
// Eq. 10), and J(P)Q q = R A P + R p = R J(P) q, so
//   J(P) Q = R J(P)   and   Qᵀ J(P)ᵀ = J(P)ᵀ Rᵀ.
// With the body's inverse H⁻¹ = Q (H₀⁻¹ − Z K Zᵀ) Qᵀ (corotated_body.hpp: Z = H₀⁻¹U₀ constant, K the
// body's 3×3 twist gain of this iteration, 0 for an unstressed body):
//   response  H⁻¹ J(P)ᵀ f       = Q (B − Z K Yᵀ) Rᵀ f,           B = H₀⁻¹ J(P)ᵀ (12×3), Y = J(P) Z (3×3)
//   dual block J(P) H⁻¹ J(P′)ᵀ   = R (M − Y K Y′ᵀ) Rᵀ,             M = J(P) H₀⁻¹ J(P′)ᵀ = J(P) B′ (3×3)
// for two points P, P′ on the same body (P′ = P for a joint's own block D_jj; the next joint's point
// for the chain's coupling block D_j,j+1). B, Y and M depend only on H₀ (the body's mass and material)
// and the rest points, so they are computed once per run per distinct (H₀, P), shared by every body of
// that kind like the factorisation, and a ball joint's responses and dual blocks cost 3×3 products at
// run time instead of a 12×12 co-rotated solve per row.
//
// Which rows: ball and cone_twist joints without an active limit row (their rows are exactly ±J(P₀)).
// The other compact rows (compact_rows.hpp) are also sums Σ_k J(P_k)ᵀ v_k (a frame row ∂/∂A₂ is
// (J(F̄c) − J(0))ᵀ w), so the same brackets would serve them with state-dependent v_k on more points;
// not done: a ball chain is the scale case (He 2026 §6.3.1).
//
// A body in penalty contact has H = Q H₀ Qᵀ + h²∇²E, no longer a rotated constant: its blocks and
// responses go through its dense factor (KktBody::Dense) instead.
#include <map>
#include <tuple>
#include <vector>

#include "affix/solvers/mabd/kkt_system.hpp"

namespace affix {

/// The constants of a ball side at rest point P on the bodies of one factor H₀ (header).
struct PointBracket {
  const CorotatedFactor* factor = nullptr;
  Vec3 point = Vec3::Zero();                                      ///< P
  Eigen::Matrix<double, 12, 3> response = decltype(response)::Zero();  ///< B = H₀⁻¹ J(P)ᵀ
  Mat3 twist = Mat3::Zero();                                      ///< Y = J(P) Z
};

/// Every distinct (H₀, P) of a run's ball sides, each computed once.
class BallBrackets {
 public:
  /// The index of P's bracket on bodies of `factor`, computed on first use.
  int add(const CorotatedFactor& factor, const Vec3& P);
  const PointBracket& operator[](int i) const { return points_[i]; }
  int size() const { return static_cast<int>(points_.size()); }

 private:
  using Key = std::tuple<const CorotatedFactor*, double, double, double>;
  std::vector<PointBracket> points_;
  std::map<Key, int> index_;
  int last_ = -1;  // consecutive sides of a generated chain share their key: no map search
};

/// M = J(P_a) H₀⁻¹ J(P_c)ᵀ (header) of two brackets on the same factor.
Mat3 bracket_middle(const PointBracket& a, const PointBracket& c);

/// J(P_a) H⁻¹ J(P_c)ᵀ of one body at its iterate, from the brackets' middle M (header), or through the
/// body's dense factor when it is in contact.
Mat3 ball_block(const KktBody& body, const PointBracket& a, const PointBracket& c, const Mat3& middle);

/// H⁻¹ J(P)ᵀ f: the body's motion under a force f at its bracket's point (header).
Vec12 ball_response(const KktBody& body, const PointBracket& a, const Vec3& f);

/// J(P) as the rows G of the generic path (3 × 12), scaled by `sign`.
JointRows ball_rows(const Vec3& P, double sign);

}  // namespace affix
