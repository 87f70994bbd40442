#include "affix/solvers/mabd/ball_chain.hpp"

#include <algorithm>
#include <cmath>

#include "affix/body/affine_body.hpp"
#include "affix/solvers/mabd/body_lanes.hpp"
#include "affix/solvers/mabd/prefetch.hpp"
#include "affix/solvers/mabd/spd_factor.hpp"

namespace affix {
namespace {

/// A 3×3 pivot's inverse P⁻¹ = adj(P)/det(P), P symmetric (its lower triangle is read, as Eigen's LLT
/// does). The forward elimination is a chain through every pivot: P_i needs X_{i−1} = P_{i−1}⁻¹B, which
/// needs P_{i−1}'s factor. LDLᵀ (or Cholesky) puts its three divisions one after the other on that chain,
/// and its solves a forward and a backward substitution; the adjugate needs one division, computed beside
/// the products adj(P)·B, so the chain is about half as long (the 10³-link step 2–6 % cheaper, measured
/// loaded). Both are accurate to about κ(P)·ε here (MabdBallBrackets.* hold the chain equal to CHOLMOD to
/// 10⁻¹⁰). The test is factor_spd's (spd_factor.hpp) on LDLᵀ's pivots d₀ = P₀₀, d₁ = m₂/d₀, d₂ = det/m₂
/// (m₂ the leading 2×2 minor), read without dividing: false at a pivot d_k ≤ 0 or below kSingularPivot of
/// P's largest diagonal entry.
class Pivot3 {
 public:
  bool factor(const Mat3& P) {
    const double p00 = P(0, 0), p10 = P(1, 0), p20 = P(2, 0), p11 = P(1, 1), p21 = P(2, 1), p22 = P(2, 2);
    const double c00 = p11 * p22 - p21 * p21, c10 = p20 * p21 - p10 * p22, c20 = p10 * p21 - p11 * p20;
    const double c11 = p00 * p22 - p20 * p20, c21 = p10 * p20 - p00 * p21, c22 = p00 * p11 - p10 * p10;
    const double det = p00 * c00 + p10 * c10 + p20 * c20;
    const double scale = 1.0 / det;
    inverse_ << c00 * scale, c10 * scale, c20 * scale,  //
        c10 * scale, c11 * scale, c21 * scale,          //
        c20 * scale, c21 * scale, c22 * scale;
    const double least = kSingularPivot * std::max({p00, p11, p22});  // m₂ = c22
    return p00 > 0.0 && c22 > 0.0 && det > 0.0 && p00 > least && c22 > least * p00 && det > least * c22;
  }
  Vec3 solve(const Vec3& b) const { return inverse_.lazyProduct(b); }
  Mat3 solve(const Mat3& B) const { return inverse_.lazyProduct(B); }

 private:
  Mat3 inverse_;
};

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
                      double shift, KktSolution& solution) {
  const BallBrackets& brackets = *system.brackets;
  const int n = static_cast<int>(joints.size());
  std::vector<Vec12>& dq = solution.dq;
  // Body b's free step (Eq. 28), in its co-rotated frame (header): u_b = (H₀⁻¹ − Z K Zᵀ) Qᵀ(−g_b); in the
  // world frame for a body in contact, whose H is not a rotated constant.
  const auto free_step = [&](int b) {
    const KktBody& body = system.bodies[b];
    dq[b] = body.dense ? Vec12(body.dense->factor.solve(-body.gradient))
                       : body.rotation.solve_local(*body.factor, body.rotation.apply_transpose(-body.gradient));
  };
  // J(P) Δq_free,b = R J(P) u_b, since J(P) Q = R J(P) (ball_brackets.hpp).
  const auto free_motion = [&](int b, const PointBracket& p) {
    const Vec3 local = world_point(dq[b], p.point);
    return system.bodies[b].dense ? local : Vec3(system.bodies[b].rotation.rotation() * local);
  };

  // The chain's 3×3 blocks, a chunk of joints ahead of the elimination, four at a time as the lanes of
  // one vector (body_lanes.hpp): each block is a few dependent 3×3 products of one body, which one at a
  // time wait on each other's latency (ball_block was 7 % of a 10⁵-link step), while the elimination's
  // own chain runs through the pivots alone. A body in contact goes through its dense factor, one block
  // at a time. kChunk joints' blocks (7 kB) stay in the L1 cache until the elimination reads them.
  constexpr int kChunk = 32;
  Mat3 sides[2 * kChunk], coupling[kChunk], padding[kBodyLanes];
  BallBlockLane queued[kBodyLanes];
  Mat3* target[kBodyLanes];
  int count = 0;
  const auto flush = [&] {
    if (count == 0) return;
    for (int k = count; k < kBodyLanes; ++k) queued[k] = queued[0], target[k] = &padding[k];
    ball_blocks4(queued, target);
    count = 0;
  };
  // J(P_a) H_b⁻¹ J(P_c)ᵀ (ball_block) into `out`, now or at the next flush.
  const auto block = [&](int b, int a, int c, int m, Mat3* out) {
    const KktBody& body = system.bodies[b];
    if (body.dense) {
      *out = ball_block(body, brackets[a], brackets[c], middles_[m]);
      return;
    }
    const CoRotation& Q = body.rotation;
    queued[count] = {&Q.rotation(), &Q.twist_gain(), &brackets[a].twist, &brackets[c].twist, &middles_[m]};
    target[count++] = out;
    if (count == kBodyLanes) flush();
  };

  // Forward elimination (block_thomas.hpp, Eq. 40) on 3×3 blocks: P_i and y_i, each body's free step
  // taken at its first joint (the body a joint shares with the one before already has it).
  Mat3 B = Mat3::Zero();  // B_i−1 = D_{i−1,i}
  for (int i0 = 0; i0 < n; i0 += kChunk) {
    const int i1 = std::min(n, i0 + kChunk);
    for (int i = i0; i < i1; ++i) {
      const KktJoint& joint = system.joints[joints[i]];
      const Link& link = links_[i];
      if (i + kPrefetchAhead < n) {
        const KktJoint& ahead = system.joints[joints[i + kPrefetchAhead]];
        prefetch(ahead);
        if (ahead.body1 >= 0) prefetch(system.bodies[ahead.body1]);
        if (ahead.body2 >= 0) prefetch(system.bodies[ahead.body2]);
      }
      for (int side = 1; side <= 2; ++side) {
        const int b = body_of(joint, side), bracket = bracket_of(joint, side);
        if (b >= 0) block(b, bracket, bracket, side == 1 ? link.middle1 : link.middle2, &sides[2 * (i - i0) + side - 1]);
      }
      if (i + 1 < n)
        block(link.shared_body, bracket_of(joint, link.side_j), bracket_of(system.joints[joints[i + 1]], link.side_k),
              link.shared_middle, &coupling[i - i0]);
    }
    flush();
    for (int i = i0; i < i1; ++i) {
      const KktJoint& joint = system.joints[joints[i]];
      const Link& link = links_[i];
      const int shared_before = i > 0 ? links_[i - 1].shared_body : -1;
      if (i + kPrefetchAhead < n) {
        const KktJoint& ahead = system.joints[joints[i + kPrefetchAhead]];
        for (const int b : {ahead.body1, ahead.body2})
          if (b >= 0) prefetch(dq[b], true);
        prefetch(X_[i + kPrefetchAhead], true), prefetch(z_[i + kPrefetchAhead], true);
      }
      Mat3 P = shift * Mat3::Identity();
      Vec3 y = joint.residual;  // r = C + G Δq_free (Eq. 28)
      for (int side = 1; side <= 2; ++side) {
        const int b = body_of(joint, side);
        if (b < 0) continue;
        if (b != shared_before) free_step(b);
        P += sides[2 * (i - i0) + side - 1];
        y += sign_of(side) * free_motion(b, brackets[bracket_of(joint, side)]);
      }
      if (i > 0) {
        P.noalias() -= B.transpose().lazyProduct(X_[i - 1]);
        y.noalias() -= B.transpose() * z_[i - 1];
      }
      Pivot3 pivot;
      if (!pivot.factor(P)) return false;
      z_[i] = pivot.solve(y);
      if (i + 1 < n) {
        B = link.shared_sign * coupling[i - i0];
        X_[i] = pivot.solve(B);
      }
    }
  }

  // Back substitution, z_i becoming λ_i, and in the same pass Eq. 41: Δq_b = Δq_free,b − Σ_j H_b⁻¹G_jbᵀλ_j.
  // With G = s J(P) (s = ±1 by side) and Qᵀ J(P)ᵀ = J(P)ᵀ Rᵀ, in b's frame (header):
  //   u_b ← u_b − Σ_j B_a w_j + Z K Σ_j Y_aᵀ w_j,   w_j = Rᵀ(s λ_j),
  // and Δq_b = Q u_b once both of b's joints are done: one rotation and one twist product per body, not
  // one per joint side. The body joint i shares with joint i + 1 brings Σ Y_aᵀ w from there (`carried`).
  Vec3 carried = Vec3::Zero();
  for (int i = n - 1; i >= 0; --i) {
    if (i >= kPrefetchAhead) {
      const KktJoint& ahead = system.joints[joints[i - kPrefetchAhead]];
      prefetch(ahead), prefetch(X_[i - kPrefetchAhead]);
      for (const int b : {ahead.body1, ahead.body2})
        if (b >= 0) prefetch(system.bodies[b]), prefetch(dq[b]);
    }
    if (i + 1 < n) z_[i].noalias() -= X_[i] * z_[i + 1];
    const KktJoint& joint = system.joints[joints[i]];
    const Vec3& lambda = z_[i];
    solution.lambda.segment<3>(offsets[joints[i]]) = lambda;
    const int shared_after = i + 1 < n ? links_[i].shared_body : -1;
    const int shared_before = i > 0 ? links_[i - 1].shared_body : -1;
    const Vec3 from_after = carried;
    for (int side = 1; side <= 2; ++side) {
      const int b = body_of(joint, side);
      if (b < 0) continue;
      const KktBody& body = system.bodies[b];
      const PointBracket& p = brackets[bracket_of(joint, side)];
      const Vec3 f = sign_of(side) * lambda;
      if (body.dense) {
        dq[b] -= body.dense->factor.solve(point_jacobian_transpose_times(p.point, f));
        continue;
      }
      const CoRotation& Q = body.rotation;
      const Vec3 w = Q.rotation().transpose() * f;
      dq[b].noalias() -= p.response.lazyProduct(w);
      Vec3 twist = b == shared_after ? from_after : Vec3::Zero();
      if (Q.twisted()) twist.noalias() += p.twist.transpose() * w;
      if (b == shared_before) {
        carried = twist;
        continue;
      }
      if (Q.twisted()) dq[b].noalias() += body.factor->twist_response * (Q.twist_gain() * twist);
      dq[b] = Q.apply(dq[b]);
    }
  }
  return true;
}

}  // namespace affix
