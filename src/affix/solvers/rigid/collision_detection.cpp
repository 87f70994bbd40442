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
#include <iostream>
#include <unordered_map>

#include "affix/solvers/rigid/convex_pieces.hpp"

namespace affix {
namespace {

/// A piece's FCL geometry (convex_pieces.hpp), in its own frame: a box or sphere about its centre, a
/// hull in the body's rest frame. FCL's Convex without faces searches its vertices linearly for the
/// support point, which is the hull's support point whatever their arrangement, so no hull is built.
std::shared_ptr<fcl::CollisionGeometryd> fcl_geometry(const ConvexPiece& piece) {
  switch (piece.kind) {
    case ConvexPiece::Kind::box: return std::make_shared<fcl::Boxd>(piece.size);
    case ConvexPiece::Kind::sphere: return std::make_shared<fcl::Sphered>(piece.radius);
    case ConvexPiece::Kind::hull: break;
  }
  auto points = std::make_shared<std::vector<fcl::Vector3d>>(piece.points.begin(), piece.points.end());
  return std::make_shared<fcl::Convexd>(points, 0, std::make_shared<std::vector<int>>());
}

/// One shape's pieces with their FCL geometries, shared by every body that has the shape.
struct ShapePieces {
  std::vector<ConvexPiece> pieces;
  std::vector<std::shared_ptr<fcl::CollisionGeometryd>> geometries;
};

}  // namespace

struct CollisionDetection::Impl {
  const Model* model = nullptr;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;  // per piece, bodies in model order
  std::vector<int> body_of;                                     // per piece
  std::vector<const ConvexPiece*> piece_of;                     // per piece
  std::vector<int> first_piece;                                 // per body, and one past the last
  std::vector<std::shared_ptr<const ShapePieces>> shapes;       // kept alive for piece_of
  fcl::DynamicAABBTreeCollisionManagerd manager;
  bool registered = false;
  fcl::CollisionRequestd request;
  fcl::CollisionResultd result;
  std::vector<RigidContact>* out = nullptr;
  std::vector<int> order;  // speculative pairs: pieces by their AABB's lowest x (sweep and prune)

  /// FCL's broad-phase callback: the narrow phase of one candidate pair of pieces.
  static bool pair(fcl::CollisionObjectd* a, fcl::CollisionObjectd* b, void* data) {
    auto& self = *static_cast<Impl*>(data);
    int i = self.body_of[static_cast<int>(reinterpret_cast<std::intptr_t>(a->getUserData()))];
    int j = self.body_of[static_cast<int>(reinterpret_cast<std::intptr_t>(b->getUserData()))];
    if (i == j || !self.model->may_collide(i, j)) return false;  // a body's pieces never collide
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
  Impl& m = *impl_;
  m.model = &model;
  m.request.enable_contact = true;
  m.request.num_max_contacts = 4;
  // Pieces are made once per distinct mesh (a 10⁶-link chain has one capsule: the model shares it among
  // the bodies with that shape).
  std::unordered_map<const TriangleMesh*, std::shared_ptr<const ShapePieces>> made;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const ModelBody& body = model.bodies[i];
    auto [found, inserted] = made.try_emplace(body.mesh.get());
    if (inserted) {
      ConvexPieces pieces = convex_pieces(*body.mesh);
      if (pieces.hull_of_concave)
        std::cerr << "affix: warning: " << model.file.string() << ": body '" << body.name
                  << "': its mesh is not convex (and not a torus), and the impulse and compliant solvers collide "
                     "each connected part of it as that part's convex hull (README, The impulse solver: contact)\n";
      auto shape = std::make_shared<ShapePieces>();
      for (const ConvexPiece& piece : pieces.pieces) shape->geometries.push_back(fcl_geometry(piece));
      shape->pieces = std::move(pieces.pieces);
      found->second = std::move(shape);
      m.shapes.push_back(found->second);
    }
    m.first_piece.push_back(static_cast<int>(m.objects.size()));
    const ShapePieces& shape = *found->second;
    for (std::size_t k = 0; k < shape.pieces.size(); ++k) {
      auto object = std::make_unique<fcl::CollisionObjectd>(shape.geometries[k]);
      object->setUserData(reinterpret_cast<void*>(static_cast<std::intptr_t>(m.objects.size())));
      m.objects.push_back(std::move(object));
      m.body_of.push_back(static_cast<int>(i));
      m.piece_of.push_back(&shape.pieces[k]);
    }
  }
  m.first_piece.push_back(static_cast<int>(m.objects.size()));
}

CollisionDetection::~CollisionDetection() = default;
CollisionDetection::CollisionDetection(CollisionDetection&&) noexcept = default;
CollisionDetection& CollisionDetection::operator=(CollisionDetection&&) noexcept = default;

void CollisionDetection::detect(const std::vector<RigidPose>& poses, std::vector<RigidContact>& out, double margin,
                                double pair_margin) {
  Impl& m = *impl_;
  const Model& model = *m.model;
  out.clear();
  // Each piece at its body's pose: the rest frame's origin at c − R c̄ (rigid_body.hpp), the piece's
  // own frame (box, sphere) placed in the rest frame.
  const int n_bodies = static_cast<int>(m.first_piece.size()) - 1;
  for (int i = 0; i < n_bodies; ++i) {
    const RigidPose& pose = poses[i];
    const Vec3 origin = pose.c - pose.R * model.bodies[i].center_of_mass;
    for (int k = m.first_piece[i]; k < m.first_piece[i + 1]; ++k) {
      const ConvexPiece& piece = *m.piece_of[k];
      m.objects[k]->setTransform(pose.R * piece.rotation, origin + pose.R * piece.center);
      m.objects[k]->computeAABB();
    }
  }
  if (model.ground) {
    const double height = model.ground->height;
    const auto touch = [&](int body, const Vec3& lowest) {
      if (lowest.z() < height + margin)
        out.push_back({body, -1, Vec3(lowest.x(), lowest.y(), 0.5 * (lowest.z() + height)), Vec3::UnitZ(),
                       height - lowest.z()});
    };
    for (int i = 0; i < n_bodies; ++i) {
      if (model.bodies[i].is_dirichlet()) continue;
      const RigidPose& pose = poses[i];
      const Vec3 origin = pose.c - pose.R * model.bodies[i].center_of_mass;
      for (int k = m.first_piece[i]; k < m.first_piece[i + 1]; ++k) {
        // A cheap reject: the whole piece above the plane.
        if (m.objects[k]->getAABB().min_.z() > height + margin) continue;
        const ConvexPiece& piece = *m.piece_of[k];
        if (piece.kind == ConvexPiece::Kind::sphere) {
          touch(i, origin + pose.R * piece.center - piece.radius * Vec3::UnitZ());
        } else {
          for (const Vec3& x : piece.surface) touch(i, pose.R * x + origin);
        }
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
  const int n = static_cast<int>(m.objects.size());  // pieces
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
      const int pa = m.order[a], pb = m.order[b], ba = m.body_of[pa], bb = m.body_of[pb];
      const int i = std::min(ba, bb), j = std::max(ba, bb);
      const int pi = ba < bb ? pa : pb, pj = ba < bb ? pb : pa;
      if (i == j || !m.model->may_collide(i, j) ||
          (m.model->bodies[i].is_dirichlet() && m.model->bodies[j].is_dirichlet()))
        continue;
      const bool touching = std::any_of(out.begin(), out.begin() + overlapping,
                                        [&](const RigidContact& c) { return c.body1 == i && c.body2 == j; });
      if (touching) continue;
      result.clear();
      const double d = fcl::distance(m.objects[pi].get(), m.objects[pj].get(), request, result);
      if (!(d > 0.0) || d >= pair_margin) continue;
      const Vec3 on_i = result.nearest_points[0], on_j = result.nearest_points[1];
      const Vec3 n = (on_i - on_j) / d;
      // The manifold, not one nearest point (two parallel faces touch along an area, and one row lets the
      // top body turn about it): body i moved by s = d + 1% across the gap overlaps j by ~1%, and FCL's
      // overlap test gives its points; each is then read back at the true poses, its depth less s.
      const double shift = 1.01 * d;
      fcl::CollisionObjectd& moved = *m.objects[pi];
      const fcl::Transform3d at = moved.getTransform();
      fcl::Transform3d across = at;
      across.translation() -= shift * n;
      moved.setTransform(across);
      moved.computeAABB();
      m.result.clear();
      fcl::collide(&moved, m.objects[pj].get(), m.request, m.result);
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
