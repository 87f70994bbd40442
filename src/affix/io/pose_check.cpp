#include "affix/io/pose_check.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "affix/io/number_format.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {

double strain(const Mat3& A) {
  // σᵢ² are the eigenvalues of AᵀA (symmetric 3×3: closed form, no iteration).
  Eigen::SelfAdjointEigenSolver<Mat3> eigen;
  eigen.computeDirect(A.transpose() * A, Eigen::EigenvaluesOnly);
  double largest = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double sigma = std::sqrt(std::max(eigen.eigenvalues()[i], 0.0));
    largest = std::max(largest, std::abs(sigma - 1.0));
  }
  return largest;
}

PoseCheck check_poses(const std::vector<BodyPose>& poses, const std::vector<std::string>& names) {
  PoseCheck check;
  for (std::size_t b = 0; b < poses.size(); ++b) {
    const BodyPose& pose = poses[b];
    const std::string name = b < names.size() ? excerpt(names[b]) : std::to_string(b);
    if (!pose.p.allFinite() || !pose.A.allFinite()) {
      check.failure = "body '" + name + "' has a non-finite pose (the state diverged)";
      return check;
    }
    const double det = pose.A.determinant();
    if (!(det > 0.0)) {
      check.failure = "body '" + name + "' is inverted (det A = " + format_shortest(det) +
                      " <= 0): the loads turned it inside out, which its stiffness cannot resist; "
                      "raise its stiffness, or lower the loads or the time step";
      return check;
    }
    const double s = strain(pose.A);
    if (s > kStrainLimit) ++check.strained_bodies;
    if (s > check.max_strain) check.max_strain = s, check.most_strained = static_cast<int>(b);
  }
  return check;
}

}  // namespace affix
