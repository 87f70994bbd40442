#pragma once
// Fixed-size Eigen aliases used throughout affix. Doubles everywhere (DESIGN §2).
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace affix {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Mat2 = Eigen::Matrix2d;
using Mat3 = Eigen::Matrix3d;
using Vec12 = Eigen::Matrix<double, 12, 1>;
using Mat12 = Eigen::Matrix<double, 12, 12>;
using Mat3x12 = Eigen::Matrix<double, 3, 12>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using Quat = Eigen::Quaterniond;

}  // namespace affix
