#include "affix/solvers/compliant/stability_damping.hpp"

#include <Eigen/Eigenvalues>

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

std::vector<BodyStiffness> body_stiffness(const std::vector<PlacedStiffness>& K, int bodies) {
  std::vector<Mat6> own(bodies, Mat6::Zero());  // Σ of the joints' diagonal blocks on each body
  std::vector<Mat6> gram(bodies, Mat6::Zero());  // Σ KᵀK of the off-diagonal blocks' columns
  for (const PlacedStiffness& k : K)
    for (int t = 0; t < 2; ++t) {
      if (k.body[t] < 0) continue;
      own[k.body[t]] += k.K.block<6, 6>(6 * t, 6 * t);
      if (k.body[1 - t] >= 0) {
        const Mat6 off = k.K.block<6, 6>(6 * (1 - t), 6 * t);
        gram[k.body[t]] += off.transpose() * off;
      }
    }
  const auto root = [](const Mat3& G) {  // G^½ of a symmetric PSD G
    if (G.isZero(0.0)) return Mat3(Mat3::Zero());
    const Eigen::SelfAdjointEigenSolver<Mat3> e(0.5 * (G + G.transpose()));
    return Mat3(e.eigenvectors() * e.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal() *
                e.eigenvectors().transpose());
  };
  std::vector<BodyStiffness> out(bodies);
  for (int b = 0; b < bodies; ++b) {
    const Mat6 G = own[b].transpose() * own[b] + gram[b];
    out[b].linear = root(G.topLeftCorner<3, 3>());
    out[b].angular = root(G.bottomRightCorner<3, 3>());
  }
  return out;
}

Mat3 stabilizing_damping(const Mat3& m, const Mat3& k, double h, double alpha) {
  if (k.isZero(0.0)) return Mat3::Zero();
  const Eigen::SelfAdjointEigenSolver<Mat3> mass(0.5 * (m + m.transpose()));
  const Vec3 root = mass.eigenvalues().cwiseSqrt();
  const Mat3 m_half = mass.eigenvectors() * root.asDiagonal() * mass.eigenvectors().transpose();
  const Mat3 m_half_inverse = mass.eigenvectors() * root.cwiseInverse().asDiagonal() * mass.eigenvectors().transpose();
  const Mat3 A = m_half_inverse * k * m_half_inverse;  // ω² of the modes, m-normalised
  const Eigen::SelfAdjointEigenSolver<Mat3> modes(0.5 * (A + A.transpose()));
  const Vec3 f = (h * h * modes.eigenvalues().array() - 4.0 * alpha).cwiseMax(0.0).matrix() / (2.0 * h);  // Eq. 10–11
  if (f.isZero(0.0)) return Mat3::Zero();
  return m_half * modes.eigenvectors() * f.asDiagonal() * modes.eigenvectors().transpose() * m_half;
}

Mat3 pinned_inertia(double mass, const RigidBlock& rows) {
  const Eigen::Matrix<double, Eigen::Dynamic, 3, 0, 6, 3> Jv = rows.leftCols<3>(), Jw = rows.rightCols<3>();
  const Eigen::SelfAdjointEigenSolver<Mat3> e(Jv.transpose() * Jv);  // J_v⁺ = (J_vᵀJ_v)⁺J_vᵀ
  const double floor = 1e-12 * std::max(e.eigenvalues().maxCoeff(), 0.0);
  Vec3 inverse = Vec3::Zero();
  for (int i = 0; i < 3; ++i)
    if (e.eigenvalues()[i] > floor && e.eigenvalues()[i] > 0.0) inverse[i] = 1.0 / e.eigenvalues()[i];
  const Mat3 P = e.eigenvectors() * inverse.asDiagonal() * e.eigenvectors().transpose() * Jv.transpose() * Jw;
  return mass * P.transpose() * P;
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

std::vector<char> stability_damped_joints(const ConstraintJacobian& J, int joints, const std::vector<double>& compliance,
                                          bool anchored) {
  std::vector<char> damped(joints, 1);
  if (anchored) return damped;
  std::vector<char> relieved(J.bodies, 0);  // per unknown: a soft row to another moving body
  for (int j = 0; j < joints; ++j) {
    const JointSlot& s = J.slots[j];
    if (s.body[0] < 0 || s.body[1] < 0) continue;
    for (int r = 0; r < s.count; ++r)
      if (compliance[s.offset + r] > kSoftCompliance) relieved[s.body[0]] = relieved[s.body[1]] = 1;
  }
  for (int j = 0; j < joints; ++j) {
    const JointSlot& s = J.slots[j];
    const int moving = s.body[0] >= 0 ? s.body[0] : s.body[1];
    if ((s.body[0] < 0 || s.body[1] < 0) && moving >= 0 && relieved[moving]) damped[j] = 0;
  }
  return damped;
}

std::vector<char> soft_joints(const ConstraintJacobian& J, std::vector<char> damped,
                              const std::vector<double>& compliance) {
  for (std::size_t j = 0; j < damped.size(); ++j) {
    const JointSlot& s = J.slots[j];
    bool soft = false;
    for (int r = 0; r < s.count; ++r) soft = soft || compliance[s.offset + r] > kSoftCompliance;
    damped[j] = damped[j] && soft;
  }
  return damped;
}

void constraint_space_damping(const ConstraintJacobian& J, const std::vector<char>& damped, const std::vector<Mat6>& W,
                              const std::vector<Vec6>& Kd, const std::vector<double>& compliance,
                              const std::vector<double>& damping, double h, double alpha, VecX& S, VecX& Gamma) {
  for (std::size_t j = 0; j < damped.size(); ++j) {
    if (!damped[j]) continue;
    const JointSlot& s = J.slots[j];
    for (int r = 0; r < s.count; ++r) {
      double inverse_mass = 0.0;
      std::array<const double*, 2> row{nullptr, nullptr};
      for (int side = 0; side < 2; ++side) {
        if (s.body[side] < 0) continue;
        const Vec6 Jr = J.blocks[j][side].row(r).transpose();
        inverse_mass += Jr.dot(W[s.body[side]] * Jr);
        row[side] = J.blocks[j][side].data() + r;
      }
      const double m = 1.0 / inverse_mass;  // m′ = (J M⁻¹ Jᵀ)⁻¹, §4.3
      const double k = row_stiffness(row, s.body, s.count, Kd);
      const double b = stabilizing_damping(m, k, h, alpha) + damping[s.offset + r];  // b′ beside the row's own
      const double C = compliance[s.offset + r];
      S[s.offset + r] = C / (h * (h + C * b));  // Σ/h (header)
      Gamma[s.offset + r] = h / (h + C * b);
    }
  }
}

}  // namespace affix
