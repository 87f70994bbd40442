#include "affix/solvers/compliant/stability_damping.hpp"

namespace affix {

double stabilizing_damping(double m, double k, double h, double alpha) {
  if (!(h * h * k > 4.0 * alpha * m)) return 0.0;  // Eq. 10 holds: stable undamped
  return (h * h * k - 4.0 * alpha * m) / (2.0 * h);  // Eq. 11
}

std::vector<Vec6> diagonal_stiffness(const std::vector<PlacedStiffness>& K, int bodies) {
  std::vector<Mat6> own(bodies, Mat6::Zero());  // Σ of the joints' diagonal blocks on each body
  std::vector<Vec6> other(bodies, Vec6::Zero());  // Σ of squared column norms of the off-diagonal blocks
  for (const PlacedStiffness& k : K)
    for (int t = 0; t < 2; ++t) {
      if (k.body[t] < 0) continue;
      own[k.body[t]] += k.K.block<6, 6>(6 * t, 6 * t);
      if (k.body[1 - t] >= 0) other[k.body[t]] += k.K.block<6, 6>(6 * (1 - t), 6 * t).colwise().squaredNorm().transpose();
    }
  std::vector<Vec6> out(bodies);
  for (int b = 0; b < bodies; ++b)
    out[b] = (own[b].colwise().squaredNorm().transpose() + other[b]).cwiseSqrt();
  return out;
}

double row_stiffness(const std::array<const double*, 2>& row, const std::array<int, 2>& body, int stride,
                     const std::vector<Vec6>& Kd) {
  double compliance = 0.0;
  bool any = false;
  for (int s = 0; s < 2; ++s) {
    if (body[s] < 0) continue;
    for (int k = 0; k < 6; ++k) {
      const double j = row[s][k * stride], kd = Kd[body[s]][k];
      if (kd > 0.0 && j != 0.0) compliance += j * j / kd, any = true;
    }
  }
  return any ? 1.0 / compliance : 0.0;
}

}  // namespace affix
