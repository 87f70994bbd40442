#pragma once
// The twist stiffness Γ's clamp (corotated_body.hpp: "compressive twists τ < 0 are clamped to 0"): the
// nearest positive semi-definite matrix to a symmetric 3×3 Γ, its negative eigenvalues set to 0,
//   Γ⁺ = Σ_k max(λ_k, 0) v_k v_kᵀ.
// It runs for most bodies of a swinging chain (86 % at 10⁵ links); through Eigen's closed-form
// eigendecomposition (a cubic's trigonometric roots, then three eigenvectors) it was 10 % of a 10⁵-link
// chain's step. Here only what the clamp needs, from Γ's characteristic polynomial
//   p(x) = det(xI − Γ) = x³ − c₂x² + c₁x − c₀,  c₂ = tr Γ, c₁ = Σ principal 2×2 minors, c₀ = det Γ:
//  - λ₁ (the smallest eigenvalue) by Newton on p from Gershgorin's lower bound g = minᵢ(Γᵢᵢ − Σ_{j≠i}|Γᵢⱼ|):
//    left of λ₁ every factor (x − λ_k) is negative, so p' > 0 and p'' = 2Σ(x − λ_k) < 0; Newton on a
//    concave increasing function from the left climbs monotonically to the root without passing it.
//  - λ₂, λ₃ from the deflated quadratic x² − b x + c, b = λ₂ + λ₃ = c₂ − λ₁, c = λ₂λ₃ = c₁ − λ₁ b.
//  - One negative eigenvalue: Γ⁺ = Γ − λ₁ v₁v₁ᵀ; two: Γ⁺ = λ₃ v₃v₃ᵀ; three: 0. v is the largest cross
//    product of two rows of Γ − λI, which span v's orthogonal complement when λ is simple. Either way the
//    term formed has a gap at least its own eigenvalue (λ₂ − λ₁ ≥ |λ₁|, λ₃ − λ₂ ≥ λ₃), so v's error ε/gap
//    costs at most ε‖Γ‖ in Γ⁺.
// A multiple or clustered root makes Newton converge slowly (linearly at a double root) and the
// polynomial's roots inaccurate (to ε^(1/m) at multiplicity m): when Newton has not converged in
// kNewtonIterations, or the eigenvalue it needs is not well separated, the clamp falls back to Eigen's
// SelfAdjointEigenSolver. The count of negative eigenvalues is read from the signs of c₂, c₁, c₀
// (Descartes), so an eigenvalue within about 10⁻¹¹‖Γ‖ of 0 may be left as it is: the solver's H₀ outweighs
// it by far, and the clamp's caller lets such round-off through anyway (twist_stiffness).
#include "affix/math/types.hpp"

namespace affix {

/// Γ⁺ = Γ with its negative eigenvalues set to 0 (header), Γ symmetric (its lower triangle is read).
Mat3 clamp_negative_eigenvalues(const Mat3& gamma);

/// The smallest eigenvalue of a symmetric 3×3 matrix by Newton on its characteristic polynomial (header),
/// or nothing-converged's NaN when the root is multiple or clustered (the caller falls back).
double smallest_eigenvalue_newton(const Mat3& S);

}  // namespace affix
