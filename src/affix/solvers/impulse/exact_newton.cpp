#include "affix/solvers/impulse/exact_newton.hpp"

#include <cmath>
#include <utility>

#include "affix/math/rotation.hpp"

namespace affix {

Mat3 so3_left_jacobian(const Vec3& phi) {
  const double theta = phi.norm();
  const Mat3 K = skew(phi);
  if (theta < 1e-6) return Mat3::Identity() + 0.5 * K + K * K / 6.0;  // the series, to O(θ³)
  const double t2 = theta * theta;
  return Mat3::Identity() + (1.0 - std::cos(theta)) / t2 * K + (theta - std::sin(theta)) / (t2 * theta) * K * K;
}

bool ExactNewton::factorize(const std::vector<SystemJoint>& joints, int size, const std::vector<JointJacobian>& J_hat1,
                            const std::vector<JointJacobian>& J_hat2, const std::vector<JointJacobian>& J1,
                            const std::vector<JointJacobian>& J2, const std::vector<Mat6>& W,
                            const std::vector<char>& free) {
  entries_.clear();
  // Block (j, k) through every moving body b the two joints share: Ĵ_jb W_b J_kbᵀ.
  const auto add = [&](int j, const JointJacobian& Jh, int k, const JointJacobian& Jk, int body) {
    const MatX block = Jh * W[body] * Jk.transpose();
    for (int r = 0; r < block.rows(); ++r)
      for (int c = 0; c < block.cols(); ++c)
        if (!free[joints[j].offset + r] && !free[joints[k].offset + c])
          entries_.emplace_back(joints[j].offset + r, joints[k].offset + c, block(r, c));
  };
  // The joint sides on each moving body.
  std::vector<std::vector<std::pair<int, int>>> on_body(W.size());
  for (std::size_t j = 0; j < joints.size(); ++j) {
    if (joints[j].body1 >= 0) on_body[joints[j].body1].push_back({static_cast<int>(j), 0});
    if (joints[j].body2 >= 0) on_body[joints[j].body2].push_back({static_cast<int>(j), 1});
  }
  for (std::size_t body = 0; body < on_body.size(); ++body)
    for (const auto& [j, sj] : on_body[body])
      for (const auto& [k, sk] : on_body[body])
        add(j, sj == 0 ? J_hat1[j] : J_hat2[j], k, sk == 0 ? J1[k] : J2[k], static_cast<int>(body));
  for (int i = 0; i < size; ++i)
    if (free[i]) entries_.emplace_back(i, i, 1.0);
  matrix_.resize(size, size);
  matrix_.setFromTriplets(entries_.begin(), entries_.end());
  lu_.compute(matrix_);
  return lu_.info() == Eigen::Success;
}

}  // namespace affix
