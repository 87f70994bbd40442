#include "affix/solvers/ipc/orthogonality_correction.hpp"

#include <tbb/parallel_for.h>

#include "affix/energy/orthogonality_potential.hpp"

namespace affix {

bool orthogonality_remainder(const std::vector<AffineBody>& bodies, const DofLayout& layout, const VecX& q,
                             const VecX& dq, double beta_h2, const std::vector<char>& active, VecX& remainder,
                             std::vector<double>& model_error) {
  const int n = static_cast<int>(bodies.size());
  remainder.setZero(layout.total());
  model_error.assign(n, 0.0);
  std::vector<char> moved(n, 0);
  tbb::parallel_for(0, n, [&](int i) {
    const AffineBody& b = bodies[i];
    if (b.is_dirichlet() || !active[i]) return;
    const Vec12 qi = layout.segment<kAffineDofs>(q, i), dqi = layout.segment<kAffineDofs>(dq, i);
    if (dqi.tail<9>().isZero(0.0)) return;
    const Vec12 g = orthogonality_potential_gradient(qi, b.stiffness, b.volume);
    const Vec12 H_dq = orthogonality_potential_hessian(qi, b.stiffness, b.volume) * dqi;
    const Vec12 r = orthogonality_potential_gradient(qi + dqi, b.stiffness, b.volume) - g - H_dq;
    model_error[i] = beta_h2 * (orthogonality_potential(qi + dqi, b.stiffness, b.volume) -
                                orthogonality_potential(qi, b.stiffness, b.volume) - g.dot(dqi) - 0.5 * dqi.dot(H_dq));
    // Keep the part that stretches A: the remainder's torque-like part (skew(R Aᵀ), along the rotations
    // W·A that H barely resists) would be amplified by the rotational inertia alone into a spurious turn.
    const Mat3 A = state_matrix(qi), R = state_matrix(r);
    const Mat3 RAt = R * A.transpose();
    const Mat3 stretch = 0.5 * (RAt + RAt.transpose()) * A.transpose().inverse();
    layout.segment<kAffineDofs>(remainder, i) = beta_h2 * affine_state(Vec3::Zero(), stretch);
    moved[i] = 1;
  });
  for (char m : moved)
    if (m) return true;
  return false;
}

}  // namespace affix
