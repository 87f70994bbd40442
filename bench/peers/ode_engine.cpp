// ODE 0.16.2 (Debian's libode-dev, built in double precision: ode.pc says precision=dDOUBLE and the
// library reports ODE_double_precision) in its two steppers: dWorldStep (a dense direct solve of the
// whole constraint system, O(m³) in the constraint rows m) and dWorldQuickStep (projected Gauss-Seidel,
// 20 iterations by default). World ERP 0.2 and CFM 1e-10 (ODE's double-precision defaults); a hash
// space; up to 4 contact points per geom pair, Coulomb friction with the geometric mean of the two
// coefficients (dContactApprox1: without it ODE reads mu as a force bound in newtons, not a
// coefficient), no bounce. Joined bodies do not collide (dAreConnectedExcluding), nor do bodies the
// scene's collision filters keep apart (Model::may_collide in the near callback). A compound body is one
// ODE body with a geom per part at its offset (dGeomSetBody + dGeomSetOffsetPosition/Rotation); a
// cylinder is dCreateCylinder, whose axis is checked to be z (affix's) before it is used. Translation
// choices: bench/peers/README.md.
#include <ode/ode.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "affix/error.hpp"
#include "engine.hpp"
#include "geom_parts.hpp"

namespace affix::peers {

namespace {

constexpr int kMaxContacts = 4;

/// dInitODE2 once per process (the harness builds each engine in a child process of its own).
void init_ode() {
  static const bool done = [] { return dInitODE2(0) != 0; }();
  (void)done;
}

/// ODE's documentation puts dCreateCylinder's axis along the geom's z axis, as affix's CylinderShape;
/// checked rather than assumed: a cylinder of radius 1 and length 4 at rest must have the box
/// [−1, 1]² × [−2, 2] as its bounds.
void check_cylinder_axis() {
  static const bool along_z = [] {
    dGeomID cylinder = dCreateCylinder(nullptr, 1.0, 4.0);
    dReal bounds[6];
    dGeomGetAABB(cylinder, bounds);
    dGeomDestroy(cylinder);
    const dReal expected[6] = {-1, 1, -1, 1, -2, 2};
    for (int i = 0; i < 6; ++i) {
      if (std::abs(bounds[i] - expected[i]) > 1e-9) return false;
    }
    return true;
  }();
  if (!along_z) throw std::runtime_error("ODE's dCreateCylinder is not along z: its translation would be wrong");
}

/// A row-major 3 × 4 ODE rotation from an Eigen one.
void to_ode(const Mat3& R, dMatrix3 out) {
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) out[4 * a + b] = R(a, b);
    out[4 * a + 3] = 0;
  }
}

class OdeEngine final : public Engine {
 public:
  OdeEngine(const BenchInput& input, bool quick) : quick_(quick), h_(input.model.settings.dt), model_(input.model) {
    init_ode();
    const Model& model = input.model;
    world_ = dWorldCreate();
    space_ = dHashSpaceCreate(nullptr);
    contacts_ = dJointGroupCreate(0);
    const Vec3& g = model.settings.gravity;
    dWorldSetGravity(world_, g.x(), g.y(), g.z());
    if (model.ground) {
      dGeomID plane = dCreatePlane(space_, 0, 0, 1, model.ground->height);
      dGeomSetData(plane, &ground_);
      ground_ = {model.ground->friction, -1};
    }
    surfaces_.resize(model.bodies.size());
    for (std::size_t i = 0; i < model.bodies.size(); ++i) add_body(input.scene, model.bodies[i], i);
    for (std::size_t k = 0; k < model.joints.size(); ++k) add_joint(model, k);
  }

  ~OdeEngine() override {
    dJointGroupDestroy(contacts_);
    dSpaceDestroy(space_);
    dWorldDestroy(world_);
  }

  void step() override {
    dSpaceCollide(space_, this, &OdeEngine::near_callback);
    // Both return 0, leaving the world as it was, when they cannot allocate their working memory (a
    // dense dWorldStep of tens of thousands of rows): that is a failed step, not a still scene.
    const int stepped = quick_ ? dWorldQuickStep(world_, h_) : dWorldStep(world_, h_);
    dJointGroupEmpty(contacts_);
    if (!stepped) {
      throw std::runtime_error(std::string(quick_ ? "dWorldQuickStep" : "dWorldStep") +
                               " could not allocate its working memory");
    }
  }

  void poses(std::vector<BodyPose>& out) const override {
    for (std::size_t i = 0; i < out.size(); ++i) {
      dBodyID rigid = bodies_[i];
      if (!rigid) {  // fixed: where it was put
        out[i] = {model_.bodies[i].position, model_.bodies[i].rotation};
        continue;
      }
      const dReal* p = dBodyGetPosition(rigid);  // the centre of mass
      const dReal* r = dBodyGetRotation(rigid);  // 3 × 4, row-major
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) out[i].A(a, b) = r[4 * a + b];
      }
      // The model's origin: x = c − R c̄, with c̄ the centre of mass in the rest frame.
      out[i].p = Vec3(p[0], p[1], p[2]) - out[i].A * model_.bodies[i].center_of_mass;
    }
  }

 private:
  void add_body(const Scene& scene, const ModelBody& body, std::size_t index) {
    if (body.kinematic) {
      throw InputError("bodies[" + std::to_string(index) + "].kinematic: bench/peers drives no prescribed motion");
    }
    const std::vector<GeomPart> parts = geom_parts(scene, index);
    surfaces_[index] = {body.friction, static_cast<int>(index)};
    dBodyID rigid = nullptr;
    if (!body.fixed) {  // a fixed body is static geoms: no ODE body
      // ODE puts a body's reference point at its centre of mass (its dMass centre must be 0), so the
      // body sits at x + R c̄ and its geoms at their offsets from c̄.
      rigid = dBodyCreate(world_);
      dMass mass;
      const Mat3& I = body.inertia;  // about the centre of mass, rest axes
      dMassSetParameters(&mass, body.mass, 0, 0, 0, I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2));
      dBodySetMass(rigid, &mass);
      const Vec3 c = body.position + body.rotation * body.center_of_mass;
      dBodySetPosition(rigid, c.x(), c.y(), c.z());
      dMatrix3 rotation;
      to_ode(body.rotation, rotation);
      dBodySetRotation(rigid, rotation);
      // The model's velocity is the origin's; the centre of mass moves with v + ω × R c̄.
      const Vec3 v = body.velocity + body.angular_velocity.cross(body.rotation * body.center_of_mass);
      dBodySetLinearVel(rigid, v.x(), v.y(), v.z());
      dBodySetAngularVel(rigid, body.angular_velocity.x(), body.angular_velocity.y(), body.angular_velocity.z());
    }
    bodies_.push_back(rigid);
    for (const GeomPart& part : parts) {
      dGeomID geom = nullptr;
      switch (part.kind) {
        case GeomPart::Kind::box: geom = dCreateBox(space_, part.size.x(), part.size.y(), part.size.z()); break;
        case GeomPart::Kind::sphere: geom = dCreateSphere(space_, part.radius); break;
        // ODE's capsule and cylinder lie along z with the cylinder's length, as affix's.
        case GeomPart::Kind::capsule: geom = dCreateCapsule(space_, part.radius, part.length); break;
        case GeomPart::Kind::cylinder:
          check_cylinder_axis();
          geom = dCreateCylinder(space_, part.radius, part.length);
          break;
      }
      dGeomSetData(geom, &surfaces_[index]);
      dMatrix3 rotation;
      if (rigid) {
        dGeomSetBody(geom, rigid);
        const Vec3 offset = part.position - body.center_of_mass;
        dGeomSetOffsetPosition(geom, offset.x(), offset.y(), offset.z());
        to_ode(part.rotation, rotation);
        dGeomSetOffsetRotation(geom, rotation);
      } else {
        const Vec3 p = body.position + body.rotation * part.position;
        dGeomSetPosition(geom, p.x(), p.y(), p.z());
        to_ode(body.rotation * part.rotation, rotation);
        dGeomSetRotation(geom, rotation);
      }
    }
  }

  void add_joint(const Model& model, std::size_t k) {
    const ModelJoint& joint = model.joints[k];
    const JointDef& def = joint.def;
    dBodyID a = bodies_[static_cast<std::size_t>(joint.body1)];
    dBodyID b = joint.body2 >= 0 ? bodies_[static_cast<std::size_t>(joint.body2)] : nullptr;
    if (def.type == JointType::ball) {
      dJointID j = dJointCreateBall(world_, nullptr);
      dJointAttach(j, a, b);
      dJointSetBallAnchor(j, def.anchor.x(), def.anchor.y(), def.anchor.z());
    } else if (def.type == JointType::hinge && !def.angle_limits) {
      dJointID j = dJointCreateHinge(world_, nullptr);
      dJointAttach(j, a, b);
      dJointSetHingeAnchor(j, def.anchor.x(), def.anchor.y(), def.anchor.z());
      dJointSetHingeAxis(j, def.axis.x(), def.axis.y(), def.axis.z());
    } else {
      throw InputError("joints[" + std::to_string(k) + "].type: bench/peers translates ball joints and hinges without limits");
    }
    if (def.collide_connected) {
      throw InputError("joints[" + std::to_string(k) + "].collide_connected: ODE's harness keeps joined bodies apart");
    }
  }

  static void near_callback(void* data, dGeomID g1, dGeomID g2) {
    auto& self = *static_cast<OdeEngine*>(data);
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    if (!b1 && !b2) return;
    if (b1 == b2) return;  // two parts of one compound body
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    const Surface& s1 = *static_cast<const Surface*>(dGeomGetData(g1));
    const Surface& s2 = *static_cast<const Surface*>(dGeomGetData(g2));
    if (s1.body >= 0 && s2.body >= 0 && !self.model_.may_collide(s1.body, s2.body)) return;  // collision filters
    dContact contact[kMaxContacts];
    const int n = dCollide(g1, g2, kMaxContacts, &contact[0].geom, sizeof(dContact));
    const double mu = std::sqrt(s1.friction * s2.friction);
    for (int i = 0; i < n; ++i) {
      contact[i].surface.mode = dContactApprox1;
      contact[i].surface.mu = mu;
      dJointID c = dJointCreateContact(self.world_, self.contacts_, &contact[i]);
      dJointAttach(c, b1, b2);
    }
  }

  /// A geom's data: its friction coefficient and model body (−1: the ground).
  struct Surface {
    double friction = 0.5;
    int body = -1;
  };

  bool quick_;
  double h_;
  const Model& model_;
  dWorldID world_ = nullptr;
  dSpaceID space_ = nullptr;
  dJointGroupID contacts_ = nullptr;
  Surface ground_;
  std::vector<Surface> surfaces_;  // the geoms' data, model order
  std::vector<dBodyID> bodies_;   // model order; nullptr for fixed bodies
};

}  // namespace

std::unique_ptr<Engine> make_ode(const BenchInput& input, bool quick) {
  return std::make_unique<OdeEngine>(input, quick);
}

}  // namespace affix::peers
