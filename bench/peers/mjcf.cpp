#include "mjcf.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <iomanip>
#include <set>
#include <sstream>

#include <Eigen/Geometry>

#include "affix/error.hpp"
#include "primitives.hpp"

namespace affix::peers {

namespace {

struct Node {
  int parent = -1;        ///< model body; −1 the world (or no parent: a free root)
  int joint = -1;         ///< the joint that made it a child; −1 none
  int depth = 0;
  bool free = false;      ///< a freejoint
  std::vector<int> children;
};

std::string vec(const Vec3& v) {
  std::ostringstream s;
  s << std::setprecision(17) << v.x() << ' ' << v.y() << ' ' << v.z();
  return s.str();
}

std::string quat(const Mat3& R) {
  const Quat q(R);
  std::ostringstream s;
  s << std::setprecision(17) << q.w() << ' ' << q.x() << ' ' << q.y() << ' ' << q.z();
  return s.str();
}

std::string name(int body) { return "b" + std::to_string(body); }

constexpr int kAllBits = 0x7fffffff;        // MuJoCo's contype and conaffinity are (signed) ints
constexpr int kMaxFilteredBodies = 2000;    // filter_exclusions compares every pair

class Writer {
 public:
  explicit Writer(const BenchInput& input) : input_(input), model_(input.model), nodes_(input.model.bodies.size()) {}

  Mjcf write() {
    require_primitives(input_.scene);
    build_tree();
    filter_exclusions();
    std::ostringstream x;
    x << std::setprecision(17);
    const Settings& settings = model_.settings;
    const std::size_t n = model_.bodies.size();
    // Refused up front rather than loaded for minutes and then dropped: the connect rows alone must fit
    // the rows MuJoCo 2.2 can allocate here (below), and the Newton solver's dense Hessian the memory.
    if (3 * loops_.size() > kMaxRows) {
      const double gb = 12.0 * 9.0 * static_cast<double>(loops_.size() * loops_.size()) / 1e9;
      throw InputError("joints: " + std::to_string(loops_.size()) + " joints close loops, " +
                       std::to_string(3 * loops_.size()) + " connect rows; MuJoCo 2.2 is given at most " +
                       std::to_string(kMaxRows) + " (its njmax x njmax arrays would take " + std::to_string(std::lround(gb)) +
                       " GB at that many)");
    }
    const std::size_t rows = std::min<std::size_t>(3 * loops_.size() + (model_.ground ? 16 : 8) * n + 100, kMaxRows);
    // The stack, which 2.2 would size far larger by default (5 GB for the 1000-link chain): room for
    // the Newton solver's dense nv × nv Hessian and a few njmax × nv Jacobians.
    const std::size_t nv = dofs(), stack = 3 * (nv * nv + rows * nv) + 1'000'000;
    x << "<mujoco model=\"affix\">\n"
      << "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
      << "  <option timestep=\"" << settings.dt << "\" gravity=\"" << vec(settings.gravity)
      << "\" solver=\"Newton\"/>\n"
      // MuJoCo 2.2 allocates its constraint rows up front, and some of its arrays are njmax × njmax
      // (efc_AR): room for every connect (3 rows) and 4 contacts per body on a ground, 2 without one
      // (pyramidal cones: 4 rows each), but at most kMaxRows, which keeps those arrays near 1 GB. A scene that needs more rows than that
      // overflows (MuJoCo warns and drops constraints), and the measures show it.
      << "  <size njmax=\"" << rows << "\" nconmax=\"" << 8 * n + 100 << "\" nstack=\"" << stack << "\"/>\n"
      << "  <worldbody>\n";
    if (model_.ground) {
      x << "    <geom type=\"plane\" size=\"0 0 1\" pos=\"0 0 " << model_.ground->height << "\" friction=\""
        << model_.ground->friction << " 0.005 0.0001\"";
      if (filtered_) x << " contype=\"" << kAllBits << "\" conaffinity=\"" << kAllBits << "\"";  // the ground meets all
      x << "/>\n";
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (nodes_[i].parent < 0) write_body(x, static_cast<int>(i), 2);
    }
    x << "  </worldbody>\n";
    if (!loops_.empty()) {
      x << "  <equality>\n";
      for (const int k : loops_) {
        const ModelJoint& joint = model_.joints[static_cast<std::size_t>(k)];
        x << "    <connect body1=\"" << name(joint.body1) << "\"";
        if (joint.body2 >= 0) x << " body2=\"" << name(joint.body2) << "\"";
        x << " anchor=\"" << vec(joint.frame1.origin) << "\"/>\n";
      }
      x << "  </equality>\n";
    }
    // One exclusion per pair: those joined by a connect, and those the collision filters keep apart.
    std::set<std::pair<int, int>> excluded(filter_pairs_.begin(), filter_pairs_.end());
    for (const int k : loops_) {
      const ModelJoint& joint = model_.joints[static_cast<std::size_t>(k)];
      if (joint.body2 >= 0 && !joint.def.collide_connected) {
        excluded.insert({std::min(joint.body1, joint.body2), std::max(joint.body1, joint.body2)});
      }
    }
    if (!excluded.empty()) {
      x << "  <contact>\n";
      for (const auto& [i, j] : excluded) x << "    <exclude body1=\"" << name(i) << "\" body2=\"" << name(j) << "\"/>\n";
      x << "  </contact>\n";
    }
    x << "</mujoco>\n";
    Mjcf out;
    out.xml = x.str();
    for (std::size_t i = 0; i < n; ++i) {
      if (nodes_[i].free) out.free_bodies.push_back(static_cast<int>(i));
    }
    out.connects = static_cast<int>(loops_.size());
    return out;
  }

 private:
  /// Breadth-first from the world, then from each body not yet reached.
  void build_tree() {
    const int n = static_cast<int>(model_.bodies.size());
    std::vector<std::vector<int>> joints_of(static_cast<std::size_t>(n));
    std::vector<int> to_world;
    for (std::size_t k = 0; k < model_.joints.size(); ++k) {
      const ModelJoint& joint = model_.joints[k];
      const JointType type = joint.def.type;
      if (!(type == JointType::ball || (type == JointType::hinge && !joint.def.angle_limits))) {
        throw InputError(path(k) + ".type: bench/peers translates ball joints and hinges without limits");
      }
      if (joint.def.collide_connected) throw InputError(path(k) + ".collide_connected: not translated to MuJoCo");
      joints_of[static_cast<std::size_t>(joint.body1)].push_back(static_cast<int>(k));
      if (joint.body2 >= 0) joints_of[static_cast<std::size_t>(joint.body2)].push_back(static_cast<int>(k));
      else to_world.push_back(static_cast<int>(k));
    }
    std::vector<bool> reached(static_cast<std::size_t>(n), false), used(model_.joints.size(), false);
    std::deque<int> queue;
    for (const int k : to_world) {
      const int b = model_.joints[static_cast<std::size_t>(k)].body1;
      if (reached[static_cast<std::size_t>(b)] || model_.bodies[static_cast<std::size_t>(b)].fixed) continue;
      reached[static_cast<std::size_t>(b)] = used[static_cast<std::size_t>(k)] = true;
      nodes_[static_cast<std::size_t>(b)] = {-1, k, 0, false, {}};
      queue.push_back(b);
    }
    const auto drain = [&] {
      while (!queue.empty()) {
        const int b = queue.front();
        queue.pop_front();
        for (const int k : joints_of[static_cast<std::size_t>(b)]) {
          const ModelJoint& joint = model_.joints[static_cast<std::size_t>(k)];
          const int other = joint.body1 == b ? joint.body2 : joint.body1;
          if (used[static_cast<std::size_t>(k)] || reached[static_cast<std::size_t>(other)] ||
              model_.bodies[static_cast<std::size_t>(other)].fixed) {
            continue;
          }
          const int depth = nodes_[static_cast<std::size_t>(b)].depth + 1;
          if (depth > kMaxDepth) continue;  // left to a loop constraint; `other` roots a new subtree
          used[static_cast<std::size_t>(k)] = reached[static_cast<std::size_t>(other)] = true;
          nodes_[static_cast<std::size_t>(other)] = {b, k, depth, false, {}};
          nodes_[static_cast<std::size_t>(b)].children.push_back(other);
          queue.push_back(other);
        }
      }
    };
    drain();
    // Free roots in model order; a body cut off by kMaxDepth may come before the root that found it,
    // so the pass repeats until every body is reached.
    for (bool again = true; again;) {
      again = false;
      for (int root = 0; root < n; ++root) {
        if (reached[static_cast<std::size_t>(root)]) continue;
        reached[static_cast<std::size_t>(root)] = again = true;
        nodes_[static_cast<std::size_t>(root)].free = !model_.bodies[static_cast<std::size_t>(root)].fixed;
        queue.push_back(root);
        drain();
      }
    }
    for (std::size_t k = 0; k < model_.joints.size(); ++k) {
      if (used[k]) continue;
      // A hinge that closes a loop becomes a connect too (its anchor; MuJoCo 2.2 has no hinge
      // equality). Exact when the tree's own hinges keep the two bodies' axes parallel, as in a planar
      // linkage whose hinges are all parallel (the Peaucellier linkage); otherwise its axis is free,
      // and the joint gap (anchors only) would not show it, so that is refused.
      if (model_.joints[k].def.type == JointType::hinge && !planar_hinges()) {
        throw InputError(path(k) + ": a hinge that closes a loop is translated to MuJoCo only where every joint is a "
                                   "hinge about one axis (a planar linkage)");
      }
      loops_.push_back(static_cast<int>(k));
    }
    for (std::size_t i = 0; i < model_.bodies.size(); ++i) {
      const ModelBody& body = model_.bodies[i];
      if (body.kinematic) throw InputError("bodies[" + std::to_string(i) + "].kinematic: not translated to MuJoCo");
      const bool moving = body.velocity.squaredNorm() > 0.0 || body.angular_velocity.squaredNorm() > 0.0;
      if (moving && !nodes_[i].free) {
        throw InputError("bodies[" + std::to_string(i) + "].velocity: a jointed body's initial velocity is not translated to MuJoCo");
      }
    }
  }

  /// Every joint a hinge, all about parallel world axes: the tree keeps every body turning about that
  /// axis alone, so a connect at a loop's hinge anchor is the hinge.
  bool planar_hinges() const {
    for (const ModelJoint& joint : model_.joints) {
      if (joint.def.type != JointType::hinge) return false;
      const ModelBody& body = model_.bodies[static_cast<std::size_t>(joint.body1)];
      const Vec3 axis = body.rotation * joint.frame1.axes.col(0);
      const ModelBody& first = model_.bodies[static_cast<std::size_t>(model_.joints[0].body1)];
      if (axis.cross(first.rotation * model_.joints[0].frame1.axes.col(0)).norm() > 1e-9) return false;
    }
    return true;
  }

  /// Pairs the scene's collision filters keep apart that MuJoCo's rule would let touch: affix needs
  /// each body's group in the other's mask (both ways), MuJoCo either way ((contype₁ & conaffinity₂) or
  /// (contype₂ & conaffinity₁)); the difference is written as explicit exclusions. Joined pairs are
  /// already excluded or filtered as parent and child.
  void filter_exclusions() {
    for (const ModelBody& body : model_.bodies) {
      if (body.collision.group != CollisionFilter{}.group || body.collision.mask != CollisionFilter{}.mask) filtered_ = true;
    }
    if (!filtered_) return;
    const int n = static_cast<int>(model_.bodies.size());
    if (n > kMaxFilteredBodies) {
      throw InputError("bodies[0].collision: bench/peers translates collision filters to MuJoCo for at most " +
                       std::to_string(kMaxFilteredBodies) + " bodies (pair by pair)");
    }
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        const CollisionFilter& a = model_.bodies[static_cast<std::size_t>(i)].collision;
        const CollisionFilter& b = model_.bodies[static_cast<std::size_t>(j)].collision;
        const bool mujoco = (a.group & b.mask & kAllBits) != 0 || (b.group & a.mask & kAllBits) != 0;
        const bool affix = (a.group & b.mask) != 0 && (b.group & a.mask) != 0;
        if (mujoco && !affix) filter_pairs_.push_back({i, j});
      }
    }
  }

  /// Degrees of freedom of the tree: 3 per ball joint, 1 per hinge, 6 per free body.
  std::size_t dofs() const {
    std::size_t nv = 0;
    for (const Node& node : nodes_) {
      if (node.free) nv += 6;
      if (node.joint >= 0) nv += model_.joints[static_cast<std::size_t>(node.joint)].def.type == JointType::ball ? 3 : 1;
    }
    return nv;
  }

  std::string path(std::size_t k) const { return "joints[" + std::to_string(k) + "]"; }

  void write_body(std::ostringstream& x, int b, int indent) {
    const ModelBody& body = model_.bodies[static_cast<std::size_t>(b)];
    const Node& node = nodes_[static_cast<std::size_t>(b)];
    const std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
    // Position and orientation relative to the parent's frame (the world's for a root).
    Vec3 p = body.position;
    Mat3 R = body.rotation;
    if (node.parent >= 0) {
      const ModelBody& parent = model_.bodies[static_cast<std::size_t>(node.parent)];
      p = parent.rotation.transpose() * (body.position - parent.position);
      R = parent.rotation.transpose() * body.rotation;
    }
    x << pad << "<body name=\"" << name(b) << "\" pos=\"" << vec(p) << "\" quat=\"" << quat(R) << "\">\n";
    if (node.free) x << pad << "  <freejoint/>\n";
    if (node.joint >= 0) {
      const ModelJoint& joint = model_.joints[static_cast<std::size_t>(node.joint)];
      const JointFrame& frame = joint.body1 == b ? joint.frame1 : joint.frame2;
      if (joint.def.type == JointType::ball) {
        x << pad << "  <joint type=\"ball\" pos=\"" << vec(frame.origin) << "\"/>\n";
      } else {
        x << pad << "  <joint type=\"hinge\" pos=\"" << vec(frame.origin) << "\" axis=\"" << vec(frame.axes.col(0)) << "\"/>\n";
      }
    }
    const Mat3& I = body.inertia;
    x << pad << "  <inertial pos=\"" << vec(body.center_of_mass) << "\" mass=\"" << body.mass << "\" fullinertia=\""
      << I(0, 0) << ' ' << I(1, 1) << ' ' << I(2, 2) << ' ' << I(0, 1) << ' ' << I(0, 2) << ' ' << I(1, 2) << "\"/>\n";
    const Primitive shape = *primitive_of(input_.scene.bodies[static_cast<std::size_t>(b)]);
    if (shape.kind == Primitive::Kind::box) {
      x << pad << "  <geom type=\"box\" size=\"" << vec(shape.half) << "\"";
    } else if (shape.kind == Primitive::Kind::sphere) {
      x << pad << "  <geom type=\"sphere\" size=\"" << shape.radius << "\"";
    } else {  // MuJoCo's capsule is along its z axis, size radius and half the cylinder's length, as affix's
      x << pad << "  <geom type=\"capsule\" size=\"" << shape.radius << ' ' << shape.half_length << "\"";
    }
    if (filtered_) {
      x << " contype=\"" << (body.collision.group & kAllBits) << "\" conaffinity=\"" << (body.collision.mask & kAllBits) << "\"";
    }
    x << " friction=\"" << body.friction << " 0.005 0.0001\"/>\n";
    for (const int child : node.children) write_body(x, child, indent + 1);
    x << pad << "</body>\n";
  }

  const BenchInput& input_;
  const Model& model_;
  std::vector<Node> nodes_;
  std::vector<int> loops_;
  bool filtered_ = false;                         ///< some body has a collision filter of its own
  std::vector<std::pair<int, int>> filter_pairs_;  ///< excluded for the filters (filter_exclusions)
};

}  // namespace

Mjcf write_mjcf(const BenchInput& input) { return Writer(input).write(); }

}  // namespace affix::peers
