#include "affix/solvers/mabd/abd_aba.hpp"

#include "affix/solvers/mabd/spd_factor.hpp"

namespace affix {
namespace {

// A body's stacked rows: its parent joint and its unary joints, at most 12 (joint_graph.hpp).
using StackedRows = Eigen::Matrix<double, Eigen::Dynamic, 12, Eigen::RowMajor, 12, 12>;
using StackedSquare = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 12, 12>;
using StackedVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 12, 1>;

/// The rows that eliminate body b (header, Eq. 55–56): G_c on b, G_p on its parent, C.
struct LocalRows {
  StackedRows Gc, Gp;
  StackedVector C;
};

/// b's parent joint first, then its unary joints in ascending order: the order λ is read back in.
void gather(const KktSystem& system, const JointGraph& graph, int b, int m, LocalRows& local) {
  local.Gc.resize(m, 12), local.Gp.setZero(m, 12), local.C.resize(m);
  int row = 0;
  const auto add = [&](int j, bool with_parent) {
    const KktJoint& joint = system.joints[j];
    const int mj = joint.rows();
    const bool first = joint.body1 == b;
    local.Gc.middleRows(row, mj) = first ? joint.G1 : joint.G2;
    if (with_parent) local.Gp.middleRows(row, mj) = first ? joint.G2 : joint.G1;
    local.C.segment(row, mj) = joint.residual;
    row += mj;
  };
  if (graph.parent_joint(b) >= 0) add(graph.parent_joint(b), true);
  for (int j : graph.unary_joints(b)) add(j, false);
}

/// λ of the stacked rows back to their joints' places in the KKT's stacking.
void scatter(const KktSystem& system, const JointGraph& graph, int b, const std::vector<int>& offsets,
             const StackedVector& lambda, VecX& out) {
  int row = 0;
  const auto put = [&](int j) {
    const int mj = system.joints[j].rows();
    out.segment(offsets[j], mj) = lambda.segment(row, mj);
    row += mj;
  };
  if (graph.parent_joint(b) >= 0) put(graph.parent_joint(b));
  for (int j : graph.unary_joints(b)) put(j);
}

}  // namespace

bool AbdAba::solve(const KktSystem& system, const JointGraph& graph, const JointComponent& component,
                   const std::vector<int>& offsets, double shift, KktSolution& solution) {
  const std::size_t n = system.bodies.size();
  if (H_.size() != n) H_.resize(n), g_.resize(n), rows_.resize(n), at_.resize(n);
  std::size_t pool_size = 0;
  for (int b : component.bodies) {
    H_[b] = system.bodies[b].hessian();
    g_[b] = system.bodies[b].gradient;
    int m = graph.parent_joint(b) >= 0 ? system.joints[graph.parent_joint(b)].rows() : 0;
    for (int j : graph.unary_joints(b)) m += system.joints[j].rows();
    rows_[b] = m;
    at_[b] = pool_size;
    pool_size += 25 * static_cast<std::size_t>(m);  // Y 12m, K 12m, u m
  }
  if (pool_.size() < pool_size) pool_.resize(pool_size);

  LocalRows local;
  for (int b : component.leaves_first) {  // upward pass (header)
    const int m = rows_[b], p = graph.parent(b);
    Eigen::LLT<Mat12> HA;
    if (!factor_spd(HA, H_[b])) return false;
    g_[b] = -HA.solve(g_[b]);  // a = −(H^A)⁻¹ g^A: g^A is not needed again
    if (m == 0) continue;      // a root without unary joints: Δq = a
    gather(system, graph, b, m, local);
    double* at = pool_.data() + at_[b];
    Eigen::Map<Eigen::Matrix<double, 12, Eigen::Dynamic>> Y(at, 12, m);
    Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, 12>> K(at + 12 * m, m, 12);
    Eigen::Map<VecX> u(at + 24 * m, m);
    Y = HA.solve(local.Gc.transpose());
    StackedSquare S = local.Gc.lazyProduct(Y);  // small products: no GEMM blocking
    S.diagonal().array() += shift;
    Eigen::LLT<StackedSquare> Sf;
    if (!factor_spd(Sf, S)) return false;
    u = Sf.solve(local.C + local.Gc * g_[b]);  // S⁻¹ w
    if (p < 0) continue;
    K = Sf.solve(local.Gp);
    H_[p] += local.Gp.transpose().lazyProduct(K);
    g_[p].noalias() += local.Gp.transpose() * u;
  }

  for (auto b = component.leaves_first.rbegin(); b != component.leaves_first.rend(); ++b) {  // downward
    const int m = rows_[*b], p = graph.parent(*b);
    solution.dq[*b] = g_[*b];
    if (m == 0) continue;
    const double* at = pool_.data() + at_[*b];
    Eigen::Map<const Eigen::Matrix<double, 12, Eigen::Dynamic>> Y(at, 12, m);
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 12>> K(at + 12 * m, m, 12);
    StackedVector lambda = Eigen::Map<const VecX>(at + 24 * m, m);
    if (p >= 0) lambda.noalias() += K * solution.dq[p];
    solution.dq[*b].noalias() -= Y * lambda;
    scatter(system, graph, *b, offsets, lambda, solution.lambda);
  }
  return true;
}

}  // namespace affix
