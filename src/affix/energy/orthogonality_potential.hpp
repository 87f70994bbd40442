#pragma once
// The stiff orthogonality potential that keeps an affine body rigid (Lan 2022 Eq. 6–8):
//   P(q) = κ V ‖A Aᵀ − I‖²_F = κ V Σᵢⱼ (aᵢ·aⱼ − δᵢⱼ)²,   aᵢ the rows of A (q = (p, a₀, a₁, a₂)).
// With G = AAᵀ − I (symmetric):
//   ∂P/∂aₖ        = 4κV Σⱼ Gₖⱼ aⱼ                         (i.e. ∂P/∂A = 4κV G A)
//   ∂²P/∂aₖ∂aₗ    = 4κV [ Gₖₗ I + aₗ aₖᵀ + δₖₗ Σⱼ aⱼ aⱼᵀ ]
// The translation p does not appear. The Hessian is indefinite away from rotations; callers project it.
// κ is the body's `stiffness` (Pa); Chen 2022's Y/8 ‖FᵀF − I‖² is the same with κ = Y/8.
#include "affix/math/types.hpp"

namespace affix {

double orthogonality_potential(const Vec12& q, double stiffness, double volume);
Vec12 orthogonality_potential_gradient(const Vec12& q, double stiffness, double volume);
Mat12 orthogonality_potential_hessian(const Vec12& q, double stiffness, double volume);

}  // namespace affix
