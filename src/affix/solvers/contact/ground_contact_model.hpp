#pragma once
// Body–ground contact inside the incremental potential (Lan 2022 §4): every vertex of a dynamic body
// and the ground plane z = h form a point–plane stencil, whose barrier, lagged friction and CCD bound
// come from energy/ground_contact.hpp (the stencil's derivatives are already in the body's 12 DOFs:
// the distance is linear in q). A stencil touches one body, so the model works body by body, and each
// call adds to the caller's running sums in vertex order — the body's own terms (inertia,
// orthogonality, loads) and its ground stencils then sum in one fixed order on any thread count.
#include <optional>
#include <vector>

#include "affix/body/affine_body.hpp"
#include "affix/energy/friction.hpp"
#include "affix/model/records.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// A vertex in contact with the ground at the last friction lag update.
struct GroundFrictionContact {
  int vertex = 0;
  double mu_lambda = 0.0;  ///< μ·λ, λ the normal force (N) at the lag point
  Vec3 x_start;            ///< world position at the start of the step
  /// The Newton Hessian's choice between iterates (friction.hpp); not part of the energy. Mutable:
  /// written where the derivatives are evaluated, each contact by one task, so deterministic.
  mutable SlipHistory history;
};

class GroundContactModel {
 public:
  /// `bodies` must outlive the model.
  GroundContactModel(const std::vector<AffineBody>& bodies, const std::optional<Ground>& ground, double dhat);

  /// Whether body i has ground stencils at all: a ground exists and the body moves.
  bool acts_on(int i) const { return ground_.has_value() && !bodies_[i].is_dirichlet(); }

  /// P += κ Σ b(d) over body i's vertices within d̂, then += Σ D of its lagged friction contacts.
  void add_energy(int i, const Vec12& qi, double kappa, const std::vector<GroundFrictionContact>& friction,
                  double friction_eps, double& P) const;
  /// g, h += the same stencils' gradients and Hessians (PSD by construction, ground_contact.hpp).
  void add_derivatives(int i, const Vec12& qi, double kappa, const std::vector<GroundFrictionContact>& friction,
                       double friction_eps, Vec12& g, Mat12& h) const;
  /// ∇ Σ b over every vertex of body i (κ = 1; zero beyond d̂), for the adaptive barrier stiffness.
  Vec12 barrier_gradient(int i, const Vec12& qi) const;
  /// total += κ b(d) for each of body i's vertices (the physical barrier energy, J).
  void add_barrier_energy(int i, const Vec12& qi, double kappa, double& total) const;
  /// k_d Σ ∇²(κ b) over body i's vertices within d̂, k_d the larger of body and ground `damping`
  /// (the Rayleigh damping's K); zero when k_d is.
  Mat12 damping_hessian(int i, const Vec12& qi, double kappa) const;

  /// Friction contacts of body i at the lag point: λ = κ·(−b'(d)) for every vertex within d̂, μ the
  /// geometric mean of body and ground friction (DESIGN §3).
  std::vector<GroundFrictionContact> lag_friction(int i, const Vec12& qi_lag, const Vec12& qi_start,
                                                  double kappa) const;
  /// The largest α ∈ (0, 1] such that no vertex of body i comes closer to the ground than a tenth of
  /// its distance along qi → qi_end (point–plane CCD: linear in α).
  double max_step(int i, const Vec12& qi, const Vec12& qi_end) const;

  /// Smallest vertex height of body i and how many vertices are within d̂.
  struct Proximity {
    double min_distance;
    int active = 0;
  };
  Proximity proximity(int i, const Vec12& qi) const;
  /// body i's stencils within d̂ as records: the point midway between vertex and ground, normal +z, the
  /// gap, the barrier's normal force κ·(−b'(d)) in N.
  void add_contact_records(int i, const Vec12& qi, double kappa, std::vector<ContactRecord>& out) const;

 private:
  const std::vector<AffineBody>& bodies_;
  std::optional<Ground> ground_;
  double dhat_;
};

}  // namespace affix
