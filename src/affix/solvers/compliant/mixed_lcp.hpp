#pragma once
// The mixed LCP of the compliant step: Andrews 2017 Eq. 2–3 with bilateral rows J (the joints) and
// unilateral rows U (contacts and their friction, joint limits, slack cable rows), "a mixed linear
// complementarity problem (MLCP), since the system may include both bilateral and unilateral
// constraints" (§1.2). In impulses μ = hλ (bilateral) and λ (unilateral, also impulses):
//   v = v_free + W (Jᵀμ + Uᵀλ),                 W = M̃⁻¹
//   J v + S μ = b + J v_free                    (Eq. 3 as reduced_system.hpp writes it: A μ = b below)
//   w = U v + s∘λ − c,   lo ≤ λ ≤ hi,   λ_r = lo_r ⇒ w_r ≥ 0,  λ_r = hi_r ⇒ w_r ≤ 0,  else w_r = 0.
// A friction row's bounds are ±μ_f times the current sum of the λ of its normal rows (a friction box per
// tangent, the pyramid of two tangents; several normals: one friction cone per contact patch, bounded by
// μΣλ_n, compliant_unilateral.cpp's "Patch friction").
//
// Method — the bilateral rows by the Cholesky solve, the unilateral ones by projected Gauss–Seidel on
// their Schur complement. With A = S + J W Jᵀ factorised (the step does so anyway), eliminating μ gives
//   μ = A⁻¹(b − J W Uᵀ λ),   v = v_bil + Σ_r λ_r Δv_r,
//   v_bil = v_free + W Jᵀ A⁻¹ b,   Δv_r = W U_rᵀ − W Jᵀ A⁻¹ (J W U_rᵀ),
// and the unilateral rows alone form the LCP  Z λ + (U v_bil − c) = w,  Z = U Δv + diag(s) = D − Bᵀ A⁻¹ B
// (D = U W Uᵀ + diag(s), B = J W Uᵀ). Why this split: the joints stay exact (no Gauss–Seidel
// error on stiff rows with 10⁶:1 mass ratios, which PGS on the whole system converges on at the rate
// of its condition number), and a contact on an articulated body answers with the mass of the whole
// mechanism behind it, as the impulse solver's coupled contact rows do (Tomcin §7). Each unilateral
// row on a body that carries joints costs one forward and back substitution to form Δv_r; a row on a
// free body has Δv_r = W U_rᵀ on its two bodies. PGS then never touches A: row r's update is
//   λ_r ← clamp(λ_r − w_r / Z_rr, lo_r, hi_r),   v += (Δλ_r) Δv_r,
// O(|support of Δv_r|) per update. It starts from the λ given (warm start: the last step's), sweeps
// the rows in order until no update changes a velocity by more than `tolerance`, or `max_sweeps`.
//
// Pivoting. The rows are split into the connected components of Z (rows coupled through a body their
// Δv_r moves: two contacts on one body, or anywhere on one jointed mechanism, whose Δv_r spans it);
// Z is block-diagonal over them and each is an LCP of its own. Components of at most kPivotingRows rows
// (`set_pivoting_rows`; 128, 64 before issue 15), beyond 64 only where PGS is slow (mixed_lcp.cpp: the
// rows' Z_rr spread 100×, or a jointed body; pivoting every set of a pile of equal boxes cost 4.9 ms a
// step against PGS's 0.85 at h = 0.01, 63 ms against 1.1 at 0.05) are first solved exactly by block principal pivoting on their dense Z (Júdice &
// Pires 1994; mixed_lcp_pivoting.cpp), friction included: each row lower, free or upper, from the warm
// start's sets. First with a friction row at a
// bound taken as σμλ_n of its normal (the pyramid's edge, exact for sliding in one solve; LU); where
// that cycles, with the friction bounds held at ±μλ_n of the last solution (a positive definite box LCP,
// LDLT) and updated until they stop moving. Up to 2m + kPivots solves each. PGS converges at the rate of
// Z's condition number, which mass ratios set: a chain of 0.2 kg links under a 15 t load (the crane's
// slack cable) ~10⁵, a 100 kg box on a 1 kg box ~10⁴ (100 sweeps left it sinking 0.37 m at h = 1/60);
// pivoting needs 1–5 solves at any ratio. Redundant rows (Z singular) are the staggered form's proximal
// term's (mixed_lcp_pivoting.cpp, "Proximal"). If neither settles, PGS goes on from the warm start (the other
// components' solutions, already exact, are left as they are by its sweeps). Up to 64 rows until issue 15's
// compliant15b: a light body under a heavy one in a larger set (a folded chain of 1 g links under 1000 kg,
// 76–94 rows at h = 1/60 and 0.01) was PGS's, which sank it. Z_FF gets
// a relative 10⁻¹² on its diagonal, so that redundant hard rows (four corners of a box on the ground,
// their eight tangent rows) share their load instead of making it singular; what they share is Z's null
// space, which moves no velocity.
//
// Leads (issue 15, compliant_unilateral.cpp's "Slip and twist"). A contact patch's friction rows are a frame
// whose first row e₁ lies along the patch's twist; while it slides, maximal dissipation on the limit
// surface puts the whole friction wrench on e₁, but as a box the other rows still hold their rates at 0 with
// up to their own bound (a spinning box's spin decays 3× faster than its slide, and the turn row held the
// ratio: |f| = μN and |τ| = μρN together). So a row with a `lead` yields: when the solution leaves its lead
// at the lead's bound (sliding) while the row pushes, the LCP is solved again, warm-started, with such rows'
// bounds 0. That solution is kept if every lead is still at its bound; otherwise (the patch stops within
// the step, which the box holds) the first.
//
// At the cap. PGS stopped by `max_sweeps` still counts as converged (an approximate solution) when its
// last sweep changed no row's velocity by more than kCapResidual of the largest velocity any row's
// impulse makes, max_r |λ_r| Z_rr: the impulses then move by under 0.1 % per sweep. Piles, boxes on
// boxes and light-wheeled cars at h = 0.05–0.1 stop at the cap every step with 10⁻⁵–10⁻³ there (and
// settle or drive as they should), while a solve cut short after a few sweeps is at 10⁻¹–1; only the
// latter reaches stats.csv's hit_iteration_cap, which the run turns into a failure when every step has
// it (hostile16 #6).
#include <array>
#include <limits>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "affix/solvers/compliant/reduced_system.hpp"

namespace affix {

/// One unilateral row: U v on (at most) two moving bodies (index among the unknowns, −1: none).
struct UnilateralRow {
  std::array<int, 2> body{-1, -1};
  std::array<Vec6, 2> J{Vec6::Zero(), Vec6::Zero()};
  double c = 0.0;      ///< target: w = U v + s λ − c
  double s = 0.0;      ///< compliance term (C/h² in the step; 0 for hard rows)
  double lo = 0.0;     ///< bounds on λ (for a friction row: set from its normal row each update)
  double hi = std::numeric_limits<double>::infinity();
  int normal = -1;     ///< a friction row: the index of its (first) normal row; ±friction·Σλ_n bounds it
  int normals = 1;     ///< a friction row: how many normal rows from `normal` on (a contact patch's points)
  double friction = 0.0;
  /// A friction row that yields to a lead (header, "Leads"): the index of its patch's sliding row, whose
  /// bound, once met, leaves this row none.
  int lead = -1;
  double lambda = 0.0; ///< in: the warm start; out: the solution
};

struct MixedLcpResult {
  int sweeps = 0;          ///< PGS sweeps done
  int pivots = 0;          ///< pivoting solves done (0 when there were more than the pivoting rows)
  bool converged = true;   ///< the last sweep changed no velocity by more than the tolerance, or (at the
                           ///< cap) by more than kCapResidual relative (header, "At the cap")
  double residual = 0.0;   ///< at the cap: the last sweep's largest change / max_r |λ_r| Z_rr
};

class MixedLcp {
 public:
  /// Solves the mixed LCP (header). `system` holds A = S + J W Jᵀ factorised. W is block-diagonal
  /// (`W_blocks`, one 6 × 6 block per unknown) or dense (`W_dense`, when not null). `v` is v_free on
  /// entry and v on return; `mu` receives the bilateral impulses. The rows' λ are warm starts in and the
  /// solution out.
  MixedLcpResult solve(const ConstraintJacobian& J, ReducedSystem& system, const std::vector<Mat6>& W_blocks,
                       const MatX* W_dense, const VecX& b, std::vector<UnilateralRow>& rows, VecX& v, VecX& mu,
                       int max_sweeps, double tolerance);

  /// Systems of at most this many rows are solved by pivoting first (header); 0: PGS only.
  void set_pivoting_rows(int rows) { pivoting_rows_ = rows; }

 private:
  /// solve() with every row's bounds as given (leads not applied).
  MixedLcpResult solve_once(const ConstraintJacobian& J, ReducedSystem& system, const std::vector<Mat6>& W_blocks,
                            const MatX* W_dense, const VecX& b, std::vector<UnilateralRow>& rows, VecX& v, VecX& mu,
                            int max_sweeps, double tolerance);
  /// Whether row r's lead is at its bound (header, "Leads").
  static bool lead_sliding(const std::vector<UnilateralRow>& rows, int r);
  // Leads: the first solution, kept while the second is tried.
  VecX v_entry_, v_first_, mu_first_;
  std::vector<double> lambda_first_, friction_first_;
  std::vector<int> yielding_;
  /// The connected components of Z (header, "Pivoting"): component_rows_ from component_begin_[c] to
  /// component_begin_[c + 1], each in the rows' order.
  void find_components(int m, int bodies);
  /// Z and q = U v_bil − c of the component's rows (index_), dense (mixed_lcp_pivoting.cpp).
  void build_dense(const std::vector<UnilateralRow>& rows, const VecX& v_bil);
  /// Pivoting on the dense Z (header) of the component rows[first … last) of component_rows_, from the
  /// rows' λ; true when it settled (their λ then solve the component's LCP).
  bool pivot(std::vector<UnilateralRow>& rows, int first, int last, const VecX& v_bil, double tolerance,
             MixedLcpResult& result);
  /// Friction at a bound as ±μ times its normals' unknowns (exact for sliding; may cycle where that makes a
  /// row's effective Z_rr negative: large μ, redundant corners), on local_ (the component's rows).
  bool pivot_exact(double tolerance, MixedLcpResult& result);
  /// Staggered and proximal: friction bounds fixed from λ_n, a positive definite box LCP with a proximal
  /// term (mixed_lcp_pivoting.cpp), bounds and centre updated and solved again.
  bool pivot_staggered(double tolerance, MixedLcpResult& result);
  /// x (6 per unknown) ← W x for the unknowns listed (block) or all of them (dense).
  void apply_W(const std::vector<Mat6>& W_blocks, const MatX* W_dense, const VecX& x, VecX& out) const;

  // Δv_r as a list of (unknown, 6-vector) from response_begin_[r] to response_begin_[r + 1].
  std::vector<int> response_begin_, response_body_;
  std::vector<Vec6, Eigen::aligned_allocator<Vec6>> response_;
  std::vector<double> diagonal_;  // Z_rr
  std::vector<char> jointed_;     // per unknown: carries a bilateral row
  VecX x_, Wx_, Jx_, y_, z_;      // work vectors, reused
  // Pivoting (mixed_lcp_pivoting.cpp), reused: the components, the dense Schur complement and q of one,
  // each row's set and its λ as a + b·Σ λ_F(column … column + count − 1), the free rows' system
  // M λ_F = rhs and its LU.
  struct Affine {
    double a = 0.0, b = 0.0;
    int column = -1, count = 0;
  };
  std::vector<int> parent_, owner_, component_rows_, component_begin_, index_, local_of_;
  std::vector<UnilateralRow> local_;  // a component's rows, their normals renumbered among them
  std::vector<double> local_diagonal_;
  MatX Z_, M_;
  VecX q_, lambda_, w_, rhs_, solution_, lo_, hi_, centre_;
  std::vector<signed char> state_;
  std::vector<int> free_, column_;
  std::vector<Affine> affine_;
  std::vector<std::pair<int, signed char>> moves_;
  Eigen::PartialPivLU<MatX> lu_;
  Eigen::LDLT<MatX> ldlt_;
  int pivoting_rows_ = kPivotingRows;
  static constexpr int kPivots = 10;

 public:
  static constexpr double kCapResidual = 1e-3;
  static constexpr int kPivotingRows = 128;
};

}  // namespace affix
