#include "affix/solvers/mabd/ball_chain.hpp"

#include "affix/body/affine_body.hpp"
#include "affix/solvers/mabd/spd_factor.hpp"

namespace affix {
namespace {

int body_of(const KktJoint& joint, int side) { return side == 1 ? joint.body1 : joint.body2; }
int bracket_of(const KktJoint& joint, int side) { return side == 1 ? joint.bracket1 : joint.bracket2; }
double sign_of(int side) { return side == 1 ? 1.0 : -1.0; }  // G1 = J(P₁), G2 = −J(P₂)

/// The number of side pairs (side of j, side of k) on the same moving body, and the last such pair.
int shared_sides(const KktJoint& j, const KktJoint& k, int& side_j, int& side_k) {
  int count = 0;
  for (int a = 1; a <= 2; ++a)
    for (int b = 1; b <= 2; ++b)
      if (body_of(j, a) >= 0 && body_of(j, a) == body_of(k, b)) ++count, side_j = a, side_k = b;
  return count;
}

}  // namespace

bool BallChain::fits(const KktSystem& system, const std::vector<int>& joints) {
  if (!system.brackets) return false;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const KktJoint& joint = system.joints[joints[i]];
    if (joint.rows() != 3 || !joint.ball() || joint.body1 == joint.body2) return false;
    int a = 0, b = 0;
    if (i + 1 < joints.size() && shared_sides(joint, system.joints[joints[i + 1]], a, b) != 1) return false;
  }
  return true;
}

int BallChain::middle(const BallBrackets& brackets, int a, int c) {
  const auto [it, inserted] = middle_index_.try_emplace({a, c}, static_cast<int>(middles_.size()));
  if (inserted) middles_.push_back(bracket_middle(brackets[a], brackets[c]));
  return it->second;
}

BallChain::BallChain(const KktSystem& system, const std::vector<int>& joints) {
  const BallBrackets& brackets = *system.brackets;
  const int n = static_cast<int>(joints.size());
  links_.resize(n);
  for (int i = 0; i < n; ++i) {
    const KktJoint& joint = system.joints[joints[i]];
    Link& link = links_[i];
    if (joint.body1 >= 0) link.middle1 = middle(brackets, joint.bracket1, joint.bracket1);
    if (joint.body2 >= 0) link.middle2 = middle(brackets, joint.bracket2, joint.bracket2);
    if (i + 1 == n) continue;
    const KktJoint& next = system.joints[joints[i + 1]];
    shared_sides(joint, next, link.side_j, link.side_k);
    link.shared_body = body_of(joint, link.side_j);
    link.shared_sign = sign_of(link.side_j) * sign_of(link.side_k);
    link.shared_middle = middle(brackets, bracket_of(joint, link.side_j), bracket_of(next, link.side_k));
  }
  X_.resize(n), z_.resize(n);
}

bool BallChain::solve(const KktSystem& system, const std::vector<int>& joints, const std::vector<int>& offsets,
                      const std::vector<Vec12>& free_steps, double shift, KktSolution& solution) {
  const BallBrackets& brackets = *system.brackets;
  const int n = static_cast<int>(joints.size());
  const auto side_block = [&](int body, int bracket, int m) {
    const PointBracket& p = brackets[bracket];
    return ball_block(system.bodies[body], p, p, middles_[m]);
  };

  // Forward elimination (block_thomas.hpp, Eq. 40) on 3×3 blocks: P_i and y_i.
  Mat3 B = Mat3::Zero();  // B_i−1 = D_{i−1,i}
  for (int i = 0; i < n; ++i) {
    const KktJoint& joint = system.joints[joints[i]];
    const Link& link = links_[i];
    Mat3 P = shift * Mat3::Identity();
    Vec3 y = joint.residual;  // r = C + G Δq_free (Eq. 28)
    if (joint.body1 >= 0) {
      P += side_block(joint.body1, joint.bracket1, link.middle1);
      y += world_point(free_steps[joint.body1], brackets[joint.bracket1].point);
    }
    if (joint.body2 >= 0) {
      P += side_block(joint.body2, joint.bracket2, link.middle2);
      y -= world_point(free_steps[joint.body2], brackets[joint.bracket2].point);
    }
    if (i > 0) {
      P.noalias() -= B.transpose().lazyProduct(X_[i - 1]);
      y.noalias() -= B.transpose() * z_[i - 1];
    }
    Eigen::LLT<Mat3> pivot;
    if (!factor_spd(pivot, P)) return false;
    z_[i] = pivot.solve(y);
    if (i + 1 < n) {
      const KktJoint& next = system.joints[joints[i + 1]];
      const PointBracket& a = brackets[bracket_of(joint, link.side_j)];
      const PointBracket& c = brackets[bracket_of(next, link.side_k)];
      B = link.shared_sign * ball_block(system.bodies[link.shared_body], a, c, middles_[link.shared_middle]);
      X_[i] = pivot.solve(B);
    }
  }

  // Back substitution: z_i becomes λ_i.
  for (int i = n - 2; i >= 0; --i) z_[i].noalias() -= X_[i] * z_[i + 1];

  // Eq. 41: Δq_b = Δq_free,b − Σ_j H_b⁻¹ G_jbᵀ λ_j, each side's response through its bracket.
  start_from_free_steps(system, joints, free_steps, solution.dq);
  for (int i = 0; i < n; ++i) {
    const KktJoint& joint = system.joints[joints[i]];
    const Vec3& lambda = z_[i];
    solution.lambda.segment<3>(offsets[joints[i]]) = lambda;
    if (joint.body1 >= 0)
      solution.dq[joint.body1] -= ball_response(system.bodies[joint.body1], brackets[joint.bracket1], lambda);
    if (joint.body2 >= 0)
      solution.dq[joint.body2] += ball_response(system.bodies[joint.body2], brackets[joint.bracket2], lambda);
  }
  return true;
}

}  // namespace affix
