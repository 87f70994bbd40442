#pragma once
// The joint potentials inside the incremental potential (Chen 2022 §4.2–4.3): penalties ½k c² and
// limit barriers κ b(c), each a stencil of points on at most two bodies. Point positions are linear
// in q (x = J(x̄)·q), so derivatives reach the affine DOFs by the chain rule of Chen 2022 Eq. 5, as
// contact stencils do; stencil Hessians are projected to PSD in point space before the map.
// Linear equality rows are not potentials: the Newton solver eliminates them (basis_extension.hpp).
#include <vector>

#include "affix/body/affine_body.hpp"
#include "affix/joints/joint_model.hpp"
#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {

class JointEnergies {
 public:
  /// `chat` is the limits' barrier clamping distance ĉ (m).
  JointEnergies(const std::vector<AffineBody>& bodies, const JointModel& model, double chat);

  bool empty() const { return model_.penalties.empty() && model_.limits.empty(); }

  /// Adds βh²·(Σ penalties + κ Σ limit barriers) to the energy of each stencil's first body whose
  /// `include` flag is set.
  void add_energies(const VecX& q, double kappa, double beta_h2, const std::vector<char>& include,
                    std::vector<double>& per_body) const;
  /// Adds βh²-scaled gradients and PSD Hessian blocks.
  void add_derivatives(const VecX& q, double kappa, double beta_h2, VecX& gradient, BlockHessian& H) const;
  /// βh² ∇Σb of the limits (κ = 1), for the adaptive barrier stiffness.
  void add_barrier_gradient(const VecX& q, double beta_h2, VecX& gradient) const;
  /// k_d-weighted PSD Hessians of the active limit barriers at q (Rayleigh damping, Chen 2022 Eq. 20).
  void add_damping_hessian(const VecX& q, double kappa, BlockHessian& H) const;

  /// Per body, the largest α ∈ (0, 1] such that every limit function stays above a tenth of its
  /// value along q + α·dq (exact: point differences are linear in α).
  std::vector<double> max_steps(const VecX& q, const VecX& dq) const;

  /// Σ penalties + κ Σ limit barriers (J), for statistics.
  double potential_energy(const VecX& q, double kappa) const;
  /// The smallest limit function value (inf without limits): limits count as contacts for κ.
  double min_limit_distance(const VecX& q) const;

 private:
  const std::vector<AffineBody>& bodies_;
  DofLayout layout_;  // the bodies' stacked layout (affine), which the model's rows address
  const JointModel& model_;
  double chat_;
};

}  // namespace affix
