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
// Exact (pivot_exact). A friction row's bounds are ±μλ_n of its normal; at a bound it is not a constant
// but λ_t = σμλ_n (σ = ±1), linear in its normal's unknown (the pyramid's edge, as a sliding contact has
// it), so every λ is affine in λ_F,
//   λ_k = a_k + b_k λ_{F(c_k)}   (free: b = 1 on itself; a friction row at a bound with a free normal:
//                                  b = σμ on its normal; every other row a constant a: its bound, or 0),
// and Σ_k Z_{F,k} (a_k + b_k λ_{F(c_k)}) = −q_F is square, not symmetric with sliding friction: LU. One
// solve per set, exact for sliding — but the substitution can make a row's effective Z_rr + σμZ_rt
// negative (a box's corner friction turning it onto that corner, large μ over redundant corners), where
// the sets cycle: a 1000 kg box sliding on a 1 kg box at μ = 0.9 between them.
// Staggered (pivot_staggered, when exact does not settle). The friction bounds are held at ±μλ_n of the
// last λ_n, which leaves Z_FF + εI symmetric positive definite (LDLT; Murty's rule ends), then set from
// the new λ_n and solved again until no bound moves a velocity by more than the tolerance (Kaufman et
// al. 2008's staggered projections, with exact box solves). It may not converge where redundant corners
// share their normal load differently each solve; then PGS goes on (mixed_lcp.cpp).
// Why pivoting and not only PGS: PGS converges at the rate of Z's condition number, which a 100 kg box
// on a 1 kg box makes ~10³–10⁴ (its corner rows under the light box carry the heavy one's weight);
// there 100 sweeps left the top box sinking by 0.37 m at h = 1/60 (hostile pass 2, issue 15).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "affix/solvers/compliant/mixed_lcp.hpp"

namespace affix {
namespace {

enum : signed char { kLower = 0, kFree = 1, kUpper = 2 };
constexpr int kStall = 3;  // passes without fewer broken conditions before single moves
constexpr double kRegularisation = 1e-12;  // of max Z_rr, on Z_FF's diagonal (mixed_lcp.hpp)
constexpr int kBoundUpdates = 30;          // staggered: friction bounds moved with λ_n, solved again

}  // namespace

void MixedLcp::build_dense(const std::vector<UnilateralRow>& rows, const VecX& v_bil) {
  const int m = static_cast<int>(rows.size());
  // Z column by column (Z_rk = U_r Δv_k + s_k δ_rk) and q = U v_bil − c (w = Z λ + q, header).
  Z_.setZero(m, m);
  q_.resize(m);
  x_.setZero(v_bil.size());
  for (int k = 0; k < m; ++k) {
    for (int e = response_begin_[k]; e < response_begin_[k + 1]; ++e) x_.segment<6>(6 * response_body_[e]) = response_[e];
    for (int r = 0; r < m; ++r)
      for (int side = 0; side < 2; ++side)
        if (rows[r].body[side] >= 0) Z_(r, k) += rows[r].J[side].dot(x_.segment<6>(6 * rows[r].body[side]));
    for (int e = response_begin_[k]; e < response_begin_[k + 1]; ++e) x_.segment<6>(6 * response_body_[e]).setZero();
    Z_(k, k) += rows[k].s;
  }
  for (int r = 0; r < m; ++r) {
    q_[r] = -rows[r].c;
    for (int side = 0; side < 2; ++side)
      if (rows[r].body[side] >= 0) q_[r] += rows[r].J[side].dot(v_bil.segment<6>(6 * rows[r].body[side]));
  }
}

bool MixedLcp::pivot_exact(std::vector<UnilateralRow>& rows, double tolerance, MixedLcpResult& result) {
  const int m = static_cast<int>(rows.size());
  const auto live = [&](int r) { return diagonal_[r] > 0.0; };  // a row no body answers keeps λ = 0
  // The sets from the warm start.
  state_.assign(m, kFree);
  for (int r = 0; r < m; ++r) {
    const UnilateralRow& row = rows[r];
    if (row.normal >= 0) {
      const double bound = row.friction * std::max(rows[row.normal].lambda, 0.0);
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
  for (int pass = 0; pass < 2 * m + kPivots; ++pass) {
    ++result.pivots;
    // The free unknowns, and each row's λ as a + b λ_F(column) (header).
    free_.clear();
    column_.assign(m, -1);
    for (int r = 0; r < m; ++r) {
      const bool normal_free = rows[r].normal < 0 || (live(rows[r].normal) && state_[rows[r].normal] == kFree);
      if (live(r) && state_[r] == kFree && normal_free) column_[r] = static_cast<int>(free_.size()), free_.push_back(r);
    }
    for (int r = 0; r < m; ++r) {
      const UnilateralRow& row = rows[r];
      Affine& a = affine_[r];
      a = Affine{};
      if (!live(r)) continue;
      if (column_[r] >= 0) {
        a.b = 1.0, a.column = column_[r];
      } else if (row.normal >= 0) {
        // At a bound with a free normal: σμλ_n; otherwise the normal is at λ_n = 0 and so is the row.
        if (state_[r] != kFree && column_[row.normal] >= 0)
          a.b = (state_[r] == kUpper ? 1.0 : -1.0) * row.friction, a.column = column_[row.normal];
      } else {
        a.a = state_[r] == kUpper ? row.hi : state_[r] == kLower ? row.lo : 0.0;
      }
    }
    // Σ_k Z_Fk (a_k + b_k λ_F(c_k)) = −q_F, Z_FF with the regularisation on its diagonal (header).
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
          for (int i = 0; i < f; ++i) M_(i, a.column) += Z_(free_[i], k) * a.b;
      }
      M_.diagonal().array() += regularisation;
      lu_.compute(M_);
      solution_ = lu_.solve(rhs_);
      if (!solution_.allFinite()) return false;
    }
    for (int r = 0; r < m; ++r)
      lambda_[r] = affine_[r].a + (affine_[r].b != 0.0 ? affine_[r].b * solution_[affine_[r].column] : 0.0);
    w_.noalias() = Z_ * lambda_;
    w_ += q_;
    // Every condition of the box LCP; λ may pass a bound by what moves its velocity by `tolerance`.
    moves_.clear();
    for (int r = 0; r < m; ++r) {
      if (!live(r)) continue;
      const UnilateralRow& row = rows[r];
      double lo = row.lo, hi = row.hi;
      if (row.normal >= 0) {
        if (column_[row.normal] < 0) continue;  // its normal at λ_n = 0: held at 0
        hi = row.friction * std::max(lambda_[row.normal], 0.0), lo = -hi;
      }
      const double slack = tolerance / diagonal_[r];
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
          const double bound = live(row.normal) ? row.friction * std::max(lambda_[row.normal], 0.0) : 0.0;
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

bool MixedLcp::pivot_staggered(std::vector<UnilateralRow>& rows, double tolerance, MixedLcpResult& result) {
  const int m = static_cast<int>(rows.size());
  const auto live = [&](int r) { return diagonal_[r] > 0.0; };
  lo_.resize(m);
  hi_.resize(m);
  lambda_.resize(m);
  // Each row's bounds: its own, a friction row's ±μλ_n from λ_n (the warm start's, then each solution's);
  // true when a friction bound moved by more than what moves its velocity by `tolerance`.
  const auto friction_bounds = [&](const VecX& lambda, bool first) {
    bool moved = false;
    for (int r = 0; r < m; ++r) {
      const UnilateralRow& row = rows[r];
      if (row.normal < 0) {
        lo_[r] = row.lo, hi_[r] = row.hi;
        continue;
      }
      const double bound = live(row.normal) ? row.friction * std::max(lambda[row.normal], 0.0) : 0.0;
      moved = moved || first || std::abs(bound - hi_[r]) * diagonal_[r] > tolerance;
      lo_[r] = -bound, hi_[r] = bound;
    }
    return moved;
  };
  for (int r = 0; r < m; ++r) lambda_[r] = rows[r].lambda;
  friction_bounds(lambda_, true);
  state_.assign(m, kFree);
  for (int r = 0; r < m; ++r) {
    if (std::isfinite(lo_[r]) && rows[r].lambda <= lo_[r]) state_[r] = kLower;
    else if (std::isfinite(hi_[r]) && rows[r].lambda >= hi_[r]) state_[r] = kUpper;
  }
  const double regularisation = kRegularisation * std::max(1e-300, Z_.diagonal().cwiseAbs().maxCoeff());
  int passes = 0;
  for (int update = 0; update < kBoundUpdates; ++update) {
    // The box LCP with these bounds: Z_FF + εI is positive definite, so single moves end (Murty).
    int fewest = std::numeric_limits<int>::max(), stalled = 0;
    for (;; ++passes) {
      if (passes >= 2 * m + kPivots) return false;
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
          rhs_[i] = -q_[free_[i]];
          for (int k = 0; k < m; ++k)
            if (lambda_[k] != 0.0) rhs_[i] -= Z_(free_[i], k) * lambda_[k];
          for (int l = 0; l < f; ++l) M_(i, l) = Z_(free_[i], free_[l]);
          M_(i, i) += regularisation;
        }
        ldlt_.compute(M_);
        solution_ = ldlt_.solve(rhs_);
        if (!solution_.allFinite()) return false;
        for (int i = 0; i < f; ++i) lambda_[free_[i]] = solution_[i];
      }
      w_.noalias() = Z_ * lambda_;
      w_ += q_;
      moves_.clear();
      for (int r = 0; r < m; ++r) {
        if (!live(r) || !(hi_[r] > lo_[r])) continue;
        const double slack = tolerance / diagonal_[r];
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
    if (friction_bounds(lambda_, false)) continue;  // the bounds moved with λ_n: solve again
    for (int r = 0; r < m; ++r) {
      UnilateralRow& row = rows[r];
      if (row.normal >= 0) row.lo = lo_[r], row.hi = hi_[r];
      row.lambda = live(r) ? std::clamp(lambda_[r], row.lo, row.hi) : 0.0;
    }
    return true;
  }
  return false;
}

bool MixedLcp::pivot(std::vector<UnilateralRow>& rows, const VecX& v_bil, double tolerance, MixedLcpResult& result) {
  build_dense(rows, v_bil);
  return pivot_exact(rows, tolerance, result) || pivot_staggered(rows, tolerance, result);
}

}  // namespace affix
