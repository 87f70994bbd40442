#pragma once
// Value, gradient and Hessian of an energy on the stacked world positions of a stencil's points.
#include "affix/math/types.hpp"

namespace affix {

/// Four points (12 coordinates): contact stencils and joint penalties.
struct StencilDerivatives {
  double value = 0.0;
  Vec12 gradient = Vec12::Zero();
  Mat12 hessian = Mat12::Zero();  ///< not yet projected
};

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// Two points (6 coordinates): joint limits.
struct PairDerivatives {
  double value = 0.0;
  Vec6 gradient = Vec6::Zero();
  Mat6 hessian = Mat6::Zero();  ///< not yet projected
};

}  // namespace affix
