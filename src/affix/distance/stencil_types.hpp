#pragma once
// Fixed-size vectors and matrices for the distance stencils: a stencil stacks the positions of its
// vertices, so two vertices give 6 DOFs (point-point), three give 9 (point-edge, point-line) and four
// give 12 (point-triangle, edge-edge; Vec12/Mat12 live in math/types.hpp).
#include "affix/math/types.hpp"

namespace affix {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec9 = Eigen::Matrix<double, 9, 1>;
using Mat9 = Eigen::Matrix<double, 9, 9>;

}  // namespace affix
