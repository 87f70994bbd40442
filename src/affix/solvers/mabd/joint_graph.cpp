#include "affix/solvers/mabd/joint_graph.hpp"

#include <algorithm>
#include <numeric>

namespace affix {
namespace {

constexpr int kBodyDofs = 12;  // the most independent rows one body's elimination can take (header)

/// The other moving body of a binary joint seen from `body` (−1 for a unary joint).
int other_body(const KktJoint& joint, int body) {
  if (joint.body1 < 0 || joint.body2 < 0) return -1;
  return joint.body1 == body ? joint.body2 : joint.body1;
}

/// Union-find over body indices, for the first joint that closes a cycle.
struct DisjointSets {
  std::vector<int> up;
  explicit DisjointSets(int n) : up(n) { std::iota(up.begin(), up.end(), 0); }
  int find(int x) {
    while (up[x] != x) x = up[x] = up[up[x]];
    return x;
  }
  bool join(int a, int b) {  // false when a and b were already joined
    a = find(a), b = find(b);
    if (a == b) return false;
    up[a] = b;
    return true;
  }
};

}  // namespace

const char* component_kind_name(ComponentKind kind) {
  switch (kind) {
    case ComponentKind::trivial: return "trivial";
    case ComponentKind::chain: return "chain";
    case ComponentKind::tree: return "tree";
    case ComponentKind::loop: return "loop";
    case ComponentKind::graph: return "graph";
  }
  return "?";
}

ComponentKind JointComponent::kind() const {
  if (joints.empty()) return ComponentKind::trivial;
  if (is_chain) return ComponentKind::chain;
  if (is_tree) return ComponentKind::tree;
  return cycles == 1 ? ComponentKind::loop : ComponentKind::graph;
}

JointGraph::JointGraph(const KktSystem& system)
    : body_count_(static_cast<int>(system.bodies.size())),
      joints_of_body_(system.bodies.size()),
      unary_(system.bodies.size()),
      parent_(system.bodies.size(), -1),
      parent_joint_(system.bodies.size(), -1) {
  const int joint_count = static_cast<int>(system.joints.size());
  sides_.reserve(joint_count);
  for (int j = 0; j < joint_count; ++j) {
    const KktJoint& joint = system.joints[j];
    sides_.push_back({joint.body1, joint.body2, joint.rows()});
    cut_.push_back(0);
    if (joint.body1 < 0 && joint.body2 < 0) detached_.push_back(j);
    if (joint.body1 >= 0) joints_of_body_[joint.body1].push_back(j);
    if (joint.body2 >= 0 && joint.body2 != joint.body1) joints_of_body_[joint.body2].push_back(j);
    if ((joint.body1 < 0) != (joint.body2 < 0)) unary_[std::max(joint.body1, joint.body2)].push_back(j);
  }

  // Connected components through binary joints, breadth first.
  std::vector<bool> seen(body_count_, false), joint_taken(joint_count, false);
  for (int start = 0; start < body_count_; ++start) {
    if (seen[start]) continue;
    JointComponent component;
    std::vector<int> queue{start};
    seen[start] = true;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int b = queue[head];
      component.bodies.push_back(b);
      for (int j : joints_of_body_[b]) {
        if (!joint_taken[j]) joint_taken[j] = true, component.joints.push_back(j);
        const int other = other_body(system.joints[j], b);
        if (other >= 0 && !seen[other]) seen[other] = true, queue.push_back(other);
      }
    }
    std::sort(component.bodies.begin(), component.bodies.end());
    std::sort(component.joints.begin(), component.joints.end());
    classify(system, component);
    components_.push_back(std::move(component));
  }
}

bool JointGraph::describes(const KktSystem& system) const {
  if (static_cast<int>(system.bodies.size()) != body_count_ || system.joints.size() != sides_.size()) return false;
  for (std::size_t j = 0; j < sides_.size(); ++j) {
    const KktJoint& joint = system.joints[j];
    if (!(sides_[j] == JointSides{joint.body1, joint.body2, joint.rows()})) return false;
  }
  return true;
}

void JointGraph::classify(const KktSystem& system, JointComponent& component) {
  if (component.joints.empty()) return;  // trivial
  DisjointSets sets(body_count_);
  for (int j : component.joints) {
    const KktJoint& joint = system.joints[j];
    if (joint.body1 < 0 || joint.body2 < 0) continue;  // unary: no edge
    if (!sets.join(joint.body1, joint.body2)) {        // a self-joint, or parallel/closing joints
      ++component.cycles;
      if (component.cycle_joint < 0) component.cycle_joint = j;
      component.cut_joints.push_back(j), cut_[j] = 1;
    }
  }
  for (int b : component.bodies) {
    if (joints_of_body_[b].size() > 2) {
      component.busy_body = b;
      break;
    }
  }
  if (component.busy_body < 0) find_chain_order(component);
  root_tree(system, component);  // the tree, or the spanning tree of the loops' cut joints
}

void JointGraph::find_chain_order(JointComponent& component) const {
  // Joints are neighbours when they move a common body; with ≤ 2 joints per body every joint has at
  // most 2 neighbours, so the joints form a path (a chain) or a cycle (a ring: not block tridiagonal).
  const auto neighbours = [&](int j) {
    std::vector<int> result;
    for (int b : {sides_[j].body1, sides_[j].body2}) {
      if (b < 0) continue;
      for (int k : joints_of_body_[b])
        if (k != j && std::find(result.begin(), result.end(), k) == result.end()) result.push_back(k);
    }
    return result;
  };
  int end = -1;
  for (int j : component.joints) {
    if (neighbours(j).size() <= 1) {
      end = j;
      break;
    }
  }
  if (end < 0) return;
  std::vector<int> order{end};
  for (int previous = -1, current = end;;) {
    int next = -1;
    for (int k : neighbours(current))
      if (k != previous) next = k;
    if (next < 0) break;
    order.push_back(next);
    previous = current, current = next;
  }
  if (order.size() != component.joints.size()) return;  // cannot happen for a connected component
  component.joints = std::move(order);
  component.is_chain = true;
}

void JointGraph::root_tree(const KktSystem& system, JointComponent& component) {
  const auto unary_rows = [&](int b) {
    int rows = 0;
    for (int j : unary_[b]) rows += sides_[j].rows;
    return rows;
  };
  // The root keeps only its unary rows, every other body its parent joint's too: rooting at the body
  // with the most unary rows (attached to the world) keeps the largest elimination smallest.
  component.root = component.bodies.front();
  for (int b : component.bodies)
    if (unary_rows(b) > unary_rows(component.root)) component.root = b;

  std::vector<int> order{component.root};  // root first
  for (std::size_t head = 0; head < order.size(); ++head) {
    const int b = order[head];
    for (int j : joints_of_body_[b]) {
      const int child = other_body(system.joints[j], b);
      // Unary, cut (header), or the joint back up: with the cut joints out there are no parallel ones.
      if (child < 0 || cut_[j] || child == parent_[b]) continue;
      parent_[child] = b, parent_joint_[child] = j;
      order.push_back(child);
    }
  }
  component.leaves_first.assign(order.rbegin(), order.rend());
  for (int b : component.bodies) {
    const int rows = unary_rows(b) + (parent_joint_[b] >= 0 ? sides_[parent_joint_[b]].rows : 0);
    if (rows > kBodyDofs) {
      component.overfull_body = b;
      return;
    }
  }
  component.is_tree = component.cycles == 0;
  component.spanning_tree_fits = component.cycles > 0;
}

}  // namespace affix
