#include "affix/solvers/rigid/collision_detection.hpp"

#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace affix {
namespace {

enum class Kind { sphere, polytope };

/// How a body meets the ground (header): its lowest points.
struct GroundShape {
  Kind kind = Kind::polytope;
  double radius = 0.0;  ///< sphere
};

/// The body's FCL shape from its rest-frame mesh (header): the exact box or sphere where the mesh is
/// one (a box: the 8 corners of its bounding box, centred on the origin, are vertices, so its hull is
/// that box; a sphere: at least 26 vertices, all at one distance R from the origin, the poles (0, 0, ±R)
/// among them — how SphereShape is meshed), else the convex hull of its vertices.
std::shared_ptr<fcl::CollisionGeometryd> fcl_shape(const ModelBody& body, GroundShape& ground) {
  const std::vector<Vec3>& vertices = body.mesh->vertices;
  Vec3 lo = vertices.front(), hi = vertices.front();
  for (const Vec3& x : vertices) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  const double scale = (hi - lo).norm(), tol = 1e-9 * scale;
  const auto has_vertex = [&](const Vec3& p) {
    return std::any_of(vertices.begin(), vertices.end(), [&](const Vec3& x) { return (x - p).norm() <= tol; });
  };
  if ((lo + hi).norm() <= tol) {
    bool corners = true;
    for (int k = 0; k < 8 && corners; ++k)
      corners = has_vertex(Vec3(k & 1 ? hi.x() : lo.x(), k & 2 ? hi.y() : lo.y(), k & 4 ? hi.z() : lo.z()));
    if (corners) return std::make_shared<fcl::Boxd>(hi - lo);
    const double R = hi.z();
    const bool round = vertices.size() >= 26 && has_vertex(R * Vec3::UnitZ()) && has_vertex(-R * Vec3::UnitZ()) &&
                       std::all_of(vertices.begin(), vertices.end(), [&](const Vec3& x) { return std::abs(x.norm() - R) <= tol; });
    if (round) {
      ground = {Kind::sphere, R};
      return std::make_shared<fcl::Sphered>(R);
    }
  }
  // The convex hull of the surface: FCL's Convex without faces searches its vertices linearly for the
  // support point, which is the hull's support point whatever the mesh's shape.
  auto points = std::make_shared<std::vector<fcl::Vector3d>>(vertices.begin(), vertices.end());
  return std::make_shared<fcl::Convexd>(points, 0, std::make_shared<std::vector<int>>());
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
  std::vector<int> order;  // speculative pairs: bodies by their AABB's lowest x (sweep and prune)

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

void CollisionDetection::detect(const std::vector<RigidPose>& poses, std::vector<RigidContact>& out, double margin,
                                double pair_margin) {
  Impl& m = *impl_;
  const Model& model = *m.model;
  out.clear();
  // Each body's rest frame at its pose: the origin at c − R c̄ (rigid_body.hpp).
  for (std::size_t i = 0; i < m.objects.size(); ++i) {
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
    for (std::size_t i = 0; i < m.objects.size(); ++i) {
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
  if (pair_margin > 0.0) near_pairs(pair_margin);
}

void CollisionDetection::near_pairs(double pair_margin) {
  Impl& m = *impl_;
  std::vector<RigidContact>& out = *m.out;
  const std::size_t overlapping = out.size();
  const int n = static_cast<int>(m.objects.size());
  m.order.resize(n);
  for (int i = 0; i < n; ++i) m.order[i] = i;
  const auto aabb = [&](int i) -> const fcl::AABBd& { return m.objects[i]->getAABB(); };
  std::sort(m.order.begin(), m.order.end(), [&](int a, int b) { return aabb(a).min_.x() < aabb(b).min_.x(); });
  fcl::DistanceRequestd request(true);
  fcl::DistanceResultd result;
  for (int a = 0; a < n; ++a) {
    const fcl::AABBd& A = aabb(m.order[a]);
    for (int b = a + 1; b < n && aabb(m.order[b]).min_.x() <= A.max_.x() + pair_margin; ++b) {
      const fcl::AABBd& B = aabb(m.order[b]);
      if (B.min_.y() > A.max_.y() + pair_margin || A.min_.y() > B.max_.y() + pair_margin ||
          B.min_.z() > A.max_.z() + pair_margin || A.min_.z() > B.max_.z() + pair_margin)
        continue;
      const int i = std::min(m.order[a], m.order[b]), j = std::max(m.order[a], m.order[b]);
      if (!m.model->may_collide(i, j) || (m.model->bodies[i].is_dirichlet() && m.model->bodies[j].is_dirichlet()))
        continue;
      const bool touching = std::any_of(out.begin(), out.begin() + overlapping,
                                        [&](const RigidContact& c) { return c.body1 == i && c.body2 == j; });
      if (touching) continue;
      result.clear();
      const double d = fcl::distance(m.objects[i].get(), m.objects[j].get(), request, result);
      if (!(d > 0.0) || d >= pair_margin) continue;
      const Vec3 on_i = result.nearest_points[0], on_j = result.nearest_points[1];
      const Vec3 n = (on_i - on_j) / d;
      // The manifold, not one nearest point (two parallel faces touch along an area, and one row lets the
      // top body turn about it): body i moved by s = d + 1% across the gap overlaps j by ~1%, and FCL's
      // overlap test gives its points; each is then read back at the true poses, its depth less s.
      const double shift = 1.01 * d;
      fcl::CollisionObjectd& moved = *m.objects[i];
      const fcl::Transform3d at = moved.getTransform();
      fcl::Transform3d across = at;
      across.translation() -= shift * n;
      moved.setTransform(across);
      moved.computeAABB();
      m.result.clear();
      fcl::collide(&moved, m.objects[j].get(), m.request, m.result);
      moved.setTransform(at);
      moved.computeAABB();
      if (m.result.numContacts() == 0) {
        out.push_back({i, j, 0.5 * (on_i + on_j), n, -d});
        continue;
      }
      for (std::size_t k = 0; k < m.result.numContacts(); ++k) {
        const fcl::Contactd& c = m.result.getContact(k);
        const Vec3 normal = -c.normal.normalized();
        out.push_back({i, j, Vec3(c.pos + 0.5 * shift * n), normal, c.penetration_depth - shift * normal.dot(n)});
      }
    }
  }
}

}  // namespace affix
