// Bullet 3.24 (double precision, as bullet_engine.cpp) in reduced coordinates: each tree of the joint
// graph a btMultiBody (Featherstone's articulated-body algorithm) in a btMultiBodyDynamicsWorld with
// btMultiBodyConstraintSolver at its defaults (10 iterations). A tree hung from the world gets a fixed
// base at the world origin; one with a fixed body gets that body as its fixed base; any other a
// floating base (its first body in model order). Ball joints become spherical links, hinges revolute
// links, each link's collision with its parent disabled and self-collision on (affix lets a chain's
// non-neighbours touch). A joint that closes a loop (the nets, the Peaucellier linkage) is refused: the
// maximal-coordinate mode (bullet_engine.cpp) runs those. A scene without joints is refused too — a
// btMultiBody of no links is the rigid-body mode again. Translation choices: bench/peers/README.md.
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <cmath>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "affix/error.hpp"
#include "bullet_common.hpp"
#include "engine.hpp"
#include "primitives.hpp"

namespace affix::peers {

namespace {

/// One btMultiBody: its base (a model body, or −1: a fixed base at the world origin) and its links in
/// breadth-first order, each with its parent link (−1: the base) and the joint that made it a link.
struct Tree {
  int base = -1;
  bool fixed = false;
  std::vector<int> links, parent, joint;
};

/// The joint graph's trees; throws InputError for what a btMultiBody cannot hold.
std::vector<Tree> joint_trees(const Model& model) {
  const int n = static_cast<int>(model.bodies.size());
  if (model.joints.empty()) {
    throw InputError("joints: none; btMultiBody adds nothing to Bullet's rigid-body mode for a scene without joints");
  }
  std::vector<std::vector<int>> joints_of(static_cast<std::size_t>(n));
  std::vector<int> to_world;
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const ModelJoint& joint = model.joints[k];
    const std::string path = "joints[" + std::to_string(k) + "]";
    if (!(joint.def.type == JointType::ball || (joint.def.type == JointType::hinge && !joint.def.angle_limits))) {
      throw InputError(path + ".type: bench/peers translates ball joints and hinges without limits");
    }
    if (joint.def.collide_connected) throw InputError(path + ".collide_connected: a btMultiBody link never meets its parent");
    joints_of[static_cast<std::size_t>(joint.body1)].push_back(static_cast<int>(k));
    if (joint.body2 >= 0) joints_of[static_cast<std::size_t>(joint.body2)].push_back(static_cast<int>(k));
  }
  for (int i = 0; i < n; ++i) {
    if (model.bodies[static_cast<std::size_t>(i)].kinematic) {
      throw InputError("bodies[" + std::to_string(i) + "].kinematic: bench/peers drives no prescribed motion");
    }
  }
  std::vector<bool> reached(static_cast<std::size_t>(n), false), used(model.joints.size(), false);
  std::vector<int> link_of(static_cast<std::size_t>(n), -1);  // index in its tree's links; −1 the base
  std::vector<Tree> trees;
  const auto loop = [&](int k) {
    return InputError("joints[" + std::to_string(k) + "]: closes a loop; btMultiBody takes trees only (Bullet's "
                      "maximal-coordinate mode runs this scene)");
  };
  const auto grow = [&](Tree& tree, std::deque<int> queue) {
    while (!queue.empty()) {
      const int b = queue.front();
      queue.pop_front();
      for (const int k : joints_of[static_cast<std::size_t>(b)]) {
        if (used[static_cast<std::size_t>(k)]) continue;
        used[static_cast<std::size_t>(k)] = true;
        const ModelJoint& joint = model.joints[static_cast<std::size_t>(k)];
        const int other = joint.body1 == b ? joint.body2 : joint.body1;
        if (other < 0 || reached[static_cast<std::size_t>(other)]) throw loop(k);
        if (model.bodies[static_cast<std::size_t>(other)].fixed) throw loop(k);  // a second fixed point
        const ModelBody& body = model.bodies[static_cast<std::size_t>(other)];
        if (body.velocity.squaredNorm() > 0.0 || body.angular_velocity.squaredNorm() > 0.0) {
          throw InputError("bodies[" + std::to_string(other) + "].velocity: a link's initial velocity is not translated to btMultiBody");
        }
        reached[static_cast<std::size_t>(other)] = true;
        link_of[static_cast<std::size_t>(other)] = static_cast<int>(tree.links.size());
        tree.links.push_back(other);
        tree.parent.push_back(b == tree.base ? -1 : link_of[static_cast<std::size_t>(b)]);
        tree.joint.push_back(k);
        queue.push_back(other);
      }
    }
  };
  // Trees hung from the world: one fixed base for all the world's joints would make any two of them a
  // single tree, so each world joint roots its own btMultiBody; a path between two of them is a loop.
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const ModelJoint& joint = model.joints[k];
    if (joint.body2 >= 0) continue;
    if (reached[static_cast<std::size_t>(joint.body1)] || model.bodies[static_cast<std::size_t>(joint.body1)].fixed) {
      throw loop(static_cast<int>(k));
    }
    Tree tree;
    tree.fixed = true;
    used[k] = reached[static_cast<std::size_t>(joint.body1)] = true;
    link_of[static_cast<std::size_t>(joint.body1)] = 0;
    tree.links = {joint.body1};
    tree.parent = {-1};
    tree.joint = {static_cast<int>(k)};
    grow(tree, {joint.body1});
    trees.push_back(std::move(tree));
  }
  // Then fixed bodies, then the rest, as bases in model order.
  for (const bool fixed : {true, false}) {
    for (int i = 0; i < n; ++i) {
      if (reached[static_cast<std::size_t>(i)] || model.bodies[static_cast<std::size_t>(i)].fixed != fixed) continue;
      Tree tree;
      tree.base = i;
      tree.fixed = fixed;
      reached[static_cast<std::size_t>(i)] = true;
      grow(tree, {i});
      trees.push_back(std::move(tree));
    }
  }
  return trees;
}

class BulletMultiBodyEngine final : public Engine {
 public:
  explicit BulletMultiBodyEngine(const BenchInput& input)
      : dispatcher_(&configuration_),
        world_(&dispatcher_, &broadphase_, &solver_, &configuration_),
        filter_(input.model),
        model_(input.model),
        h_(input.model.settings.dt),
        collider_of_(input.model.bodies.size(), nullptr) {
    require_primitives(input.scene);
    const std::vector<Tree> trees = joint_trees(model_);
    for (std::size_t i = 0; i < model_.bodies.size(); ++i) {
      const Vec3 diagonal = model_.bodies[i].inertia.diagonal();
      if ((model_.bodies[i].inertia - Mat3(diagonal.asDiagonal())).norm() > 1e-12 * diagonal.norm()) {
        throw InputError("bodies[" + std::to_string(i) + "].shape: a btMultiBody link's inertia is diagonal in its frame");
      }
    }
    world_.setGravity(bt(model_.settings.gravity));
    if (has_collision_filters(model_)) world_.getPairCache()->setOverlapFilterCallback(&filter_);
    if (model_.ground) {
      ground_shape_ = std::make_unique<btStaticPlaneShape>(btVector3(0, 0, 1), model_.ground->height);
      ground_ = std::make_unique<btRigidBody>(0.0, nullptr, ground_shape_.get());
      ground_->setFriction(std::sqrt(model_.ground->friction));  // Bullet multiplies the two (bullet_engine.cpp)
      world_.addRigidBody(ground_.get());
    }
    for (const Tree& tree : trees) add_tree(input.scene, tree);
    check_start();
  }

  ~BulletMultiBodyEngine() override {
    for (auto& collider : colliders_) world_.removeCollisionObject(collider.get());
    for (auto& body : multibodies_) world_.removeMultiBody(body.get());
    if (ground_) world_.removeRigidBody(ground_.get());
  }

  void step() override { world_.stepSimulation(h_, 0); }  // one step of exactly h, as the rigid-body mode

  void poses(std::vector<BodyPose>& out) const override {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = pose(i);
  }

 private:
  /// A body's pose from its collider, whose frame is the link frame: the centre of mass on the body's axes.
  BodyPose pose(std::size_t i) const {
    const btTransform& t = collider_of_[i]->getWorldTransform();
    BodyPose p;
    p.A = from_bt(t.getBasis());
    p.p = from_bt(t.getOrigin()) - p.A * model_.bodies[i].center_of_mass;
    return p;
  }

  Vec3 com(int body) const {
    const ModelBody& b = model_.bodies[static_cast<std::size_t>(body)];
    return b.position + b.rotation * b.center_of_mass;
  }

  void add_tree(const Scene& scene, const Tree& tree) {
    const int links = static_cast<int>(tree.links.size());
    const ModelBody* base = tree.base >= 0 ? &model_.bodies[static_cast<std::size_t>(tree.base)] : nullptr;
    auto mb = std::make_unique<btMultiBody>(links, base ? base->mass : 0.0,
                                            base ? bt(Vec3(base->inertia.diagonal())) : btVector3(0, 0, 0), tree.fixed,
                                            /*canSleep=*/false);
    // A fixed base without a body sits at the world origin on the world's axes.
    const Mat3 base_R = base ? base->rotation : Mat3::Identity();
    const Vec3 base_c = base ? com(tree.base) : Vec3::Zero();
    mb->setBaseWorldTransform(btTransform(bt(base_R), bt(base_c)));
    if (base && !tree.fixed) {
      mb->setBaseVel(bt(base->velocity));
      mb->setBaseOmega(bt(base->angular_velocity));
    }
    for (int l = 0; l < links; ++l) {
      const int c = tree.links[static_cast<std::size_t>(l)];
      const int parent_link = tree.parent[static_cast<std::size_t>(l)];
      const int p = parent_link < 0 ? tree.base : tree.links[static_cast<std::size_t>(parent_link)];
      const ModelBody& child = model_.bodies[static_cast<std::size_t>(c)];
      const Mat3 R_p = p >= 0 ? model_.bodies[static_cast<std::size_t>(p)].rotation : base_R;
      const Vec3 c_p = p >= 0 ? com(p) : base_c;
      const ModelJoint& joint = model_.joints[static_cast<std::size_t>(tree.joint[static_cast<std::size_t>(l)])];
      const JointFrame& frame = joint.body1 == c ? joint.frame1 : joint.frame2;
      const Vec3 anchor = child.position + child.rotation * frame.origin;  // world
      // Bullet's rotParentToThis maps parent-frame coordinates to this link's at q = 0: R_cᵀR_p; the
      // pivot offsets are from the parent's centre of mass (parent axes) and to this one's (its axes).
      btQuaternion parent_to_this;
      bt(Mat3(child.rotation.transpose() * R_p)).getRotation(parent_to_this);
      const btVector3 from_parent = bt(Vec3(R_p.transpose() * (anchor - c_p)));
      const btVector3 to_com = bt(Vec3(child.rotation.transpose() * (com(c) - anchor)));
      const btVector3 inertia = bt(Vec3(child.inertia.diagonal()));
      if (joint.def.type == JointType::ball) {
        mb->setupSpherical(l, child.mass, inertia, parent_link, parent_to_this, from_parent, to_com, true);
      } else {
        mb->setupRevolute(l, child.mass, inertia, parent_link, parent_to_this, bt(Vec3(frame.axes.col(0))), from_parent,
                          to_com, true);
      }
    }
    mb->finalizeMultiDof();
    mb->setHasSelfCollision(true);  // affix's non-neighbour links collide
    world_.addMultiBody(mb.get());
    if (base) add_collider(scene, *mb, -1, tree.base, tree.fixed);
    for (int l = 0; l < links; ++l) add_collider(scene, *mb, l, tree.links[static_cast<std::size_t>(l)], false);
    multibodies_.push_back(std::move(mb));
  }

  void add_collider(const Scene& scene, btMultiBody& mb, int link, int body, bool fixed) {
    auto shape = bullet_shape(*primitive_of(scene.bodies[static_cast<std::size_t>(body)]));
    auto collider = std::make_unique<btMultiBodyLinkCollider>(&mb, link);
    collider->setCollisionShape(shape.get());
    const ModelBody& b = model_.bodies[static_cast<std::size_t>(body)];
    collider->setWorldTransform(btTransform(bt(b.rotation), bt(com(body))));
    collider->setFriction(std::sqrt(b.friction));
    collider->setUserIndex(body);  // for ModelOverlapFilter
    const int group = fixed ? btBroadphaseProxy::StaticFilter : btBroadphaseProxy::DefaultFilter;
    const int mask = fixed ? btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter : btBroadphaseProxy::AllFilter;
    world_.addCollisionObject(collider.get(), group, mask);
    if (link < 0) {
      mb.setBaseCollider(collider.get());
    } else {
      mb.getLink(link).m_collider = collider.get();
    }
    collider_of_[static_cast<std::size_t>(body)] = collider.get();
    colliders_.push_back(std::move(collider));
    shapes_.push_back(std::move(shape));
  }

  /// The translation's own check: Bullet's forward kinematics at q = 0 must put every body where the
  /// model starts it (a wrong frame convention would otherwise show up only as a strange row).
  void check_start() {
    btAlignedObjectArray<btQuaternion> world_to_local;
    btAlignedObjectArray<btVector3> local_origin;
    for (auto& mb : multibodies_) {
      mb->forwardKinematics(world_to_local, local_origin);
      mb->updateCollisionObjectWorldTransforms(world_to_local, local_origin);
    }
    for (std::size_t i = 0; i < model_.bodies.size(); ++i) {
      const BodyPose p = pose(i);
      const ModelBody& b = model_.bodies[i];
      const double scale = 1.0 + b.position.norm();
      if ((p.p - b.position).norm() > 1e-9 * scale || (p.A - b.rotation).norm() > 1e-9) {
        throw std::logic_error("btMultiBody starts body " + b.name + " away from its model pose");
      }
    }
  }

  btDefaultCollisionConfiguration configuration_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btMultiBodyConstraintSolver solver_;
  btMultiBodyDynamicsWorld world_;
  ModelOverlapFilter filter_;
  const Model& model_;
  double h_;
  std::unique_ptr<btCollisionShape> ground_shape_;
  std::unique_ptr<btRigidBody> ground_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btMultiBodyLinkCollider>> colliders_;
  std::vector<std::unique_ptr<btMultiBody>> multibodies_;
  std::vector<btMultiBodyLinkCollider*> collider_of_;  // model order
};

}  // namespace

std::unique_ptr<Engine> make_bullet_multibody(const BenchInput& input) {
  return std::make_unique<BulletMultiBodyEngine>(input);
}

}  // namespace affix::peers
