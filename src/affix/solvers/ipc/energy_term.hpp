#pragma once
// The terms of the incremental potential that couple bodies — body–body contact, joints, Rayleigh
// damping — behind one interface, so that IncrementalPotential is a list of terms (each a sum over
// stencils, mapped to body DOFs by solvers/assembly/stencil_assembly.hpp) rather than hand-written
// calls. The per-body terms (inertia, orthogonality, loads, ground stencils) are evaluated body by
// body in the potential itself, where they share one parallel loop and one summation order.
#include <algorithm>
#include <vector>

#include "affix/math/types.hpp"
#include "affix/solvers/contact/body_contact_model.hpp"
#include "affix/solvers/ipc/joint_energies.hpp"
#include "affix/solvers/ipc/step_constants.hpp"
#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {

class EnergyTerm {
 public:
  virtual ~EnergyTerm() = default;
  /// Adds βh²·(the term) to the energy of the body each stencil is booked on (its first body whose
  /// `include` flag is set).
  virtual void add_energies(const VecX& q, const StepConstants& c, const std::vector<char>& include,
                            std::vector<double>& per_body) const = 0;
  /// Adds βh²·∇ and βh²·PSD(∇²) of every stencil. A term may leave out stencils on no body flagged
  /// in `active`: the caller holds those bodies' rows (their gradient and Hessian rows are replaced).
  virtual void add_derivatives(const VecX& q, const StepConstants& c, const std::vector<char>& active,
                               VecX& gradient, BlockHessian& H) const = 0;
  /// Adds βh²·∇ of its barriers with κ = 1 (the adaptive barrier stiffness balances these); none by default.
  virtual void add_barrier_gradient(const VecX& /*q*/, double /*beta_h2*/, VecX& /*gradient*/) const {}
  /// Adds k_d·PSD(∇²(κ b)) of its damped barriers (Rayleigh damping's K); none by default.
  virtual void add_damping_hessian(const VecX& /*q*/, double /*kappa*/, BlockHessian& /*K*/) const {}
  /// Lowers alpha[i] to the largest step along q + α·dq its barriers allow for body i; none by default.
  /// Only the bodies flagged in `active` need their bound (the others may keep theirs).
  virtual void limit_steps(const VecX& /*q*/, const VecX& /*dq*/, const std::vector<char>& /*active*/,
                           std::vector<double>& /*alpha*/) const {}
};

/// alpha[i] = min(alpha[i], bound[i]): a term's CCD step bounds applied to the running ones.
inline void lower_steps(std::vector<double>& alpha, const std::vector<double>& bound) {
  for (std::size_t i = 0; i < alpha.size(); ++i) alpha[i] = std::min(alpha[i], bound[i]);
}

/// Body–body contact: barrier and lagged friction of every candidate stencil (BodyContactModel).
class BodyContactTerm final : public EnergyTerm {
 public:
  explicit BodyContactTerm(const BodyContactModel& model) : model_(model) {}
  void add_energies(const VecX& q, const StepConstants& c, const std::vector<char>& include,
                    std::vector<double>& per_body) const override {
    model_.add_energies(q, c.kappa, c.beta_h2, c.pair_friction, c.friction_eps, include, per_body);
  }
  void add_derivatives(const VecX& q, const StepConstants& c, const std::vector<char>& active, VecX& gradient,
                       BlockHessian& H) const override {
    model_.add_derivatives(q, c.kappa, c.beta_h2, c.pair_friction, c.friction_eps, gradient, H, &active);
  }
  void add_barrier_gradient(const VecX& q, double beta_h2, VecX& gradient) const override {
    model_.add_barrier_gradient(q, beta_h2, gradient);
  }
  void add_damping_hessian(const VecX& q, double kappa, BlockHessian& K) const override {
    model_.add_damping_hessian(q, kappa, K);
  }
  void limit_steps(const VecX& q, const VecX& dq, const std::vector<char>& active,
                   std::vector<double>& alpha) const override {
    lower_steps(alpha, model_.max_steps(q, dq, &active));
  }

 private:
  const BodyContactModel& model_;
};

/// Joint penalties and limit barriers (JointEnergies, Chen 2022 §4.2–4.3).
class JointTerm final : public EnergyTerm {
 public:
  explicit JointTerm(const JointEnergies& joints) : joints_(joints) {}
  void add_energies(const VecX& q, const StepConstants& c, const std::vector<char>& include,
                    std::vector<double>& per_body) const override {
    joints_.add_energies(q, c.kappa, c.beta_h2, include, per_body);
  }
  void add_derivatives(const VecX& q, const StepConstants& c, const std::vector<char>& /*active*/, VecX& gradient,
                       BlockHessian& H) const override {
    joints_.add_derivatives(q, c.kappa, c.beta_h2, gradient, H);
  }
  void add_barrier_gradient(const VecX& q, double beta_h2, VecX& gradient) const override {
    joints_.add_barrier_gradient(q, beta_h2, gradient);
  }
  void add_damping_hessian(const VecX& q, double kappa, BlockHessian& K) const override {
    joints_.add_damping_hessian(q, kappa, K);
  }
  void limit_steps(const VecX& q, const VecX& dq, const std::vector<char>& /*active*/,
                   std::vector<double>& alpha) const override {
    lower_steps(alpha, joints_.max_steps(q, dq));
  }

 private:
  const JointEnergies& joints_;
};

/// Semi-implicit Rayleigh damping R (Chen 2022 §5.1), its K and offsets taken from the step constants.
class RayleighDampingTerm final : public EnergyTerm {
 public:
  explicit RayleighDampingTerm(const DofLayout& layout) : layout_(layout) {}
  void add_energies(const VecX& q, const StepConstants& c, const std::vector<char>& include,
                    std::vector<double>& per_body) const override;
  void add_derivatives(const VecX& q, const StepConstants& c, const std::vector<char>& active, VecX& gradient,
                       BlockHessian& H) const override;

 private:
  const DofLayout& layout_;
};

}  // namespace affix
