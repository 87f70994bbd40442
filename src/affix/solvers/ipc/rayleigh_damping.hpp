#pragma once
// Semi-implicit Rayleigh damping (Chen 2022 §5.1; Gast 2015) as a quadratic potential on the affine
// DOFs: R(q) = (γ/2) eᵀ K e, e = q − q_off, with K the k_d-weighted PSD barrier Hessians frozen at
// the start of the step and q̇ = γ(q − q_off) the integrator's velocity (incremental_potential.hpp
// derives it from Eq. 20–22). K is a BlockHessian: a diagonal block per body and coupling blocks per
// body pair.
#include <vector>

#include "affix/model/dof_layout.hpp"
#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {

struct RayleighDamping {
  const BlockHessian& K;
  double gamma;
  const std::vector<Vec12>& offset;
  const DofLayout& layout;  ///< of q and the gradient

  bool empty() const { return K.block_count() == 0; }
  /// Adds scale·R to the energy of each block's body (a coupling block: its first included body).
  void add_energies(const VecX& q, double scale, const std::vector<char>& include,
                    std::vector<double>& per_body) const;
  /// Adds scale·∇R = scale·γ K e and scale·∇²R = scale·γ K (PSD: K is a sum of PSD blocks).
  void add_derivatives(const VecX& q, double scale, VecX& gradient, BlockHessian& H) const;
};

}  // namespace affix
