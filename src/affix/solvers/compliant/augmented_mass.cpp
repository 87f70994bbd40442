#include "affix/solvers/compliant/augmented_mass.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <numeric>
#include <queue>

namespace affix {
namespace {

/// The non-zero entries of a joint-local 12-vector on the unknowns: global index and value.
struct SparseVector {
  std::array<int, 12> index{};
  std::array<double, 12> value{};
  int size = 0;
};

SparseVector place(const Vec12& x, const std::array<int, 2>& body, double scale) {
  SparseVector out;
  for (int side = 0; side < 2; ++side) {
    if (body[side] < 0) continue;
    for (int k = 0; k < 6; ++k)
      if (x[6 * side + k] != 0.0) {
        out.index[out.size] = 6 * body[side] + k;
        out.value[out.size++] = scale * x[6 * side + k];
      }
  }
  return out;
}

/// Which 6 × 6 blocks of the inverse being updated may be non-zero (body pairs), kept symmetric: M⁻¹ is
/// block-diagonal, and a term's update fills only the blocks between the bodies its two vectors reach.
class BlockPattern {
 public:
  explicit BlockPattern(int bodies) : n_(bodies), linked_(static_cast<std::size_t>(bodies) * bodies, 0), of_(bodies) {
    for (int b = 0; b < bodies; ++b) link(b, b);
  }
  /// The bodies whose blocks with b may be non-zero.
  const std::vector<int>& of(int b) const { return of_[b]; }
  void link(int a, int b) {
    char& ab = linked_[static_cast<std::size_t>(a) * n_ + b];
    if (ab) return;
    ab = linked_[static_cast<std::size_t>(b) * n_ + a] = 1;
    of_[a].push_back(b);
    if (a != b) of_[b].push_back(a);
  }

 private:
  int n_;
  std::vector<char> linked_;
  std::vector<std::vector<int>> of_;
};

/// The block rows (or columns) of A⁻¹x for a sparse x: the bodies linked to the bodies x touches.
void reach(const SparseVector& x, const BlockPattern& pattern, std::vector<char>& mark, std::vector<int>& out) {
  for (int b : out) mark[b] = 0;
  out.clear();
  for (int k = 0; k < x.size; ++k)
    for (int b : pattern.of(x.index[k] / 6))
      if (!mark[b]) mark[b] = 1, out.push_back(b);
}

/// Workspace of the updates: the reached blocks and A⁻¹u, vᵀA⁻¹ on them.
struct Updates {
  explicit Updates(int bodies) : pattern(bodies), row_mark(bodies, 0), col_mark(bodies, 0), inv_u(6 * bodies), vt_inv(6 * bodies) {}
  BlockPattern pattern;
  std::vector<char> row_mark, col_mark;
  std::vector<int> rows, cols;
  VecX inv_u, vt_inv;
  MatX X, Z;  // woodbury(): A⁻¹P and A⁻¹P·Y on the reached block rows
};

/// inv ← (A + u vᵀ)⁻¹ for inv = A⁻¹ (Sherman–Morrison), u and v sparse. Only the blocks the pattern
/// allows are read and written: A⁻¹u lives on the block rows linked to u's bodies, vᵀA⁻¹ on the block
/// columns linked to v's, and the rank-1 correction on their product. On a cable of ball joints, whose
/// K̃ blocks sit on the diagonal (Andrews Eq. 4), every update stays inside one body's block: O(1) each
/// instead of the O(N²) of a dense update.
void sherman_morrison(MatX& inv, const SparseVector& u, const SparseVector& v, Updates& w) {
  if (u.size == 0 || v.size == 0) return;
  reach(u, w.pattern, w.row_mark, w.rows);
  reach(v, w.pattern, w.col_mark, w.cols);
  for (int r : w.rows) {
    Vec6 x = Vec6::Zero();
    for (int k = 0; k < u.size; ++k) x += u.value[k] * inv.block<6, 1>(6 * r, u.index[k]);
    w.inv_u.segment<6>(6 * r) = x;
  }
  for (int c : w.cols) {
    Vec6 y = Vec6::Zero();
    for (int k = 0; k < v.size; ++k) y += v.value[k] * inv.block<1, 6>(v.index[k], 6 * c).transpose();
    w.vt_inv.segment<6>(6 * c) = y;
  }
  double denominator = 1.0;
  for (int k = 0; k < v.size; ++k)
    if (w.row_mark[v.index[k] / 6]) denominator += v.value[k] * w.inv_u[v.index[k]];  // else A⁻¹u is 0 there
  for (int r : w.rows) {
    const Vec6 x = w.inv_u.segment<6>(6 * r) / denominator;
    for (int c : w.cols) inv.block<6, 6>(6 * r, 6 * c).noalias() -= x * w.vt_inv.segment<6>(6 * c).transpose();
  }
  for (int r : w.rows)
    for (int c : w.cols) w.pattern.link(r, c);
}

using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 12, 12>;

/// inv ← (A + P G Pᵀ)⁻¹ for a symmetric inv = A⁻¹, P the unit columns `dofs` (≤ 12 global indices) and G
/// symmetric: the Woodbury identity, the block form of Sherman–Morrison,
///   (A + P G Pᵀ)⁻¹ = A⁻¹ − X (I + G Q)⁻¹ G Xᵀ,   X = A⁻¹P (columns of inv),  Q = PᵀA⁻¹P,
/// (from A⁻¹ − A⁻¹P (G⁻¹ + Q)⁻¹ PᵀA⁻¹, with (G⁻¹ + Q)⁻¹ = (I + GQ)⁻¹G, which needs no G⁻¹). One rank-r
/// update of a joint instead of its 2 × 14 (hinge) rank-1 ones: the outer product over the reached blocks,
/// which is the cost, is formed once, with r ≤ 12 columns instead of 28 single ones.
void woodbury(MatX& inv, const SparseVector& dofs, const Small& G, Updates& w) {
  const int r = dofs.size;
  if (r == 0) return;
  reach(dofs, w.pattern, w.row_mark, w.rows);
  const int R = static_cast<int>(w.rows.size());
  w.X.resize(6 * R, r);
  for (int k = 0; k < R; ++k)
    for (int l = 0; l < r; ++l) w.X.block<6, 1>(6 * k, l) = inv.block<6, 1>(6 * w.rows[k], dofs.index[l]);
  Small Q(r, r);
  for (int l = 0; l < r; ++l)
    for (int m = 0; m < r; ++m) Q(l, m) = inv(dofs.index[l], dofs.index[m]);
  const Small Y = (Small::Identity(r, r) + G * Q).partialPivLu().solve(G);
  w.Z.noalias() = w.X * Y;
  for (int k = 0; k < R; ++k)
    for (int c = 0; c < R; ++c)
      inv.block<6, 6>(6 * w.rows[k], 6 * w.rows[c]).noalias() -=
          w.Z.middleRows(6 * k, 6) * w.X.middleRows(6 * c, 6).transpose();
  for (int a : w.rows)
    for (int b : w.rows) w.pattern.link(a, b);
}

/// One joint's terms: G = −½h² Σ (a bᵀ + b aᵀ) on the joint's 12 DOFs, reduced to the DOFs it touches,
/// as one Woodbury update. A joint whose G has no block between its two bodies (a ball joint, Eq. 4)
/// keeps its rank-1 Sherman–Morrison updates, each inside one body's block (the inverse stays
/// block-diagonal; a 6 × 6 Woodbury there costs more than its few rank-1 terms).
void woodbury_joint(MatX& inv, const std::vector<PlacedTerm>& terms, int first, int last, double scale, Updates& w) {
  const std::array<int, 2>& body = terms[first].body;
  Mat12 G = Mat12::Zero();
  for (int k = first; k < last; ++k) {
    const RankOneTerm& t = terms[k].term;
    G.noalias() += scale * (t.a * t.b.transpose() + t.b * t.a.transpose());
  }
  const bool coupled = body[0] >= 0 && body[1] >= 0 && !G.block<6, 6>(0, 6).isZero(0.0);
  if (!coupled) {
    for (int k = first; k < last; ++k) {
      const PlacedTerm& t = terms[k];
      sherman_morrison(inv, place(t.term.a, t.body, scale), place(t.term.b, t.body, 1.0), w);
      sherman_morrison(inv, place(t.term.b, t.body, scale), place(t.term.a, t.body, 1.0), w);
    }
    return;
  }
  SparseVector dofs;
  std::array<int, 12> local{};
  for (int d = 0; d < 12; ++d)
    if (!G.col(d).isZero(0.0)) {
      local[dofs.size] = d;
      dofs.index[dofs.size++] = 6 * body[d / 6] + d % 6;
    }
  Small g(dofs.size, dofs.size);
  for (int i = 0; i < dofs.size; ++i)
    for (int j = 0; j < dofs.size; ++j) g(i, j) = G(local[i], local[j]);
  woodbury(inv, dofs, g, w);
}

/// The order in which to apply the joints' terms (runs of consecutive terms on one body pair): an
/// update costs the product of the block rows and columns it reaches, and those are the bodies already
/// coupled to its two bodies by the updates before it. In the given order (down a chain) joint k reaches
/// the k bodies above it, Σk² = O(n³) blocks in all: no cheaper than the full-rank inverse. Joining the
/// smallest groups first (greedy, union–find on the bodies) makes a chain's updates a balanced merge:
/// T(n) = 2T(n/2) + O(n²) = O(n²) blocks, the size of the dense inverse itself, whatever the joint order
/// of the scene. The inverse is the same in any order (each update is exact); the round-off differs.
std::vector<std::pair<int, int>> merge_order(const std::vector<PlacedTerm>& terms, int bodies) {
  std::vector<std::pair<int, int>> runs;  // [first, last) of each run
  for (std::size_t t = 0; t < terms.size();) {
    std::size_t e = t + 1;
    while (e < terms.size() && terms[e].body == terms[t].body) ++e;
    runs.emplace_back(static_cast<int>(t), static_cast<int>(e));
    t = e;
  }
  std::vector<int> parent(bodies), size(bodies, 1);
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](int b) {
    while (parent[b] != b) b = parent[b] = parent[parent[b]];
    return b;
  };
  const auto merged = [&](int run) {  // the size of the group the run's update reaches
    const std::array<int, 2>& body = terms[runs[run].first].body;
    const int a = body[0] >= 0 ? find(body[0]) : -1, b = body[1] >= 0 ? find(body[1]) : -1;
    return (a >= 0 ? size[a] : 0) + (b >= 0 && b != a ? size[b] : 0);
  };
  using Entry = std::pair<int, int>;  // (reached size, run), smallest first, ties in the given order
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  for (int r = 0; r < static_cast<int>(runs.size()); ++r) queue.emplace(merged(r), r);
  std::vector<std::pair<int, int>> order;
  order.reserve(runs.size());
  while (!queue.empty()) {
    const auto [key, run] = queue.top();
    queue.pop();
    const int now = merged(run);
    if (now > key) {  // its groups grew since it was queued
      queue.emplace(now, run);
      continue;
    }
    const std::array<int, 2>& body = terms[runs[run].first].body;
    if (body[0] >= 0 && body[1] >= 0) {
      const int a = find(body[0]), b = find(body[1]);
      if (a != b) parent[a] = b, size[b] += size[a];
    }
    order.push_back(runs[run]);
  }
  return order;
}

}  // namespace

MatX augmented_inverse_full_rank(const std::vector<Mat6>& M, const std::vector<PlacedStiffness>& K, double h) {
  const int n = 6 * static_cast<int>(M.size());
  MatX A = MatX::Zero(n, n);
  for (std::size_t b = 0; b < M.size(); ++b) A.block<6, 6>(6 * b, 6 * b) = M[b];
  for (const PlacedStiffness& k : K) {
    const Mat12 sym = 0.5 * (k.K + k.K.transpose());
    for (int s = 0; s < 2; ++s)
      for (int t = 0; t < 2; ++t)
        if (k.body[s] >= 0 && k.body[t] >= 0)
          A.block<6, 6>(6 * k.body[s], 6 * k.body[t]) -= h * h * sym.block<6, 6>(6 * s, 6 * t);
  }
  return A.ldlt().solve(MatX::Identity(n, n));
}

void augmented_inverse_low_rank(const std::vector<Mat6>& Minv, const std::vector<PlacedTerm>& terms, double h,
                                MatX& out) {
  const int n = 6 * static_cast<int>(Minv.size());
  out.setZero(n, n);
  for (std::size_t b = 0; b < Minv.size(); ++b) out.block<6, 6>(6 * b, 6 * b) = Minv[b];
  Updates w(static_cast<int>(Minv.size()));
  const double scale = -0.5 * h * h;  // M̃ = M − h²·½(a bᵀ + b aᵀ), summed over the terms
  for (const auto& [first, last] : merge_order(terms, static_cast<int>(Minv.size())))
    woodbury_joint(out, terms, first, last, scale, w);
}

}  // namespace affix
