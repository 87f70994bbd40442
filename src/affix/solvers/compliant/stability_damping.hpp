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
// Anchored rows (not in the paper; settings.compliant.anchored_damping). A row of a joint to the world,
// a fixed or a kinematic body measures its moving body's motion relative to the world, and that is the
// whole mechanism's motion: on the Fig. 8 cable the top joint's bending rate is the pendulum's swing
// rate Ω. Its b′ (m′ = the top link's inertia, k′ = its K_d from the cable's tension, h²k′/m′ ≈ 200 at
// h = 0.01) is as large as an inner row's, but an inner row's rate is the relative turn of two links,
// which the swing leaves at rest, while the top row's damping b′Ω² is viscosity on the swing itself:
// measured, it dissipated 187 of the 191 J that the stability damping took over 40 s (peak kinetic
// energy −11.2 %). So, as §5.4 drops translational damping for the viscosity it causes, a joint with a
// prescribed side gets no b′ when its moving body also has a soft row (compliance > kSoftCompliance:
// one that damping can act on, Cb′ ~ h) to another moving body: the body's transverse vibration, the
// mode the damping is for, turns it against that neighbour and is damped there. A body held only by
// anchored joints keeps their b′ (nothing else would damp it). Measured: −0.11 % over 40 s.
//
// Which bodies (issue 15, hostile pass 3, D5; settings.compliant.stabilization "auto"). Inertial damping
// (Eq. 13) damps each body's absolute velocity: B ≈ hK_d/2 on every link of a cable acts on the swing
// itself, which turns every link at the pendulum's rate, and a 100-link cable of 0.02 kg links under a
// 50 kg load lost 99.9 % of its peak kinetic energy in 20 s at h = 1/60 and swung with a period of
// 5.18 s at h = 0.05 (closed form 4.516 s).
// The paper sees the same ("For cable simulations, we observe artifacts when using the inertial damping
// formulation. Specifically, there is severe dissipation", §5.3) and runs its cables (Fig. 8–9) in
// constraint space, everything else inertially. "auto" does that per body: a body that a soft row holds
// (a cable's bending or torsion, compliance above kSoftCompliance) gets no B, and the joints with a soft
// row get b′ (anchored ones as anchored_damping says), whose rates are relative turns that the swing
// leaves at rest; every other body (rigid chains, booms, loads on ball joints) keeps B, which
// constraint-space damping cannot replace there (rigid rows take no b′, Σ = C/(h + Cb′) with C ≈ 0).
//
// Rotation-consistent B (issue 15, hostile pass 4, D1). Eq. 12–13 diagonalise K̃ and give each DOF its
// b, "per DOF" — in world axes that B is not a tensor of the body: it changes when the scene is turned,
// and it does not share the inertia's axes. A 1 kg bar (1 × 0.1 × 0.1 m, I = diag(1/600, 0.084, 0.084))
// whirling at 50 rad/s along a swing cone on a ball joint at its end: the joint's K̃ = [λ]×[r]× has no
// column along the bar's axis x₁ (r ∥ x₁: a spin about x₁ moves no anchor), but world column norms
// gave every world axis a b of ~hλr/2, so M̃ = I + hB coupled x₁ to the swing, M̃⁻¹ turned the limit
// row's impulse (a torque ⟂ x₁) into spin about x₁ with x₁'s tiny inertia, and the spin grew to
// 316 rad/s: kinetic energy 15.9 → 83.9 J in 2 s at h = 1/60, exit 0. B is now Eq. 11 applied to the
// modes of the body's own oscillator, m = I (or mass·1), k = S = (K̃_bᵀK̃_b)^½ (stabilizing_damping's
// matrix form): the same b where I and S share world-aligned axes (a body at rest in its start pose),
// no b along a direction no joint force turns (the bar's spin), and B → R B Rᵀ when the scene turns
// (the motion of a turned scene is the turned motion, to round-off). Putting B diagonal in the inertia's
// principal axes (branch compliant-principal-damping) also stops the bar, but its axes are arbitrary
// where the inertia is degenerate (a cube, a sphere, the bar's two transverse axes), so B there
// follows round-off rather than the scene.
//
// Pinned bodies (issue 15, hostile pass 4, D3). Eq. 10 reads each DOF as an oscillator of the body's own
// mass, but a body that a rigid joint pins to the world cannot turn about its centre: the joint makes the
// centre follow, and the turn carries the inertia about the anchor. A 1 kg sphere (r = 5 cm) 1 m below a
// ball joint: K̃ = [λ]×[r]× gives k = mgl = 9.8 N·m/rad against I = 10⁻³ kg·m², h²k/I = 24.5 at h = 0.05,
// so B ≈ hk/2 damped the swing itself (30° → 12.1° in 10 s, 4.3° at 0.1), while the swing's own
// oscillator, k against I + ml² = 1.001, has h²ω² = 0.025, far inside Eq. 10. So a body whose every
// joint pins it to a prescribed side turns with m = I + Σ m PᵀP (pinned_inertia): its constrained motion
// is exactly a turn about the pins. A body with a joint to a moving body keeps I: in a chain's fastest
// mode (neighbours turning against each other about their centres) the anchors move and the links do turn
// about their centres, with I alone, which is what Eq. 12's stiffness is for; a per-body estimate of how
// much a moving partner holds its anchor (its mass at the anchor, reduced with the body's) counts the
// partner's own share of that mode again, ~2× I on a chain of equal links, and would leave the mode
// undamped in 4α < h²k/I ≲ 9α. Left: both bobs of a double pendulum keep their B (README).
#include <array>
#include <vector>

#include "affix/solvers/compliant/augmented_mass.hpp"
#include "affix/solvers/compliant/reduced_system.hpp"

namespace affix {

/// b of Eq. 11 when h²k/m > 4α (Eq. 10), else 0.
double stabilizing_damping(double m, double k, double h, double alpha);

/// K_d (Eq. 12) per body on the unknowns: the column norms of the summed K̃ (6 per body).
std::vector<Vec6> diagonal_stiffness(const std::vector<PlacedStiffness>& K, int bodies);

/// The stiffness Eq. 12 reads column by column, as a matrix per body (header, "Rotation-consistent B"):
/// with K̃_b the columns of body b's unknowns in every joint's K̃ (the diagonal blocks summed, as
/// diagonal_stiffness does), G = K̃_bᵀK̃_b, and S = G^½ on each 3 × 3 block (translation, rotation).
/// K_d,ii = √G_ii is Eq. 12's column norm; S has the same norms along its own eigenvectors, and turns
/// with the scene (S → R S Rᵀ), which a diagonal in world axes does not.
struct BodyStiffness {
  Mat3 linear = Mat3::Zero(), angular = Mat3::Zero();
};
std::vector<BodyStiffness> body_stiffness(const std::vector<PlacedStiffness>& K, int bodies);

/// B of Eq. 10–11 for a 3-DOF oscillator of mass matrix m (SPD) and stiffness k (symmetric PSD): in each
/// mode of k q = ω² m q (m-normalised), b = (h²ω² − 4α)/(2h) where h²ω² > 4α, else 0, and B the matrix
/// with those modes and dampings: B = m^½ f(h² m^-½ k m^-½) m^½ / (2h), f(x) = max(x − 4α, 0). For
/// m and k diagonal it is Eq. 11 per DOF; B commutes with m where k does, is 0 on k's null space, and
/// turns with the scene (header, "Rotation-consistent B").
Mat3 stabilizing_damping(const Mat3& m, const Mat3& k, double h, double alpha);

/// The inertia a body's rotation carries more where a joint pins it to a prescribed side (the world, a fixed
/// or a kinematic body; the caller adds it only where no joint ties the body to a moving one; header,
/// "Pinned bodies"): with the joint's rows on the body [J_v J_ω], a turn δθ brings the translation
/// δc = −J_v⁺J_ω δθ with it, m PᵀP, P = J_v⁺J_ω (a ball joint at r from the centre: m[r]×ᵀ[r]×, the
/// parallel-axis term about the anchor).
Mat3 pinned_inertia(double mass, const RigidBlock& rows);

/// k′ = (J K_d⁺ Jᵀ)⁻¹ of one row with blocks J_s on bodies body[s] (−1: none); 0 when the row sees no
/// stiffness.
double row_stiffness(const std::array<const double*, 2>& row, const std::array<int, 2>& body, int stride,
                     const std::vector<Vec6>& Kd);

/// A row this compliant (m/N, rad/(N·m): a stiffness below 10⁴, a cable's bending) is soft: a spring
/// whose damping b′ acts (C b′ comparable to h; a stiff row's Σ = C/(h + C b′) barely moves).
constexpr double kSoftCompliance = 1e-4;

/// Per joint slot of J (the first `joints`): whether its rows get the stability damping b′ (header,
/// "Anchored rows"). `anchored`: every joint does (the paper's §4.3).
std::vector<char> stability_damped_joints(const ConstraintJacobian& J, int joints, const std::vector<double>& compliance,
                                          bool anchored);

/// Of the joints `damped` (stability_damped_joints), those with a soft row: the constraint-space share of
/// "auto" (header, "Which bodies").
std::vector<char> soft_joints(const ConstraintJacobian& J, std::vector<char> damped,
                              const std::vector<double>& compliance);

/// Constraint-space damping (§4.3–4.4) of the rows of the damped joints: per row m′ = (J W Jᵀ)⁻¹ (W = M⁻¹),
/// k′ = row_stiffness, b′ = stabilizing_damping beside the row's own `damping`, and the row's S = Σ/h and
/// Γ of Eq. 15–17 (header).
void constraint_space_damping(const ConstraintJacobian& J, const std::vector<char>& damped, const std::vector<Mat6>& W,
                              const std::vector<Vec6>& Kd, const std::vector<double>& compliance,
                              const std::vector<double>& damping, double h, double alpha, VecX& S, VecX& Gamma);

}  // namespace affix
