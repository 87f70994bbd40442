#pragma once
// Damping from the stability of an undamped oscillator (Andrews 2017 §4). Symplectic Euler keeps a
// spring k on a mass m stable while h²k/m ≤ 4 (Eq. 9, for the small square root); with α to move the
// boundary the threshold is h²k/m ≤ 4α (Eq. 10), and past it the damping that puts the oscillator back
// on the boundary is b = (h²k − 4αm)/(2h) (Eq. 11). The spring is the geometric stiffness, made
// diagonal by column norms, K_d,ii = ‖K̃_i‖ (Eq. 12): a stiffer spring than K̃ in every direction, so
// its damping is enough. Two ways to apply it:
//   inertial          B_ii from m = M_ii, k = K_d,ii per DOF; M̃ = M + hB (Eq. 13); translational
//                     entries dropped unless asked for (§5.4);
//   constraint space  per row, m′ = (J M⁻¹ Jᵀ)⁻¹ and k′ = (J K_d⁻¹ Jᵀ)⁻¹ (§4.3) give b′, and the row
//                     becomes Jv + Σλ = −Γφ/h with (Eq. 14–17, written out: λ = −C⁻¹φ₊ − b′φ̇₊ with
//                     φ₊ = φ + hJv gives Jv (h/C + b′) + λ = −φ/C, so)
//                       Σ = C/(h + C b′),  Γ = h/(h + C b′);
//                     in the impulses μ = hλ the diagonal of the reduced system is Σ/h (C/h² when
//                     b′ = 0, Eq. 3). The text's Eq. 16–17 lost the grouping (1 + h⁻¹C b′); this is it.
//                     K_d⁻¹ is taken over the DOFs with K_d > 0 (its pseudo-inverse): a DOF on which no
//                     joint force turns is no spring in the series.
#include <array>
#include <vector>

#include "affix/solvers/compliant/augmented_mass.hpp"

namespace affix {

/// b of Eq. 11 when h²k/m > 4α (Eq. 10), else 0.
double stabilizing_damping(double m, double k, double h, double alpha);

/// K_d (Eq. 12) per body on the unknowns: the column norms of the summed K̃ (6 per body).
std::vector<Vec6> diagonal_stiffness(const std::vector<PlacedStiffness>& K, int bodies);

/// k′ = (J K_d⁺ Jᵀ)⁻¹ of one row with blocks J_s on bodies body[s] (−1: none); 0 when the row sees no
/// stiffness.
double row_stiffness(const std::array<const double*, 2>& row, const std::array<int, 2>& body, int stride,
                     const std::vector<Vec6>& Kd);

}  // namespace affix
