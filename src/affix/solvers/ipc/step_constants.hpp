#pragma once
// What stays fixed while one time step's incremental potential is minimised (incremental_potential.hpp).
#include <vector>

#include "affix/math/types.hpp"
#include "affix/solvers/contact/body_contact_model.hpp"
#include "affix/solvers/contact/ground_contact_model.hpp"
#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {

/// What stays constant while one step is solved.
struct StepConstants {
  double beta_h2 = 0.0;              ///< βh²
  double kappa = 0.0;                ///< barrier stiffness κ
  double friction_eps = 0.0;         ///< ε_v·h (m)
  std::vector<Vec12> q_tilde;        ///< per body
  std::vector<Vec12> loads;          ///< per body generalized force f
  std::vector<std::vector<GroundFrictionContact>> friction;  ///< per body
  std::vector<PairFriction> pair_friction;                  ///< body–body contacts
  BlockHessian damping;              ///< K of the Rayleigh damping R (header); no blocks: none
  double damping_gamma = 0.0;        ///< γ
  std::vector<Vec12> damping_offset; ///< q_off per body
};

}  // namespace affix
