#include "affix/solvers/compliant/added_inertia.hpp"

namespace affix {

double added_inertia(double m, double k, double h, double alpha) {
  if (!(h * h * k > 4.0 * alpha * m)) return 0.0;  // Eq. 10 holds: stable as it is
  return (h * h * k - 4.0 * alpha * m) / (4.0 * alpha);
}

void rotational_stiffness(const std::vector<PlacedStiffness>& K, int bodies, std::vector<Vec3>& squared) {
  squared.assign(bodies, Vec3::Zero());
  for (const PlacedStiffness& k : K)
    for (int t = 0; t < 2; ++t) {
      if (k.body[t] < 0) continue;
      for (int o = 0; o < 2; ++o)  // the column of body t's turn: its own torque and the other body's
        if (k.body[o] >= 0)
          squared[k.body[t]] += k.K.block<3, 3>(6 * o + 3, 6 * t + 3).colwise().squaredNorm().transpose();
    }
  for (Vec3& s : squared) s = s.cwiseSqrt();
}

}  // namespace affix
