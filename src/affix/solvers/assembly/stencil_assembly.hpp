#pragma once
// The one map from a stencil's point-space derivatives to the affine DOFs of its bodies, shared by
// every energy term that is a sum over stencils (body–body contact, joint penalties and limits):
// each stencil point x_k = J(x̄_k)·q_{body(k)} (Chen 2022 Eq. 5), so
//   ∇_q E = Σ_k J(x̄_k)ᵀ ∇_{x_k} E,   ∇²_q E = Σ_kl J(x̄_k)ᵀ ∇²_{x_k x_l} E J(x̄_l),
// gathered into the blocks of the (at most two) bodies a stencil touches. World points (body −1) are
// constants and drop out. A Hessian projected to PSD in point space stays PSD under this congruence.
#include <type_traits>

#include "affix/body/affine_body.hpp"
#include "affix/joints/joint_model.hpp"
#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {

/// A stencil's value, gradient and Hessian on the DOFs of its bodies a and b (−1: none).
struct StencilBodyTerms {
  int a = -1, b = -1;
  double value = 0.0;
  Vec12 grad_a = Vec12::Zero(), grad_b = Vec12::Zero();
  Mat12 H_aa = Mat12::Zero(), H_ab = Mat12::Zero(), H_bb = Mat12::Zero();  ///< H_ba = H_abᵀ implied
};

/// The chain rule above for `count` points with stacked point-space gradient g (3·count) and Hessian H.
/// a is the body of the first point on a body, b the first other one. `Count` is an int, or a
/// std::integral_constant when the count is known at compile time (joint stencils), which lets the
/// compiler unroll the loops.
template <class Count, class Gradient, class Hessian>
StencilBodyTerms stencil_to_bodies(const BodyPoint* points, Count count, double value, const Gradient& g,
                                   const Hessian& H) {
  StencilBodyTerms t;
  t.value = value;
  for (int k = 0; k < count; ++k) {
    const int body = points[k].body;
    if (body < 0) continue;
    if (t.a < 0) t.a = body;
    else if (body != t.a && t.b < 0) t.b = body;
  }
  for (int k = 0; k < count; ++k) {
    if (points[k].body < 0) continue;
    const bool k_on_a = points[k].body == t.a;
    (k_on_a ? t.grad_a : t.grad_b) +=
        point_jacobian_transpose_times(points[k].x_bar, g.template segment<3>(3 * k));
    for (int l = 0; l < count; ++l) {
      if (points[l].body < 0) continue;
      const Mat12 block = point_jacobian_congruence(points[k].x_bar, H.template block<3, 3>(3 * k, 3 * l),
                                                    points[l].x_bar);
      const bool l_on_a = points[l].body == t.a;
      if (k_on_a && l_on_a) t.H_aa += block;
      else if (!k_on_a && !l_on_a) t.H_bb += block;
      else if (k_on_a) t.H_ab += block;  // (a, b); its transpose (b, a) is implied
    }
  }
  return t;
}

/// A stencil of N points, N known at compile time.
template <int N>
using StencilSize = std::integral_constant<int, N>;

/// gradient += scale·∇ of the stencil, in its bodies' segments of a gradient laid out by `layout`.
inline void add_stencil_gradient(const StencilBodyTerms& t, double scale, const DofLayout& layout, VecX& gradient) {
  if (t.a >= 0) layout.segment<kAffineDofs>(gradient, t.a) += scale * t.grad_a;
  if (t.b >= 0) layout.segment<kAffineDofs>(gradient, t.b) += scale * t.grad_b;
}

/// H += scale·∇² of the stencil: two diagonal blocks and the coupling between them.
inline void add_stencil_hessian(const StencilBodyTerms& t, double scale, BlockHessian& H) {
  if (t.a < 0) return;
  H.diagonal(t.a) += scale * t.H_aa;
  if (t.b < 0) return;
  H.diagonal(t.b) += scale * t.H_bb;
  H.add_coupling(t.a, t.b, scale * t.H_ab);
}

}  // namespace affix
