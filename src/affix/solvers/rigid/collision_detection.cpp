#include "affix/solvers/rigid/collision_detection.hpp"

#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>

#include <cstdint>
#include <type_traits>
#include <variant>

namespace affix {
namespace {

enum class Kind { sphere, capsule, polytope };

/// How a body meets the ground (header): its lowest points.
struct GroundShape {
  Kind kind = Kind::polytope;
  double radius = 0.0;       ///< sphere, capsule
  double half_length = 0.0;  ///< capsule: its cap centres at ±half_length along rest z
};

std::shared_ptr<fcl::CollisionGeometryd> fcl_shape(const ModelBody& body, GroundShape& ground) {
  return std::visit(
      [&](const auto& s) -> std::shared_ptr<fcl::CollisionGeometryd> {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, SphereShape>) {
          ground = {Kind::sphere, s.radius, 0.0};
          return std::make_shared<fcl::Sphered>(s.radius);
        } else if constexpr (std::is_same_v<T, BoxShape>) {
          return std::make_shared<fcl::Boxd>(s.size.x(), s.size.y(), s.size.z());
        } else if constexpr (std::is_same_v<T, CapsuleShape>) {
          ground = {Kind::capsule, s.radius, 0.5 * s.length};
          return std::make_shared<fcl::Capsuled>(s.radius, s.length);
        } else if constexpr (std::is_same_v<T, CylinderShape>) {
          return std::make_shared<fcl::Cylinderd>(s.radius, s.length);
        } else {
          // The convex hull of the surface: FCL's Convex without faces searches its vertices linearly
          // for the support point, which is the hull's support point whatever the mesh's shape.
          auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(body.mesh->vertices.begin(),
                                                                       body.mesh->vertices.end());
          return std::make_shared<fcl::Convexd>(vertices, 0, std::make_shared<std::vector<int>>());
        }
      },
      body.shape);
}

}  // namespace

struct CollisionDetection::Impl {
  const Model* model = nullptr;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;  // per body
  std::vector<GroundShape> ground_shapes;                       // per body
  fcl::DynamicAABBTreeCollisionManagerd manager;
  bool registered = false;
  fcl::CollisionRequestd request;
  fcl::CollisionResultd result;
  std::vector<RigidContact>* out = nullptr;

  /// FCL's broad-phase callback: the narrow phase of one candidate pair.
  static bool pair(fcl::CollisionObjectd* a, fcl::CollisionObjectd* b, void* data) {
    auto& self = *static_cast<Impl*>(data);
    int i = static_cast<int>(reinterpret_cast<std::intptr_t>(a->getUserData()));
    int j = static_cast<int>(reinterpret_cast<std::intptr_t>(b->getUserData()));
    if (!self.model->may_collide(i, j)) return false;
    if (i > j) {
      std::swap(i, j);
      std::swap(a, b);
    }
    self.result.clear();
    fcl::collide(a, b, self.request, self.result);
    for (std::size_t k = 0; k < self.result.numContacts(); ++k) {
      const fcl::Contactd& c = self.result.getContact(k);
      // FCL's normal points from its o1 (body i) to o2 (body j); ours pushes body1 = i out of j.
      self.out->push_back({i, j, c.pos, -c.normal.normalized(), c.penetration_depth});
    }
    return false;  // keep going
  }
};

CollisionDetection::CollisionDetection(const Model& model) : impl_(std::make_unique<Impl>()) {
  impl_->model = &model;
  impl_->request.enable_contact = true;
  impl_->request.num_max_contacts = 4;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    GroundShape ground;
    auto geometry = fcl_shape(model.bodies[i], ground);
    auto object = std::make_unique<fcl::CollisionObjectd>(geometry);
    object->setUserData(reinterpret_cast<void*>(static_cast<std::intptr_t>(i)));
    impl_->objects.push_back(std::move(object));
    impl_->ground_shapes.push_back(ground);
  }
}

CollisionDetection::~CollisionDetection() = default;
CollisionDetection::CollisionDetection(CollisionDetection&&) noexcept = default;
CollisionDetection& CollisionDetection::operator=(CollisionDetection&&) noexcept = default;

void CollisionDetection::detect(const std::vector<RigidPose>& poses, std::vector<RigidContact>& out, double margin) {
  Impl& m = *impl_;
  const Model& model = *m.model;
  out.clear();
  // Each body's rest frame at its pose: the origin at c − R c̄ (rigid_body.hpp).
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const RigidPose& pose = poses[i];
    m.objects[i]->setTransform(pose.R, pose.c - pose.R * model.bodies[i].center_of_mass);
    m.objects[i]->computeAABB();
  }
  if (model.ground) {
    const double height = model.ground->height;
    const auto touch = [&](int body, const Vec3& lowest) {
      if (lowest.z() < height + margin)
        out.push_back({body, -1, Vec3(lowest.x(), lowest.y(), 0.5 * (lowest.z() + height)), Vec3::UnitZ(),
                       height - lowest.z()});
    };
    for (std::size_t i = 0; i < poses.size(); ++i) {
      const ModelBody& body = model.bodies[i];
      if (body.is_dirichlet()) continue;
      // A cheap reject: the whole body above the plane.
      if (m.objects[i]->getAABB().min_.z() > height + margin) continue;
      const RigidPose& pose = poses[i];
      const Vec3 origin = pose.c - pose.R * body.center_of_mass;
      const GroundShape& g = m.ground_shapes[i];
      const int b = static_cast<int>(i);
      if (g.kind == Kind::sphere) {
        touch(b, origin - g.radius * Vec3::UnitZ());
      } else if (g.kind == Kind::capsule) {
        for (const double end : {-g.half_length, g.half_length})
          touch(b, origin + end * pose.R.col(2) - g.radius * Vec3::UnitZ());
      } else {
        for (const Vec3& x : body.mesh->vertices) touch(b, pose.R * x + origin);
      }
    }
  }
  m.out = &out;
  if (!m.registered) {
    std::vector<fcl::CollisionObjectd*> all;
    for (auto& o : m.objects) all.push_back(o.get());
    m.manager.registerObjects(all);
    m.manager.setup();
    m.registered = true;
  } else {
    m.manager.update();
  }
  m.manager.collide(&m, &Impl::pair);
}

}  // namespace affix
