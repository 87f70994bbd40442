#include "affix/solvers/compliant/mixed_lcp.hpp"

#include <algorithm>
#include <cmath>

namespace affix {
namespace {

/// A friction row's bound μΣλ_n over its patch's normal rows (mixed_lcp.hpp).
double friction_bound(const std::vector<UnilateralRow>& rows, const UnilateralRow& row) {
  double load = 0.0;
  for (int k = 0; k < row.normals; ++k) load += rows[row.normal + k].lambda;
  return row.friction * std::max(load, 0.0);
}

constexpr int kAlwaysPivoted = 64;  // rows of a component pivoted whatever their mass ratio (mixed_lcp.hpp)
constexpr double kSpread = 100.0;    // beyond: pivoted where max Z_rr ≥ kSpread · min Z_rr over its rows

int root(std::vector<int>& parent, int r) {
  while (parent[r] != r) r = parent[r] = parent[parent[r]];
  return r;
}

}  // namespace

void MixedLcp::find_components(int m, int bodies) {
  // Union–find over the rows: a row joins the first row whose Δv moved the same unknown.
  parent_.resize(m);
  for (int r = 0; r < m; ++r) parent_[r] = r;
  owner_.assign(bodies, -1);
  for (int r = 0; r < m; ++r)
    for (int k = response_begin_[r]; k < response_begin_[r + 1]; ++k) {
      int& owner = owner_[response_body_[k]];
      if (owner < 0) owner = r;
      else parent_[root(parent_, r)] = root(parent_, owner);
    }
  // Rows grouped by component, each group in the rows' order (a patch's normals stay consecutive).
  local_of_.assign(m, 0);  // here: the rows of each root, then the running start
  for (int r = 0; r < m; ++r) ++local_of_[root(parent_, r)];
  component_begin_.assign(1, 0);
  int start = 0;
  for (int r = 0; r < m; ++r) {
    const int count = local_of_[r];
    local_of_[r] = start;
    if (count > 0) start += count, component_begin_.push_back(start);
  }
  component_rows_.resize(m);
  for (int r = 0; r < m; ++r) component_rows_[local_of_[root(parent_, r)]++] = r;
}

void MixedLcp::apply_W(const std::vector<Mat6>& W_blocks, const MatX* W_dense, const VecX& x, VecX& out) const {
  if (W_dense) {
    out.noalias() = *W_dense * x;
    return;
  }
  out.resize(x.size());
  for (std::size_t u = 0; u < W_blocks.size(); ++u) out.segment<6>(6 * u).noalias() = W_blocks[u] * x.segment<6>(6 * u);
}

bool MixedLcp::lead_sliding(const std::vector<UnilateralRow>& rows, int r) {
  const UnilateralRow& lead = rows[rows[r].lead];
  const double bound = friction_bound(rows, lead);
  return bound > 0.0 && std::abs(lead.lambda) >= (1.0 - 1e-9) * bound;
}

MixedLcpResult MixedLcp::solve(const ConstraintJacobian& J, ReducedSystem& system, const std::vector<Mat6>& W_blocks,
                               const MatX* W_dense, const VecX& b, std::vector<UnilateralRow>& rows, VecX& v,
                               VecX& mu, int max_sweeps, double tolerance) {
  const int m = static_cast<int>(rows.size());
  const bool leads = std::any_of(rows.begin(), rows.end(), [](const UnilateralRow& r) { return r.lead >= 0; });
  if (leads) v_entry_ = v;
  MixedLcpResult result = solve_once(J, system, W_blocks, W_dense, b, rows, v, mu, max_sweeps, tolerance);
  if (!leads) return result;
  // Leads (header): the rows that push beside a sliding lead yield, and the LCP is solved again.
  yielding_.clear();
  for (int r = 0; r < m; ++r)
    if (rows[r].lead >= 0 && rows[r].lambda != 0.0 && lead_sliding(rows, r)) yielding_.push_back(r);
  if (yielding_.empty()) return result;
  v_first_ = v, mu_first_ = mu;
  lambda_first_.resize(m);
  friction_first_.resize(m);
  for (int r = 0; r < m; ++r) lambda_first_[r] = rows[r].lambda, friction_first_[r] = rows[r].friction;
  for (int r : yielding_) rows[r].friction = 0.0, rows[r].lambda = 0.0;
  v = v_entry_;
  const MixedLcpResult second = solve_once(J, system, W_blocks, W_dense, b, rows, v, mu, max_sweeps, tolerance);
  const bool kept = std::all_of(yielding_.begin(), yielding_.end(), [&](int r) { return lead_sliding(rows, r); });
  for (int r = 0; r < m; ++r) rows[r].friction = friction_first_[r];
  if (kept) {
    for (int r : yielding_) rows[r].lo = rows[r].hi = 0.0;
    result.sweeps += second.sweeps, result.pivots += second.pivots;
    result.converged = second.converged, result.residual = second.residual;
    return result;
  }
  for (int r = 0; r < m; ++r) rows[r].lambda = lambda_first_[r];
  v = v_first_, mu = mu_first_;
  result.sweeps += second.sweeps, result.pivots += second.pivots;
  return result;
}

MixedLcpResult MixedLcp::solve_once(const ConstraintJacobian& J, ReducedSystem& system, const std::vector<Mat6>& W_blocks,
                                    const MatX* W_dense, const VecX& b, std::vector<UnilateralRow>& rows, VecX& v,
                                    VecX& mu, int max_sweeps, double tolerance) {
  const int n = J.bodies;
  const int m = static_cast<int>(rows.size());
  // v_bil = v_free + W Jᵀ A⁻¹ b (header).
  if (J.rows > 0) {
    mu = system.solve(b);
    x_.setZero(6 * n);
    J.transpose_multiply_add(mu, x_);
    apply_W(W_blocks, W_dense, x_, Wx_);
    v += Wx_;
  } else {
    mu.resize(0);
  }
  if (m == 0) return {};
  jointed_.assign(n, 0);
  for (const JointSlot& s : J.slots)
    for (int side = 0; side < 2; ++side)
      if (s.body[side] >= 0) jointed_[s.body[side]] = 1;
  // Δv_r and Z_rr for every row.
  response_begin_.assign(1, 0);
  response_body_.clear();
  response_.clear();
  diagonal_.assign(m, 0.0);
  for (int r = 0; r < m; ++r) {
    const UnilateralRow& row = rows[r];
    bool coupled = W_dense != nullptr;
    for (int side = 0; side < 2; ++side) coupled = coupled || (row.body[side] >= 0 && jointed_[row.body[side]] && J.rows > 0);
    if (coupled) {
      // Δv_r = W U_rᵀ − W Jᵀ A⁻¹ J W U_rᵀ: one solve with A's factorisation.
      x_.setZero(6 * n);
      for (int side = 0; side < 2; ++side)
        if (row.body[side] >= 0) x_.segment<6>(6 * row.body[side]) += row.J[side];
      apply_W(W_blocks, W_dense, x_, Wx_);
      if (J.rows > 0) {
        Jx_.setZero(J.rows);
        J.multiply_add(Wx_, Jx_);
        y_ = system.solve(Jx_);
        z_.setZero(6 * n);
        J.transpose_multiply_add(y_, z_);
        apply_W(W_blocks, W_dense, z_, x_);
        Wx_ -= x_;
      }
      for (int u = 0; u < n; ++u)
        if (!Wx_.segment<6>(6 * u).isZero(0.0)) response_body_.push_back(u), response_.push_back(Wx_.segment<6>(6 * u));
    } else {
      for (int side = 0; side < 2; ++side) {
        const int u = row.body[side];
        if (u < 0) continue;
        if (side == 1 && u == row.body[0]) {  // both sides on one body
          response_.back() += W_blocks[u] * row.J[1];
          continue;
        }
        response_body_.push_back(u);
        response_.push_back(W_blocks[u] * row.J[side]);
      }
    }
    response_begin_.push_back(static_cast<int>(response_body_.size()));
    double z = row.s;
    for (int k = response_begin_[r]; k < response_begin_[r + 1]; ++k)
      for (int side = 0; side < 2; ++side)
        if (row.body[side] == response_body_[k]) z += row.J[side].dot(response_[k]);
    diagonal_[r] = z;
  }
  const auto rate = [&](const UnilateralRow& row) {
    double w = 0.0;
    for (int side = 0; side < 2; ++side)
      if (row.body[side] >= 0) w += row.J[side].dot(v.segment<6>(6 * row.body[side]));
    return w;
  };
  const auto add = [&](int r, double delta) {
    for (int k = response_begin_[r]; k < response_begin_[r + 1]; ++k)
      v.segment<6>(6 * response_body_[k]) += delta * response_[k];
  };
  // Warm start: v = v_bil + Σ λ_r Δv_r with the given λ, inside their bounds.
  for (int r = 0; r < m; ++r) {
    UnilateralRow& row = rows[r];
    if (!(diagonal_[r] > 0.0)) row.lambda = 0.0;  // no body can answer it (both prescribed, or held by joints)
    if (row.normal >= 0) {
      const double bound = friction_bound(rows, row);
      row.lo = -bound, row.hi = bound;
    }
    row.lambda = std::clamp(row.lambda, row.lo, row.hi);
    if (row.lambda != 0.0) add(r, row.lambda);
  }
  MixedLcpResult result;
  result.converged = false;
  if (pivoting_rows_ > 0) {
    const VecX v_bil = [&] {
      VecX x = v;
      for (int r = 0; r < m; ++r)
        if (rows[r].lambda != 0.0) {
          for (int k = response_begin_[r]; k < response_begin_[r + 1]; ++k)
            x.segment<6>(6 * response_body_[k]) -= rows[r].lambda * response_[k];
        }
      return x;
    }();
    // Each component of Z by pivoting (header); PGS only where one is too large or did not settle.
    find_components(m, n);
    result.converged = true;
    for (std::size_t c = 0; c + 1 < component_begin_.size(); ++c) {
      const int first = component_begin_[c], last = component_begin_[c + 1];
      // Beyond kAlwaysPivoted rows only where PGS is slow: the rows' own responses Z_rr spread by kSpread
      // or more (a light body under a heavy one), or a row on a jointed body (a mechanism hides its mass
      // ratio from Z_rr: a folded chain of 1 g links under 1000 kg has Z_rr within 4× on its links). Equal
      // free boxes in a pile settle by PGS's sweeps at a fraction of the dense solves' cost (README).
      double least = std::numeric_limits<double>::infinity(), most = 0.0;
      bool mechanism = false;
      for (int i = first; i < last; ++i) {
        const UnilateralRow& row = rows[component_rows_[i]];
        for (int side = 0; side < 2; ++side) mechanism = mechanism || (row.body[side] >= 0 && jointed_[row.body[side]]);
        if (row.normal >= 0 || !(diagonal_[component_rows_[i]] > 0.0)) continue;
        least = std::min(least, diagonal_[component_rows_[i]]), most = std::max(most, diagonal_[component_rows_[i]]);
      }
      const bool exact = last - first <= std::min(kAlwaysPivoted, pivoting_rows_) ||
                         (last - first <= pivoting_rows_ && (mechanism || most >= kSpread * least));
      const bool settled = exact && pivot(rows, first, last, v_bil, tolerance, result);
      result.converged = result.converged && settled;
    }
    v = v_bil;
    for (int r = 0; r < m; ++r)
      if (rows[r].lambda != 0.0) add(r, rows[r].lambda);
  }
  double change = 0.0;
  while (!result.converged && result.sweeps < max_sweeps) {
    ++result.sweeps;
    change = 0.0;
    for (int r = 0; r < m; ++r) {
      UnilateralRow& row = rows[r];
      if (!(diagonal_[r] > 0.0)) continue;
      if (row.normal >= 0) {
        const double bound = friction_bound(rows, row);
        row.lo = -bound, row.hi = bound;
      }
      const double w = rate(row) + row.s * row.lambda - row.c;
      const double next = std::clamp(row.lambda - w / diagonal_[r], row.lo, row.hi);
      const double delta = next - row.lambda;
      if (delta == 0.0) continue;
      add(r, delta);
      row.lambda = next;
      change = std::max(change, std::abs(delta) * diagonal_[r]);
    }
    if (change <= tolerance) {
      result.converged = true;
      break;
    }
  }
  if (!result.converged && result.sweeps > 0) {
    // Stopped at the cap (header, "At the cap"): relative to the largest velocity an impulse makes.
    double scale = 0.0;
    for (int r = 0; r < m; ++r) scale = std::max(scale, std::abs(rows[r].lambda) * diagonal_[r]);
    result.residual = scale > 0.0 ? change / scale : std::numeric_limits<double>::infinity();
    result.converged = result.residual <= kCapResidual;
  }
  // μ = A⁻¹(b − J W Uᵀ λ).
  if (J.rows > 0) {
    x_.setZero(6 * n);
    for (const UnilateralRow& row : rows)
      for (int side = 0; side < 2; ++side)
        if (row.body[side] >= 0) x_.segment<6>(6 * row.body[side]) += row.lambda * row.J[side];
    apply_W(W_blocks, W_dense, x_, Wx_);
    Jx_ = b;
    J.multiply_add(-Wx_, Jx_);
    mu = system.solve(Jx_);
  }
  return result;
}

}  // namespace affix
