#pragma once
// The joint graph of a KktSystem and the structure of its dual matrix D = G H⁻¹ Gᵀ (He 2026 §5.2–5.5),
// which decides the dual solver of each group of connected bodies.
//
// Bodies are nodes; a joint with two moving bodies is an edge, one with a single moving body is a
// "unary" constraint on it (the other side is the world or a body whose motion is known). Bodies that
// share no joint are independent blocks of the KKT system, and each connected component is one of:
//   trivial  a body without joints: Δq = Δq_free, nothing to solve;
//   chain    (§5.2) the joints can be ordered so that consecutive joints share a moving body and no body
//            is moved by more than 2 joints, unary ones included: then D_jk = 0 for |j − k| > 1 and D is
//            block tridiagonal in that order (block_thomas.hpp). Two joints between the same two bodies
//            are a chain of two;
//   tree     (§5.3) the bodies and the binary joints form a tree (parallel joints between two bodies are
//            a cycle), unary joints on any body: ABD-ABA (abd_aba.hpp) eliminates each body with its
//            parent joint and its unary joints, which it needs to be at most 12 rows (a body has 12
//            DOFs; more rows are redundant and make its local system singular);
//   loop     (§5.4) a single cycle of binary joints;
//   graph    (§5.5) several cycles, or a tree whose elimination rows exceed 12 on some body.
// A component can be both a chain and a tree (a path of bodies with unary joints at most at its ends);
// kind() prefers chain, the cheaper solve.
//
// Loop breakers (§5.4). A component with cycles is a spanning tree of its binary joints plus the joints
// that close its cycles: union-find over the joints in ascending order keeps a joint that joins two
// sets and cuts one that does not (a self-joint, a parallel joint, a joint closing a ring), so there are
// exactly `cycles` cut joints. The spanning tree keeps every unary joint and is rooted like a tree;
// `spanning_tree_fits` says ABD-ABA can take it (no body over 12 rows), so that the loop solver
// (loop_schur.hpp) can solve it and close the cut joints by a Schur complement.
#include <vector>

#include "affix/solvers/mabd/kkt_system.hpp"

namespace affix {

enum class ComponentKind { trivial, chain, tree, loop, graph };
const char* component_kind_name(ComponentKind kind);

struct JointComponent {
  std::vector<int> bodies;  ///< ascending
  std::vector<int> joints;  ///< the chain order when `is_chain`, else ascending
  bool is_chain = false;
  bool is_tree = false;
  int cycles = 0;  ///< independent cycles of binary joints (edges − bodies + 1), self-joints included
  /// The joints that close the cycles (header, loop breakers), ascending: `cycles` of them.
  std::vector<int> cut_joints;
  /// Components with cycles: whether the spanning tree without the cut joints is one ABD-ABA can take.
  bool spanning_tree_fits = false;
  /// Trees and the spanning trees of components with cycles: the root (a body with the most unary rows, i.e. attached to the world, where there is one)
  /// and the bodies children before parents, the root last.
  int root = -1;
  std::vector<int> leaves_first;
  /// Why the component is neither a chain nor a tree, for messages: a body moved by more than 2 joints,
  /// a joint that closes a cycle, a body whose elimination rows exceed 12 (−1 where there is none).
  int busy_body = -1, cycle_joint = -1, overfull_body = -1;

  ComponentKind kind() const;
};

class JointGraph {
 public:
  explicit JointGraph(const KktSystem& system);

  /// Whether `system` has the bodies and joints (sides and row counts) this graph was built from, so
  /// that the classification still holds.
  bool describes(const KktSystem& system) const;

  const std::vector<JointComponent>& components() const { return components_; }
  /// Joints without a moving body on either side (they belong to no component).
  const std::vector<int>& detached_joints() const { return detached_; }

  /// Trees (and the spanning trees of components with cycles): a body's parent (−1 at a root), the joint
  /// to it, and the body's unary joints (ascending).
  int parent(int body) const { return parent_[body]; }
  int parent_joint(int body) const { return parent_joint_[body]; }
  const std::vector<int>& unary_joints(int body) const { return unary_[body]; }

 private:
  struct JointSides {
    int body1, body2, rows;
    bool operator==(const JointSides&) const = default;
  };
  void classify(const KktSystem& system, JointComponent& component);
  void find_chain_order(JointComponent& component) const;
  void root_tree(const KktSystem& system, JointComponent& component);

  int body_count_ = 0;
  std::vector<JointSides> sides_;
  std::vector<char> cut_;  // per joint: closes a cycle (header, loop breakers)
  std::vector<std::vector<int>> joints_of_body_;  // each joint once per body, ascending
  std::vector<std::vector<int>> unary_;
  std::vector<int> parent_, parent_joint_;
  std::vector<JointComponent> components_;
  std::vector<int> detached_;
};

}  // namespace affix
