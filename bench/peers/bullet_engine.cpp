// Bullet 3.24 (Debian's libbullet-dev, its double-precision build: bullet-float64.pc defines
// BT_USE_DOUBLE_PRECISION and links the -float64 libraries) in maximal coordinates:
// btDiscreteDynamicsWorld with btSequentialImpulseConstraintSolver at its defaults (10 iterations,
// split impulse off, ERP 0.2, sleeping on), each body a btRigidBody with a btBoxShape or btSphereShape,
// ball joints btPoint2PointConstraint and hinges btHingeConstraint with collisions between the joined
// bodies disabled (collide_connected false); the scene's collision filters by ModelOverlapFilter.
// Translation choices: bench/peers/README.md.
#include "bullet_common.hpp"

#include <cmath>
#include <memory>
#include <vector>

#include "affix/error.hpp"
#include "engine.hpp"
#include "primitives.hpp"

namespace affix::peers {

namespace {

class BulletEngine final : public Engine {
 public:
  explicit BulletEngine(const BenchInput& input)
      : dispatcher_(&configuration_),
        world_(&dispatcher_, &broadphase_, &solver_, &configuration_),
        filter_(input.model),
        h_(input.model.settings.dt) {
    const Model& model = input.model;
    require_primitives(input.scene);
    if (has_collision_filters(model)) world_.getPairCache()->setOverlapFilterCallback(&filter_);
    world_.setGravity(bt(model.settings.gravity));
    if (model.ground) {
      auto shape = std::make_unique<btStaticPlaneShape>(btVector3(0, 0, 1), model.ground->height);
      auto body = std::make_unique<btRigidBody>(0.0, nullptr, shape.get());
      // Bullet multiplies the two friction coefficients of a contact; affix takes their geometric mean,
      // which the product of the square roots is.
      body->setFriction(std::sqrt(model.ground->friction));
      world_.addRigidBody(body.get());
      shapes_.push_back(std::move(shape));
      bodies_.push_back(std::move(body));
    }
    ground_offset_ = bodies_.size();
    for (std::size_t i = 0; i < model.bodies.size(); ++i) add_body(input.scene.bodies[i], model.bodies[i], i);
    for (std::size_t k = 0; k < model.joints.size(); ++k) add_joint(model, k);
  }

  ~BulletEngine() override {
    for (auto& c : constraints_) world_.removeConstraint(c.get());
    for (auto& b : bodies_) world_.removeRigidBody(b.get());
  }

  void step() override { world_.stepSimulation(h_, 0); }  // maxSubSteps 0: one step of exactly h

  void poses(std::vector<BodyPose>& out) const override {
    for (std::size_t i = 0; i < out.size(); ++i) {
      const btTransform& t = bodies_[ground_offset_ + i]->getWorldTransform();
      const btVector3& o = t.getOrigin();
      out[i].p = {o.x(), o.y(), o.z()};
      const btMatrix3x3& r = t.getBasis();
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) out[i].A(a, b) = r[a][b];
      }
    }
  }

 private:
  void add_body(const BodyDef& def, const ModelBody& body, std::size_t index) {
    if (body.kinematic) {
      throw InputError("bodies[" + std::to_string(index) + "].kinematic: bench/peers drives no prescribed motion");
    }
    std::unique_ptr<btCollisionShape> collision = bullet_shape(*primitive_of(def));
    // Bullet's body frame is the centre of mass on the principal axes; a centred box or sphere has both
    // at its origin and rest axes, so the model's inertia is diagonal there.
    const double mass = body.fixed ? 0.0 : body.mass;
    const btVector3 inertia = body.fixed ? btVector3(0, 0, 0) : bt(Vec3(body.inertia.diagonal()));
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, collision.get(), inertia);
    info.m_startWorldTransform = btTransform(bt(body.rotation), bt(body.position));
    info.m_friction = std::sqrt(body.friction);
    auto rigid = std::make_unique<btRigidBody>(info);
    rigid->setUserIndex(static_cast<int>(index));  // for ModelOverlapFilter
    rigid->setLinearVelocity(bt(body.velocity));
    rigid->setAngularVelocity(bt(body.angular_velocity));
    world_.addRigidBody(rigid.get());
    shapes_.push_back(std::move(collision));
    bodies_.push_back(std::move(rigid));
  }

  void add_joint(const Model& model, std::size_t k) {
    const ModelJoint& joint = model.joints[k];
    btRigidBody& a = *bodies_[ground_offset_ + static_cast<std::size_t>(joint.body1)];
    btRigidBody* b = joint.body2 >= 0 ? bodies_[ground_offset_ + static_cast<std::size_t>(joint.body2)].get() : nullptr;
    std::unique_ptr<btTypedConstraint> constraint;
    const btVector3 pivot_a = bt(joint.frame1.origin), pivot_b = bt(joint.frame2.origin);
    if (joint.def.type == JointType::ball) {
      constraint = b ? std::make_unique<btPoint2PointConstraint>(a, *b, pivot_a, pivot_b)
                     : std::make_unique<btPoint2PointConstraint>(a, pivot_a);
    } else if (joint.def.type == JointType::hinge && !joint.def.angle_limits) {
      const btVector3 axis_a = bt(Vec3(joint.frame1.axes.col(0))), axis_b = bt(Vec3(joint.frame2.axes.col(0)));
      constraint = b ? std::make_unique<btHingeConstraint>(a, *b, pivot_a, pivot_b, axis_a, axis_b)
                     : std::make_unique<btHingeConstraint>(a, pivot_a, axis_a);
    } else {
      throw InputError("joints[" + std::to_string(k) + "].type: bench/peers translates ball joints and hinges without limits");
    }
    world_.addConstraint(constraint.get(), !joint.def.collide_connected);
    constraints_.push_back(std::move(constraint));
  }

  btDefaultCollisionConfiguration configuration_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btDiscreteDynamicsWorld world_;
  ModelOverlapFilter filter_;
  double h_;
  std::size_t ground_offset_ = 0;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::vector<std::unique_ptr<btTypedConstraint>> constraints_;
};

}  // namespace

std::unique_ptr<Engine> make_bullet(const BenchInput& input) { return std::make_unique<BulletEngine>(input); }

}  // namespace affix::peers
