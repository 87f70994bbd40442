// MixedLcp::pivot (mixed_lcp.hpp, "Pivoting"): block principal pivoting on the dense Schur complement Z
// of the unilateral rows, friction included (Júdice & Pires 1994), in two forms.
//
// Every row is in one of three sets: at its lower bound, free, or at its upper bound. With F the free
// rows, the free rows' equations w_F = 0 are solved with the others at their bounds; then every condition
// of the box LCP is checked and every row that breaks one moves set (a free row outside its bounds to the
// bound it passed, a bound row whose w has the wrong sign — w < −tol at a lower bound, w > tol at an
// upper — to the free set). When the number of broken conditions has not fallen for kStall passes, only
// the first breaking row moves (Murty's least-index rule, which ends the cycles block moves can make on a
// P-matrix).
//
// It runs on one connected component of Z at a time (mixed_lcp.hpp, "Pivoting"): local_ holds its rows.
//
// Exact (pivot_exact). A friction row's bounds are ±μΣλ_n of its normals (one, or a contact patch's);
// at a bound it is not a constant but λ_t = σμΣλ_n (σ = ±1), linear in its normals' unknowns (the
// pyramid's edge, as a sliding contact has it), so every λ is affine in λ_F,
//   λ_k = a_k + b_k Σ_{j ∈ c_k} λ_{F(j)}   (free: b = 1 on itself; a friction row at a bound: b = σμ on
//                                  its free normals, whose columns are consecutive; every other row a
//                                  constant a: its bound, or 0),
// and Σ_k Z_{F,k} (a_k + b_k Σ λ_F) = −q_F is square, not symmetric with sliding friction: LU. One
// solve per set, exact for sliding — but the substitution can make a row's effective Z_rr + σμZ_rt
// negative (a box's corner friction turning it onto that corner, large μ over redundant corners), where
// the sets cycle: a 1000 kg box sliding on a 1 kg box at μ = 0.9 between them.
// Staggered (pivot_staggered, when exact does not settle). The friction bounds are held at ±μλ_n of the
// last λ_n, which leaves Z_FF + εI symmetric positive definite (LDLT; Murty's rule ends), then set from
// the new λ_n and solved again until no bound moves a velocity by more than the tolerance (Kaufman et
// al. 2008's staggered projections, with exact box solves).
// Proximal (issue 15). Redundant rows (a box face's four corners: three independent rows; a folded chain's
// links stacked face on face) make Z singular and its solution λ not unique. Pivoting then solves Z_FF
// λ_F = r where r is consistent only for the right set: for the wrong ones the regularised solve returns
// λ of size |r|/ε, every sign is noise and the sets cycle (a folded chain of 1 g links under 1000 kg: 35
// frictionless rows of rank 27 never settled in 2m + 10 passes, a test in Python of the dumped Z settled in
// 167 passes of Murty's rule). So the staggered form solves the proximal LCP (Rockafellar's proximal point
// method): each row's w gets ρZ_rr(λ_r − c_r), c the last solution (first the warm start), which makes
// Z + ρD positive definite with a condition of 1/ρ; solved, c ← λ and ρ ← ρ/2 (from 10⁻² to 10⁻¹²) until
// the term moves no velocity by more than the tolerance, when λ solves the LCP itself. The term picks
// among the solutions the one nearest the last, so a degenerate set settles in tens of passes (in Python
// on three of that chain's dumped sets, 35 rows frictionless, 46 and 89 with friction, the last as the load
// lands: 15, 25 and 78 passes; with ρ falling 10× per solve 15, 94 and none in 3000, by 0.3× 17, 25, 754).
// If that does not settle, PGS goes on.
// Why pivoting and not only PGS: PGS converges at the rate of Z's condition number, which a 100 kg box
// on a 1 kg box makes ~10³–10⁴ (its corner rows under the light box carry the heavy one's weight);
// there 100 sweeps left the top box sinking by 0.37 m at h = 1/60 (hostile pass 2, issue 15).
#include <algorithm>
#include <cmath>
#include <limits>

#include "affix/solvers/compliant/mixed_lcp.hpp"

namespace affix {
namespace {

enum : signed char { kLower = 0, kFree = 1, kUpper = 2 };
constexpr int kStall = 3;  // passes without fewer broken conditions before single moves
constexpr double kRegularisation = 1e-12;  // of max Z_rr, on Z_FF's diagonal (mixed_lcp.hpp)
constexpr int kBoundUpdates = 60;          // staggered: friction bounds or centre moved, solved again
constexpr double kProximal = 1e-2;         // staggered: the first ρ (header, "Proximal")
constexpr double kProximalStep = 0.5;      // ρ's factor per solve (by 0.1 the sets cycled as ρ fell)
/// A friction bound that moved by less than this share of itself has not moved: the mass ratio limits λ_n's
/// precision, and 10⁻¹⁰ of a 1000 kg load's impulse moves a 1 g link's row by more than the tolerance.
constexpr double kBoundPrecision = 1e-8;
constexpr double kProximalFloor = 1e-12;
/// Passes of each form: 2m + 10 (Murty's rule has room to end), at most kMaxPasses: a large degenerate set
/// where the exact form cycles must not cost hundreds of dense solves before the proximal form takes it.
constexpr int kMaxPasses = 200;
int budget(int m) { return std::min(2 * m + 10, kMaxPasses); }

}  // namespace

void MixedLcp::build_dense(const std::vector<UnilateralRow>& rows, const VecX& v_bil) {
  const int m = static_cast<int>(index_.size());
  // Z column by column (Z_rk = U_r Δv_k + s_k δ_rk) and q = U v_bil − c (w = Z λ + q, header).
  Z_.setZero(m, m);
  q_.resize(m);
  x_.setZero(v_bil.size());
  for (int k = 0; k < m; ++k) {
    const int g = index_[k];
    for (int e = response_begin_[g]; e < response_begin_[g + 1]; ++e) x_.segment<6>(6 * response_body_[e]) = response_[e];
    for (int r = 0; r < m; ++r) {
      const UnilateralRow& row = rows[index_[r]];
      for (int side = 0; side < 2; ++side)
        if (row.body[side] >= 0) Z_(r, k) += row.J[side].dot(x_.segment<6>(6 * row.body[side]));
    }
    for (int e = response_begin_[g]; e < response_begin_[g + 1]; ++e) x_.segment<6>(6 * response_body_[e]).setZero();
    Z_(k, k) += rows[g].s;
  }
  for (int r = 0; r < m; ++r) {
    const UnilateralRow& row = rows[index_[r]];
    q_[r] = -row.c;
    for (int side = 0; side < 2; ++side)
      if (row.body[side] >= 0) q_[r] += row.J[side].dot(v_bil.segment<6>(6 * row.body[side]));
  }
}

bool MixedLcp::pivot_exact(double tolerance, MixedLcpResult& result) {
  std::vector<UnilateralRow>& rows = local_;
  const int m = static_cast<int>(rows.size());
  const auto live = [&](int r) { return local_diagonal_[r] > 0.0; };  // a row no body answers keeps λ = 0
  // A friction row's patch load Σλ_n over its live normals, of the λ given.
  const auto load = [&](const UnilateralRow& row, const auto& lambda) {
    double sum = 0.0;
    for (int j = row.normal; j < row.normal + row.normals; ++j)
      if (live(j)) sum += lambda(j);
    return std::max(sum, 0.0);
  };
  // The sets from the warm start.
  state_.assign(m, kFree);
  for (int r = 0; r < m; ++r) {
    const UnilateralRow& row = rows[r];
    if (row.normal >= 0) {
      const double bound = row.friction * load(row, [&](int j) { return rows[j].lambda; });
      if (bound > 0.0 && row.lambda >= bound) state_[r] = kUpper;
      else if (bound > 0.0 && row.lambda <= -bound) state_[r] = kLower;
    } else if (std::isfinite(row.lo) && row.lambda <= row.lo) {
      state_[r] = kLower;
    } else if (std::isfinite(row.hi) && row.lambda >= row.hi) {
      state_[r] = kUpper;
    }
  }
  const double regularisation = kRegularisation * std::max(1e-300, Z_.diagonal().cwiseAbs().maxCoeff());
  lambda_.resize(m);
  affine_.resize(m);
  int fewest = std::numeric_limits<int>::max(), stalled = 0;
  for (int pass = 0; pass < budget(m); ++pass) {
    ++result.pivots;
    // The free unknowns, and each row's λ as a + b Σ λ_F(columns) (header). A friction row's free normals
    // are consecutive rows, so their columns are consecutive too.
    free_.clear();
    column_.assign(m, -1);
    for (int r = 0; r < m; ++r) {
      const UnilateralRow& row = rows[r];
      bool normal_free = row.normal < 0;
      for (int j = row.normal; !normal_free && j < row.normal + row.normals; ++j)
        normal_free = live(j) && state_[j] == kFree;
      if (live(r) && state_[r] == kFree && normal_free) column_[r] = static_cast<int>(free_.size()), free_.push_back(r);
    }
    for (int r = 0; r < m; ++r) {
      const UnilateralRow& row = rows[r];
      Affine& a = affine_[r];
      a = Affine{};
      if (!live(r)) continue;
      if (column_[r] >= 0) {
        a.b = 1.0, a.column = column_[r], a.count = 1;
      } else if (row.normal >= 0) {
        // At a bound: σμ times its free normals; with none free the patch is at λ_n = 0 and so is the row.
        if (state_[r] == kFree) continue;
        for (int j = row.normal; j < row.normal + row.normals; ++j)
          if (column_[j] >= 0) {
            if (a.count == 0) a.column = column_[j];
            ++a.count;
          }
        if (a.count > 0) a.b = (state_[r] == kUpper ? 1.0 : -1.0) * row.friction;
      } else {
        a.a = state_[r] == kUpper ? row.hi : state_[r] == kLower ? row.lo : 0.0;
      }
    }
    // Σ_k Z_Fk (a_k + b_k Σ λ_F) = −q_F, Z_FF with the regularisation on its diagonal (header).
    const int f = static_cast<int>(free_.size());
    if (f > 0) {
      M_.setZero(f, f);
      rhs_.resize(f);
      for (int i = 0; i < f; ++i) rhs_[i] = -q_[free_[i]];
      for (int k = 0; k < m; ++k) {
        const Affine& a = affine_[k];
        if (a.a != 0.0)
          for (int i = 0; i < f; ++i) rhs_[i] -= Z_(free_[i], k) * a.a;
        if (a.b != 0.0)
          for (int c = a.column; c < a.column + a.count; ++c)
            for (int i = 0; i < f; ++i) M_(i, c) += Z_(free_[i], k) * a.b;
      }
      M_.diagonal().array() += regularisation;
      lu_.compute(M_);
      solution_ = lu_.solve(rhs_);
      if (!solution_.allFinite()) return false;
    }
    for (int r = 0; r < m; ++r) {
      const Affine& a = affine_[r];
      lambda_[r] = a.a;
      for (int c = a.column; c < a.column + a.count; ++c) lambda_[r] += a.b * solution_[c];
    }
    w_.noalias() = Z_ * lambda_;
    w_ += q_;
    // Every condition of the box LCP; λ may pass a bound by what moves its velocity by `tolerance`.
    moves_.clear();
    for (int r = 0; r < m; ++r) {
      if (!live(r)) continue;
      const UnilateralRow& row = rows[r];
      double lo = row.lo, hi = row.hi;
      if (row.normal >= 0) {
        bool any_free = false;
        for (int j = row.normal; j < row.normal + row.normals; ++j) any_free = any_free || column_[j] >= 0;
        if (!any_free) continue;  // its normals at λ_n = 0: held at 0
        hi = row.friction * load(row, [&](int j) { return lambda_[j]; }), lo = -hi;
      }
      const double slack = tolerance / local_diagonal_[r];
      signed char next = state_[r];
      if (state_[r] == kFree) {
        if (lambda_[r] < lo - slack) next = kLower;
        else if (lambda_[r] > hi + slack) next = kUpper;
      } else if ((state_[r] == kLower && w_[r] < -tolerance) || (state_[r] == kUpper && w_[r] > tolerance)) {
        next = kFree;
      }
      if (next != state_[r]) moves_.push_back({r, next});
    }
    if (moves_.empty()) {
      for (int r = 0; r < m; ++r) {
        UnilateralRow& row = rows[r];
        if (row.normal >= 0) {
          const double bound = row.friction * load(row, [&](int j) { return lambda_[j]; });
          row.lo = -bound, row.hi = bound;
        }
        row.lambda = live(r) ? std::clamp(lambda_[r], row.lo, row.hi) : 0.0;
      }
      return true;
    }
    const int broken = static_cast<int>(moves_.size());
    if (broken < fewest) fewest = broken, stalled = 0;
    else ++stalled;
    if (stalled >= kStall) moves_.erase(moves_.begin() + 1, moves_.end());
    for (const auto& [r, next] : moves_) state_[r] = next;
  }
  return false;
}

bool MixedLcp::pivot_staggered(double tolerance, MixedLcpResult& result) {
  std::vector<UnilateralRow>& rows = local_;
  const int m = static_cast<int>(rows.size());
  const auto live = [&](int r) { return local_diagonal_[r] > 0.0; };
  lo_.resize(m);
  hi_.resize(m);
  lambda_.resize(m);
  centre_.resize(m);
  double rho = kProximal;  // ρ, relative to each row's Z_rr (header, "Proximal")
  // Each row's bounds: its own, a friction row's ±μΣλ_n from its normals' λ (the warm start's, then each
  // solution's); true when a friction bound moved by more than what moves its velocity by `tolerance`.
  const auto friction_bounds = [&](const VecX& lambda, bool first) {
    bool moved = false;
    for (int r = 0; r < m; ++r) {
      const UnilateralRow& row = rows[r];
      if (row.normal < 0) {
        lo_[r] = row.lo, hi_[r] = row.hi;
        continue;
      }
      double sum = 0.0;
      for (int j = row.normal; j < row.normal + row.normals; ++j)
        if (live(j)) sum += lambda[j];
      const double bound = row.friction * std::max(sum, 0.0);
      moved = moved || first || std::abs(bound - hi_[r]) * local_diagonal_[r] > tolerance + kBoundPrecision * bound * local_diagonal_[r];
      lo_[r] = -bound, hi_[r] = bound;
    }
    return moved;
  };
  for (int r = 0; r < m; ++r) lambda_[r] = centre_[r] = rows[r].lambda;
  friction_bounds(lambda_, true);
  state_.assign(m, kFree);
  for (int r = 0; r < m; ++r) {
    if (std::isfinite(lo_[r]) && rows[r].lambda <= lo_[r]) state_[r] = kLower;
    else if (std::isfinite(hi_[r]) && rows[r].lambda >= hi_[r]) state_[r] = kUpper;
  }
  const double regularisation = kRegularisation * std::max(1e-300, Z_.diagonal().cwiseAbs().maxCoeff());
  int passes = 0;
  for (int update = 0; update < kBoundUpdates; ++update) {
    // The box LCP with these bounds and the proximal term ρZ_rr(λ_r − centre_r) on every row's w:
    // Z_FF + ρD + εI is positive definite, so single moves end (Murty).
    int fewest = std::numeric_limits<int>::max(), stalled = 0;
    for (;; ++passes) {
      if (passes >= budget(m)) return false;
      ++result.pivots;
      free_.clear();
      for (int r = 0; r < m; ++r) {
        const bool held = !live(r) || !(hi_[r] > lo_[r]);  // no body answers it, or friction with λ_n = 0
        lambda_[r] = held ? 0.0 : state_[r] == kLower ? lo_[r] : state_[r] == kUpper ? hi_[r] : 0.0;
        if (!held && state_[r] == kFree) free_.push_back(r);
      }
      const int f = static_cast<int>(free_.size());
      if (f > 0) {
        M_.resize(f, f);
        rhs_.resize(f);
        for (int i = 0; i < f; ++i) {
          const int r = free_[i];
          rhs_[i] = -q_[r] + rho * local_diagonal_[r] * centre_[r];
          for (int k = 0; k < m; ++k)
            if (lambda_[k] != 0.0) rhs_[i] -= Z_(r, k) * lambda_[k];
          for (int l = 0; l < f; ++l) M_(i, l) = Z_(r, free_[l]);
          M_(i, i) += regularisation + rho * local_diagonal_[r];
        }
        ldlt_.compute(M_);
        solution_ = ldlt_.solve(rhs_);
        if (!solution_.allFinite()) return false;
        for (int i = 0; i < f; ++i) lambda_[free_[i]] = solution_[i];
      }
      w_.noalias() = Z_ * lambda_;
      w_ += q_;
      for (int r = 0; r < m; ++r) w_[r] += rho * local_diagonal_[r] * (lambda_[r] - centre_[r]);
      moves_.clear();
      for (int r = 0; r < m; ++r) {
        if (!live(r) || !(hi_[r] > lo_[r])) continue;
        const double slack = tolerance / local_diagonal_[r];
        signed char next = state_[r];
        if (state_[r] == kFree) {
          if (lambda_[r] < lo_[r] - slack) next = kLower;
          else if (lambda_[r] > hi_[r] + slack) next = kUpper;
        } else if ((state_[r] == kLower && w_[r] < -tolerance) || (state_[r] == kUpper && w_[r] > tolerance)) {
          next = kFree;
        }
        if (next != state_[r]) moves_.push_back({r, next});
      }
      if (moves_.empty()) break;
      const int broken = static_cast<int>(moves_.size());
      if (broken < fewest) fewest = broken, stalled = 0;
      else ++stalled;
      if (stalled >= kStall) moves_.erase(moves_.begin() + 1, moves_.end());
      for (const auto& [r, next] : moves_) state_[r] = next;
    }
    // Solved again where the bounds moved with λ_n, or the proximal term still moved a velocity by more
    // than the tolerance (then from this λ with a smaller ρ: the term only picks a solution among many).
    const bool moved = friction_bounds(lambda_, false);
    double drift = 0.0;
    for (int r = 0; r < m; ++r) drift = std::max(drift, rho * local_diagonal_[r] * std::abs(lambda_[r] - centre_[r]));
    if (moved || drift > tolerance) {
      for (int r = 0; r < m; ++r) centre_[r] = lambda_[r];
      rho = std::max(kProximalStep * rho, kProximalFloor);
      continue;
    }
    for (int r = 0; r < m; ++r) {
      UnilateralRow& row = rows[r];
      if (row.normal >= 0) row.lo = lo_[r], row.hi = hi_[r];
      row.lambda = live(r) ? std::clamp(lambda_[r], row.lo, row.hi) : 0.0;
    }
    return true;
  }
  return false;
}

bool MixedLcp::pivot(std::vector<UnilateralRow>& rows, int first, int last, const VecX& v_bil, double tolerance,
                     MixedLcpResult& result) {
  // The component's rows, their normals renumbered among them (a patch's normals stay consecutive: they
  // are consecutive rows on the same bodies, so in the same component).
  index_.assign(component_rows_.begin() + first, component_rows_.begin() + last);
  const int m = last - first;
  for (int i = 0; i < m; ++i) local_of_[index_[i]] = i;
  local_.resize(m);
  local_diagonal_.resize(m);
  for (int i = 0; i < m; ++i) {
    local_[i] = rows[index_[i]];
    if (local_[i].normal >= 0) local_[i].normal = local_of_[local_[i].normal];
    local_diagonal_[i] = diagonal_[index_[i]];
  }
  build_dense(rows, v_bil);
  if (!pivot_exact(tolerance, result) && !pivot_staggered(tolerance, result)) return false;
  for (int i = 0; i < m; ++i) {
    UnilateralRow& row = rows[index_[i]];
    row.lambda = local_[i].lambda;
    row.lo = local_[i].lo, row.hi = local_[i].hi;
  }
  return true;
}

}  // namespace affix
