#pragma once
// The second-order correction of a Newton step for the orthogonality potential's curved valley.
//
// A body that turns by θ within a step follows a circle, and the Newton step follows its tangent: A + ΔA
// with ΔA = θ[ω]ₓA stretches A by θ² (AAᵀ = I + θ²[ω]ₓ[ω]ₓᵀ), which the stiff κV‖AAᵀ − I‖² turns into
// a large energy (κV θ⁴ with κV ~ 10⁶ J). The line search then halves the step, the next one turns back
// less far, and Newton zig-zags down the valley: on a ragdoll's landing 20 or more iterations a step,
// with the iterations growing with the stiffness κ (48 at 10¹⁰ Pa, 6 at 10⁷ Pa). This is the Maratos
// effect of penalty and SQP methods, and its standard remedy is a second-order correction (Nocedal &
// Wright 2006, §15.6 and §18.3): a step c, solved with the same Newton matrix, that removes what the
// quadratic model missed at the end point,
//   H c = −r,   r = βh² Σᵢ [∇Pₒ(qᵢ + Δqᵢ) − ∇Pₒ(qᵢ) − ∇²Pₒ(qᵢ) Δqᵢ],
// r the Taylor remainder of the orthogonality gradient (Pₒ is quartic in A, so r = O(‖ΔA‖²)), and the
// line search runs along Δq + c. For the turning body c pulls A + ΔA back radially onto the rotation it
// stands for (to O(θ⁴)), so the full step's energy matches the model's prediction. With linear joints c
// is solved on the rows (C c = 0), so joints stay exact. The path from q to q + Δq + c is straight, so
// CCD and the intersection-free guarantee are unchanged.
#include <vector>

#include "affix/body/affine_body.hpp"

namespace affix {

/// r of the header for the bodies with active[i] (zero elsewhere); false when it is zero everywhere
/// (nothing to correct: no body's A moved). `model_error[i]`: how far body i's orthogonality energy at
/// q + Δq lies above its quadratic model, βh²[Pₒ(q+Δq) − Pₒ(q) − ∇Pₒᵀ Δq − ½ Δqᵀ∇²Pₒ Δq] (J), the
/// energy the valley costs the full step.
bool orthogonality_remainder(const std::vector<AffineBody>& bodies, const DofLayout& layout, const VecX& q,
                             const VecX& dq, double beta_h2, const std::vector<char>& active, VecX& remainder,
                             std::vector<double>& model_error);

}  // namespace affix
