#pragma once
// The orthogonality Hessian projected to positive semi-definite in closed form, for the Newton system
// (Lan 2022 Eq. 6–8; orthogonality_potential.hpp). P = κV‖AAᵀ − I‖²_F depends on A only through its
// singular values, P = κV Σₖ (σₖ² − 1)², so its 9×9 Hessian in A has the analytic eigensystem of an
// isotropic energy (Smith, De Goes & Kim 2019, "Analytic Eigensystems for Isotropic Distortion
// Energies", §4): with A = U Σ Vᵀ and uₖ, vₖ the columns of U and V, the nine eigenmatrices and their
// eigenvalues (f(σ) = Σ(σₖ² − 1)², fₖ = ∂f/∂σₖ = 4σₖ(σₖ² − 1)) are
//   scaling  uₖvₖᵀ                         4κV (3σₖ² − 1)                   (= ∂²f/∂σₖ², diagonal)
//   twist    (uᵢvⱼᵀ + uⱼvᵢᵀ)/√2             4κV (σᵢ² + σᵢσⱼ + σⱼ² − 1)       (= (fᵢ − fⱼ)/(σᵢ − σⱼ))
//   flip     (uᵢvⱼᵀ − uⱼvᵢᵀ)/√2             4κV (σᵢ² − σᵢσⱼ + σⱼ² − 1)       (= (fᵢ + fⱼ)/(σᵢ + σⱼ))
// (i < j; derivation: perturb Σ by t·D, the second derivative of ‖(Σ + tD)(Σ + tD)ᵀ − I‖² is
// 2‖ΣDᵀ + DΣ‖² + 4⟨Σ² − I, DDᵀ⟩, evaluated for each D above). The flips are the infinitesimal rotations:
// zero at a rotation, negative once the body is compressed. So the projection is the Hessian minus its
// negative modes, H − Σ_{λ<0} λ m mᵀ (m the eigenmatrix flattened row by row, as A's rows sit in q): a
// 3×3 SVD instead of a 9×9 eigendecomposition, and the Hessian itself, bit for bit, when no mode is
// negative. The result equals project_to_psd<9> of the Hessian up to round-off.
#include <Eigen/Core>

#include "affix/math/types.hpp"

namespace affix {

using Mat9 = Eigen::Matrix<double, 9, 9>;

/// PSD(∇²_A P) for P = κV‖AAᵀ − I‖² (κ = stiffness, V = volume), on the 9 DOFs of A in q's order.
/// Non-finite input is returned unprojected (the caller's finiteness check reports it).
Mat9 orthogonality_projected_hessian(const Vec12& q, double stiffness, double volume);

}  // namespace affix
