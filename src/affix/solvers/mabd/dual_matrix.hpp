#pragma once
// The pieces of the dual system D λ = r of a KktSystem (He 2026 Eq. 28), shared by every dual solver:
// each joint side's response W = H_b⁻¹ G_jbᵀ (one co-rotated solve for all its rows: Alg. 1), the blocks
// D_jk = Σ_b G_jb W_kb, and r = C + G Δq_free.
#include <span>
#include <vector>

#include "affix/solvers/mabd/kkt_system.hpp"

namespace affix {

/// 12 × m on the heap, exactly m columns (as JointRows, kkt_system.hpp): a ball side's response takes
/// 288 B, not the 576 B of a fixed 6-column capacity.
using ResponseBlock = Eigen::Matrix<double, 12, Eigen::Dynamic>;
using DualBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;

/// H_b⁻¹ G_jbᵀ of a joint's two sides (empty for a side without a moving body).
struct JointResponse {
  ResponseBlock W1, W2;
};

class DualMatrix {
 public:
  DualMatrix() = default;
  /// Computes every joint's response at the system's current iterate.
  explicit DualMatrix(const KktSystem& system) { assemble(system); }
  /// The same, in the storage of the last assembly: a step's dual matrix reuses the last step's memory
  /// (a gigabyte of responses at 10⁶ joints, which malloc would otherwise hand back and fault in again).
  void assemble(const KktSystem& system);

  const KktSystem& system() const { return *system_; }
  const JointResponse& response(int j) const { return responses_[j]; }
  /// The joints that move body b, ascending.
  std::span<const int> joints_of(int body) const {
    return {joint_list_.data() + joint_start_[body], joint_list_.data() + joint_start_[body + 1]};
  }

  /// D_jk (m_j × m_k): 0 unless j and k share a moving body.
  DualBlock block(int j, int k) const;
  /// r_j = C_j + G_j Δq_free.
  CompactVector rhs(int j, const std::vector<Vec12>& free_steps) const;

 private:
  const KktSystem* system_ = nullptr;
  std::vector<JointResponse> responses_;
  std::vector<int> joint_start_, joint_list_;  // joints_of(b) = joint_list_[joint_start_[b], joint_start_[b + 1])
  std::vector<int> next_;                      // assemble's fill cursor per body
};

}  // namespace affix
