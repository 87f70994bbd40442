#pragma once
// Block Thomas (He 2026 §5.2, Eq. 36–41; the algorithm of block_thomas.hpp) on a chain whose joints are
// all ball joints held by constant brackets (ball_brackets.hpp): every block is a fixed 3×3, built from
// the constant middles M of the body's two joint points,
//   A_j = Σ_sides R_b (M_aa − Y_a K_b Y_aᵀ) R_bᵀ,   B_j = ±R_b (M_ac − Y_a K_b Y_cᵀ) R_bᵀ  (b shared by j, j+1),
//   r_j = C_j + J(P₁) Δq_free,1 − J(P₂) Δq_free,2,
// and each body moves by Δq_b = Δq_free,b − Σ_j ±H_b⁻¹J(P)ᵀλ_j through the same brackets (Eq. 41). No
// row G, no response H⁻¹Gᵀ and no dynamic-size block is formed, and nothing is allocated once the
// chain has been prepared (per joint graph: the middles and each joint's indices into them).
// Two passes over the chain in all: the forward one takes each body's free step −H⁻¹g on the way (in
// its co-rotated frame, H⁻¹ = Q (H₀⁻¹ − Z K Zᵀ) Qᵀ), the backward one adds the joints' responses in that
// frame and rotates each body's Δq once, when both its joints are done.
#include <map>
#include <utility>
#include <vector>

#include "affix/solvers/mabd/ball_brackets.hpp"

namespace affix {

class BallChain {
 public:
  /// Whether the chain `joints` (in chain order) can be solved here: every joint a ball in brackets,
  /// never on one body twice, and consecutive joints sharing exactly one moving body.
  static bool fits(const KktSystem& system, const std::vector<int>& joints);

  /// Reads the chain's structure and computes its constant middles (once per joint graph).
  BallChain(const KktSystem& system, const std::vector<int>& joints);

  /// As BlockThomas::solve: λ on D + shift·I and Δq of the chain's bodies, their free steps −H⁻¹g taken
  /// in the same passes; false when a pivot is not numerically positive definite.
  bool solve(const KktSystem& system, const std::vector<int>& joints, const std::vector<int>& offsets,
             double shift, KktSolution& solution);

 private:
  /// Joint j's indices: its sides' diagonal middles, and the coupling to the next joint (the shared
  /// body's side in j, the side in j + 1, the middle M of their points).
  struct Link {
    int middle1 = -1, middle2 = -1;
    int shared_body = -1, shared_middle = -1;
    double shared_sign = 0.0;  // ± from the two sides' signs (side 1: +J, side 2: −J)
    int side_j = 0, side_k = 0;  // 1 or 2
  };
  int middle(const BallBrackets& brackets, int a, int c);

  std::vector<Link> links_;
  std::vector<Mat3> middles_;  // distinct M
  std::map<std::pair<int, int>, int> middle_index_;
  std::vector<Mat3> X_;  // P_j⁻¹ B_j
  std::vector<Vec3> z_;  // P_j⁻¹ y_j, then λ_j
};

}  // namespace affix
