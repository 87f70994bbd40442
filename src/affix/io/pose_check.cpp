#include "affix/io/pose_check.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "affix/io/number_format.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {

std::pair<double, double> singular_value_range(const Mat3& A) {
  // σᵢ² are the eigenvalues of AᵀA (symmetric 3×3: closed form, no iteration), ascending.
  Eigen::SelfAdjointEigenSolver<Mat3> eigen;
  eigen.computeDirect(A.transpose() * A, Eigen::EigenvaluesOnly);
  return {std::sqrt(std::max(eigen.eigenvalues()[0], 0.0)), std::sqrt(std::max(eigen.eigenvalues()[2], 0.0))};
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
    const auto [smallest, largest] = singular_value_range(pose.A);
    if (smallest < kCollapseLimit || largest > 1.0 / kCollapseLimit) {
      check.failure = "body '" + name + "' " + (smallest < kCollapseLimit ? "collapsed" : "blew up") +
                      " (the singular values of A span " + format_shortest(smallest) + " to " +
                      format_shortest(largest) + "): the loads deformed it far beyond a stiff body; "
                      "raise its stiffness, or lower the loads or the time step";
      return check;
    }
    const double s = std::max(1.0 - smallest, largest - 1.0);
    if (s > kStrainLimit) ++check.strained_bodies;
    if (s > check.max_strain) check.max_strain = s, check.most_strained = static_cast<int>(b);
  }
  return check;
}

}  // namespace affix
