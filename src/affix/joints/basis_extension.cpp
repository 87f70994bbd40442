#include "affix/joints/basis_extension.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <queue>

namespace affix {
namespace {

/// Entries below this fraction of a row's largest original entry are cancellation noise and dropped.
constexpr double kPruneTolerance = 1e-14;

/// A sparse vector being accumulated: dense values plus the list of indices ever touched.
class SparseAccumulator {
 public:
  explicit SparseAccumulator(int size) : value_(size, 0.0), touched_(size, false) {}

  double& operator[](int i) {
    if (!touched_[i]) {
      touched_[i] = true;
      index_.push_back(i);
    }
    return value_[i];
  }
  double value(int i) const { return value_[i]; }
  const std::vector<int>& indices() const { return index_; }

  /// The entries of magnitude above `threshold`, indices ascending; resets the accumulator.
  std::vector<std::pair<int, double>> extract(double threshold) {
    std::sort(index_.begin(), index_.end());
    std::vector<std::pair<int, double>> terms;
    for (int i : index_) {
      if (std::abs(value_[i]) > threshold) terms.emplace_back(i, value_[i]);
      value_[i] = 0.0;
      touched_[i] = false;
    }
    index_.clear();
    return terms;
  }

 private:
  std::vector<double> value_;
  std::vector<bool> touched_;
  std::vector<int> index_;
};

double max_magnitude(const std::vector<std::pair<int, double>>& terms) {
  double largest = 0.0;
  for (const auto& [j, c] : terms) largest = std::max(largest, std::abs(c));
  return largest;
}

}  // namespace

BasisExtension::BasisExtension(int dof_count) : BasisExtension(dof_count, {}) {}

// Row i of C is scattered into a dense accumulator; the earlier pivots it holds are eliminated in
// elimination order (earliest first), which terminates: subtracting kept row k only brings in pivots
// of rows after k, since C̃_k is zero at the pivots of rows before it. What is left either is noise
// (the row is dropped) or takes its largest entry as the next pivot.
BasisExtension::BasisExtension(int dof_count, const std::vector<SparseRow>& rows, double relative_tolerance)
    : dof_count_(dof_count), row_count_(static_cast<int>(rows.size())), pivot_row_(dof_count, -1) {
  SparseAccumulator row(dof_count), combination(row_count_);
  std::priority_queue<int, std::vector<int>, std::greater<>> pending;  // kept rows to eliminate with
  std::vector<bool> queued;  // per kept row; every row queued is popped, so it ends all false
  for (int i = 0; i < row_count_; ++i) {
    const double scale = max_magnitude(rows[i].terms);
    for (const auto& [j, c] : rows[i].terms) {
      assert(j >= 0 && j < dof_count);
      row[j] += c;
    }
    combination[i] = 1.0;
    for (int j : row.indices()) {
      if (const int k = pivot_row_[j]; k >= 0) {
        pending.push(k);
        queued[k] = true;
      }
    }
    while (!pending.empty()) {
      const int k = pending.top();
      pending.pop();
      queued[k] = false;
      const int p = pivots_[k];
      const double value = row.value(p);
      row[p] = 0.0;  // exactly, not by cancellation
      if (std::abs(value) <= kPruneTolerance * scale) continue;
      const double factor = value / pivot_value_[k];
      for (const auto& [j, c] : eliminated_[k].terms) {
        if (j == p) continue;
        row[j] -= factor * c;
        if (const int later = pivot_row_[j]; later >= 0 && !queued[later]) {
          assert(later > k);
          pending.push(later);
          queued[later] = true;
        }
      }
      for (const auto& [r, c] : combination_[k]) combination[r] -= factor * c;
    }

    SparseRow eliminated{row.extract(kPruneTolerance * scale)};
    const double remaining = max_magnitude(eliminated.terms);
    if (remaining <= relative_tolerance * scale) {
      dropped_.push_back(i);
      combination.extract(0.0);
      continue;
    }
    // The largest remaining entry, the lowest DOF on a tie; every remaining DOF is not yet a pivot.
    auto pivot = eliminated.terms.begin();
    for (auto t = eliminated.terms.begin(); t != eliminated.terms.end(); ++t)
      if (std::abs(t->second) > std::abs(pivot->second)) pivot = t;
    assert(pivot_row_[pivot->first] < 0);
    pivot_row_[pivot->first] = static_cast<int>(pivots_.size());
    pivots_.push_back(pivot->first);
    pivot_value_.push_back(pivot->second);
    queued.push_back(false);
    eliminated_.push_back(std::move(eliminated));
    combination_.push_back(combination.extract(0.0));
  }
  for (int j = 0; j < dof_count; ++j)
    if (pivot_row_[j] < 0) free_.push_back(j);
}

const Eigen::SparseMatrix<double>& BasisExtension::free_basis() const {
  if (!free_basis_built_) build_free_basis();
  return free_basis_;
}

// Column k of N is U e_{m+k}: one at f = free_[k], and at the pivots the solution of
// C̃_pp u = −C̃(:, f). Only the kept rows that reach f are non-zero (a sparse triangular solve):
// row k is non-zero if it holds f or the pivot of a later non-zero row, so they are found by walking
// from the rows holding f to the earlier rows holding their pivots, then solved from the last up.
void BasisExtension::build_free_basis() const {
  const int m = constraint_count();
  std::vector<std::vector<int>> rows_holding(dof_count_);  // DOF → kept rows with an entry there
  for (int k = 0; k < m; ++k)
    for (const auto& [j, c] : eliminated_[k].terms)
      if (j != pivots_[k]) rows_holding[j].push_back(k);

  std::vector<Eigen::Triplet<double>> entries;
  std::vector<double> u(dof_count_, 0.0);
  std::vector<bool> reached(m, false);
  std::vector<int> column_rows, stack;
  for (int col = 0; col < static_cast<int>(free_.size()); ++col) {
    const int f = free_[col];
    entries.emplace_back(f, col, 1.0);
    column_rows.clear();
    stack.assign(rows_holding[f].begin(), rows_holding[f].end());
    for (int k : stack) reached[k] = true;
    while (!stack.empty()) {
      const int k = stack.back();
      stack.pop_back();
      column_rows.push_back(k);
      for (int earlier : rows_holding[pivots_[k]]) {
        if (!reached[earlier]) {
          reached[earlier] = true;
          stack.push_back(earlier);
        }
      }
    }
    std::sort(column_rows.begin(), column_rows.end(), std::greater<>());
    u[f] = 1.0;
    for (int k : column_rows) {
      const int p = pivots_[k];
      double sum = 0.0;
      for (const auto& [j, c] : eliminated_[k].terms)
        if (j != p) sum += c * u[j];
      u[p] = -sum / pivot_value_[k];
    }
    for (int k : column_rows) {
      const int p = pivots_[k];
      if (u[p] != 0.0) entries.emplace_back(p, col, u[p]);
      u[p] = 0.0;
      reached[k] = false;
    }
    u[f] = 0.0;
  }
  free_basis_.resize(dof_count_, static_cast<int>(free_.size()));
  free_basis_.setFromTriplets(entries.begin(), entries.end());
  free_basis_built_ = true;
}

// x[p_k] = (b_k − Σ_{j ≠ p_k} C̃_k[j] x[j]) / C̃_k[p_k] from the last kept row up: row k reads only
// free DOFs and the pivots of later rows, which are already set.
void BasisExtension::back_substitute(const VecX& b, VecX& x) const {
  for (int k = constraint_count() - 1; k >= 0; --k) {
    const int p = pivots_[k];
    double sum = b[k];
    for (const auto& [j, c] : eliminated_[k].terms)
      if (j != p) sum -= c * x[j];
    x[p] = sum / pivot_value_[k];
  }
}

VecX BasisExtension::eliminated_rhs(const VecX& s) const {
  assert(s.size() == row_count_);
  VecX s_tilde(constraint_count());
  for (int k = 0; k < constraint_count(); ++k) {
    double sum = 0.0;
    for (const auto& [r, c] : combination_[k]) sum += c * s[r];
    s_tilde[k] = sum;
  }
  return s_tilde;
}

VecX BasisExtension::to_reduced(const VecX& x) const {
  assert(x.size() == dof_count_);
  const int m = constraint_count();
  VecX z(dof_count_);
  for (int k = 0; k < m; ++k) {
    double sum = 0.0;
    for (const auto& [j, c] : eliminated_[k].terms) sum += c * x[j];
    z[k] = sum;
  }
  for (int k = 0; k < static_cast<int>(free_.size()); ++k) z[m + k] = x[free_[k]];
  return z;
}

VecX BasisExtension::to_full(const VecX& z) const {
  assert(z.size() == dof_count_);
  const int m = constraint_count();
  VecX x = VecX::Zero(dof_count_);
  for (int k = 0; k < static_cast<int>(free_.size()); ++k) x[free_[k]] = z[m + k];
  back_substitute(z.head(m), x);
  return x;
}

// δ_p solves C̃_pp δ_p = s̃ − C̃ x; its free part is zero.
VecX BasisExtension::restoration(const VecX& x, const VecX& s_tilde) const {
  assert(x.size() == dof_count_ && s_tilde.size() == constraint_count());
  const VecX residual = s_tilde - to_reduced(x).head(constraint_count());
  VecX delta = VecX::Zero(dof_count_);
  back_substitute(residual, delta);
  return delta;
}

Eigen::SparseMatrix<double> BasisExtension::matrix() const {
  const int m = constraint_count();
  std::vector<Eigen::Triplet<double>> entries;
  for (int k = 0; k < m; ++k)
    for (const auto& [j, c] : eliminated_[k].terms) entries.emplace_back(k, j, c);
  for (int k = 0; k < static_cast<int>(free_.size()); ++k) entries.emplace_back(m + k, free_[k], 1.0);
  Eigen::SparseMatrix<double> V(dof_count_, dof_count_);
  V.setFromTriplets(entries.begin(), entries.end());
  return V;
}

}  // namespace affix
