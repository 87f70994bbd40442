#include "affix/solvers/contact/contact_stencils.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "affix/energy/barrier.hpp"

#include "affix/distance/distance_type.hpp"
#include "affix/distance/edge_edge.hpp"
#include "affix/distance/edge_edge_mollifier.hpp"
#include "affix/distance/point_line.hpp"
#include "affix/distance/point_plane.hpp"
#include "affix/distance/point_point.hpp"

namespace affix {
namespace {

StencilVertex sv(int body, int vertex) { return {body, vertex}; }

ContactStencil point_point(StencilVertex a, StencilVertex b) {
  if (b < a) std::swap(a, b);
  return {StencilForm::point_point, 2, {a, b, {}, {}}};
}
ContactStencil point_line(StencilVertex p, StencilVertex e0, StencilVertex e1) {
  if (e1 < e0) std::swap(e0, e1);
  return {StencilForm::point_line, 3, {p, e0, e1, {}}};
}

/// Reduces a vertex–face candidate to its closest feature pair.
ContactStencil reduce_vertex_face(const AffineBody& fb, const ContactCandidate& c, const WorldVertices& x) {
  const auto& f = fb.mesh->faces[c.prim_b];
  const StencilVertex p = sv(c.body_a, c.prim_a);
  const StencilVertex t[3] = {sv(c.body_b, f[0]), sv(c.body_b, f[1]), sv(c.body_b, f[2])};
  const auto& xb = x[c.body_b];
  switch (point_triangle_distance_type(x[c.body_a][c.prim_a], xb[f[0]], xb[f[1]], xb[f[2]])) {
    case PointTriangleDistanceType::P_T0: return point_point(p, t[0]);
    case PointTriangleDistanceType::P_T1: return point_point(p, t[1]);
    case PointTriangleDistanceType::P_T2: return point_point(p, t[2]);
    case PointTriangleDistanceType::P_E0: return point_line(p, t[0], t[1]);
    case PointTriangleDistanceType::P_E1: return point_line(p, t[1], t[2]);
    case PointTriangleDistanceType::P_E2: return point_line(p, t[2], t[0]);
    case PointTriangleDistanceType::P_T: {
      std::array<StencilVertex, 3> sorted{t[0], t[1], t[2]};
      std::sort(sorted.begin(), sorted.end());
      return {StencilForm::point_plane, 4, {p, sorted[0], sorted[1], sorted[2]}};
    }
  }
  return {};
}

/// Reduces an edge–edge candidate. Interior–interior pairs, and every pair whose mollifier is active
/// (nearly parallel edges), stay edge–edge so that the mollified energy is continuous across type
/// boundaries (Li 2020 §4.3); the others become the point–point or point–line they are.
ContactStencil reduce_edge_edge(const AffineBody& a, const AffineBody& b,
                                const std::array<int, 2>& ea, const std::array<int, 2>& eb,
                                const ContactCandidate& c, const WorldVertices& x) {
  const StencilVertex a0 = sv(c.body_a, ea[0]), a1 = sv(c.body_a, ea[1]);
  const StencilVertex b0 = sv(c.body_b, eb[0]), b1 = sv(c.body_b, eb[1]);
  const Vec3& xa0 = x[c.body_a][ea[0]];
  const Vec3& xa1 = x[c.body_a][ea[1]];
  const Vec3& xb0 = x[c.body_b][eb[0]];
  const Vec3& xb1 = x[c.body_b][eb[1]];
  const EdgeEdgeDistanceType type = edge_edge_distance_type(xa0, xa1, xb0, xb1);
  // The mollifier's threshold uses rest lengths (Li 2020 §4.3): constant for the run.
  const auto& ra = a.mesh->vertices;
  const auto& rb = b.mesh->vertices;
  const double eps_x = edge_edge_mollifier_threshold(ra[ea[0]], ra[ea[1]], rb[eb[0]], rb[eb[1]]);
  if (type == EdgeEdgeDistanceType::EA_EB || edge_edge_cross_squarednorm(xa0, xa1, xb0, xb1) < eps_x)
    return {StencilForm::edge_edge, 4, {a0, a1, b0, b1}, eps_x, type};
  switch (type) {
    case EdgeEdgeDistanceType::EA0_EB0: return point_point(a0, b0);
    case EdgeEdgeDistanceType::EA0_EB1: return point_point(a0, b1);
    case EdgeEdgeDistanceType::EA1_EB0: return point_point(a1, b0);
    case EdgeEdgeDistanceType::EA1_EB1: return point_point(a1, b1);
    case EdgeEdgeDistanceType::EA_EB0: return point_line(b0, a0, a1);
    case EdgeEdgeDistanceType::EA_EB1: return point_line(b1, a0, a1);
    case EdgeEdgeDistanceType::EA0_EB: return point_line(a0, b0, b1);
    case EdgeEdgeDistanceType::EA1_EB: return point_line(a1, b0, b1);
    case EdgeEdgeDistanceType::EA_EB: break;
  }
  return {};
}

}  // namespace

ContactStencil reduce_candidate(const std::vector<AffineBody>& bodies,
                                const std::vector<std::vector<std::array<int, 2>>>& edges,
                                const ContactCandidate& c, const WorldVertices& x) {
  return c.kind == CandidateKind::vertex_face
             ? reduce_vertex_face(bodies[c.body_b], c, x)
             : reduce_edge_edge(bodies[c.body_a], bodies[c.body_b], edges[c.body_a][c.prim_a],
                                edges[c.body_b][c.prim_b], c, x);
}

void merge_stencils(std::vector<ContactStencil>& stencils) {
  std::sort(stencils.begin(), stencils.end());
  std::size_t kept = 0;
  for (std::size_t k = 0; k < stencils.size(); ++k) {
    if (kept > 0 && stencils[kept - 1] == stencils[k]) {
      stencils[kept - 1].multiplicity += stencils[k].multiplicity;
    } else {
      stencils[kept++] = stencils[k];
    }
  }
  stencils.resize(kept);
}

std::vector<ContactStencil> active_stencils(const std::vector<AffineBody>& bodies,
                                            const std::vector<std::vector<std::array<int, 2>>>& edges,
                                            const std::vector<ContactCandidate>& candidates,
                                            const WorldVertices& x, double dhat) {
  std::vector<ContactStencil> reduced(candidates.size());
  std::vector<char> active(candidates.size(), 0);
  tbb::parallel_for(0, static_cast<int>(candidates.size()), [&](int k) {
    reduced[k] = reduce_candidate(bodies, edges, candidates[k], x);
    active[k] = stencil_squared_distance_value(reduced[k], stencil_positions(reduced[k], x)) < dhat * dhat;
  });
  std::vector<ContactStencil> out;
  for (std::size_t k = 0; k < candidates.size(); ++k)
    if (active[k]) out.push_back(reduced[k]);
  merge_stencils(out);
  return out;
}

Vec12 stencil_positions(const ContactStencil& s, const WorldVertices& x) {
  Vec12 p = Vec12::Zero();
  for (int k = 0; k < s.count; ++k) p.segment<3>(3 * k) = x[s.v[k].body][s.v[k].vertex];
  return p;
}

double stencil_squared_distance_value(const ContactStencil& s, const Vec12& x) {
  const Vec3 x0 = x.segment<3>(0), x1 = x.segment<3>(3), x2 = x.segment<3>(6), x3 = x.segment<3>(9);
  switch (s.form) {
    case StencilForm::point_point: return point_point_distance(x0, x1);
    case StencilForm::point_line: return point_line_distance(x0, x1, x2);
    case StencilForm::point_plane: return point_plane_distance(x0, x1, x2, x3);
    case StencilForm::edge_edge: return edge_edge_distance(x0, x1, x2, x3, s.edge_type);
  }
  return 0.0;
}

StencilDerivatives stencil_squared_distance(const ContactStencil& s, const Vec12& x) {
  StencilDerivatives d;
  const Vec3 x0 = x.segment<3>(0), x1 = x.segment<3>(3), x2 = x.segment<3>(6), x3 = x.segment<3>(9);
  switch (s.form) {
    case StencilForm::point_point:
      d.value = point_point_distance(x0, x1);
      d.gradient.head<6>() = point_point_distance_gradient(x0, x1);
      d.hessian.topLeftCorner<6, 6>() = point_point_distance_hessian(x0, x1);
      break;
    case StencilForm::point_line:
      d.value = point_line_distance(x0, x1, x2);
      d.gradient.head<9>() = point_line_distance_gradient(x0, x1, x2);
      d.hessian.topLeftCorner<9, 9>() = point_line_distance_hessian(x0, x1, x2);
      break;
    case StencilForm::point_plane:
      d.value = point_plane_distance(x0, x1, x2, x3);
      d.gradient = point_plane_distance_gradient(x0, x1, x2, x3);
      d.hessian = point_plane_distance_hessian(x0, x1, x2, x3);
      break;
    case StencilForm::edge_edge:
      d.value = edge_edge_distance(x0, x1, x2, x3, s.edge_type);
      d.gradient = edge_edge_distance_gradient(x0, x1, x2, x3, s.edge_type);
      d.hessian = edge_edge_distance_hessian(x0, x1, x2, x3, s.edge_type);
      break;
  }
  return d;
}

double stencil_barrier_value(const ContactStencil& s, const Vec12& x, double squared_distance, double dhat,
                             double kappa) {
  const double d = std::sqrt(squared_distance);
  if (d >= dhat) return 0.0;
  const double value = s.multiplicity * kappa * barrier(d, dhat);
  if (s.form != StencilForm::edge_edge) return value;
  return value * edge_edge_mollifier(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9),
                                     s.mollifier_threshold);
}

StencilDerivatives stencil_barrier(const ContactStencil& s, const Vec12& x, double dhat, double kappa) {
  const StencilDerivatives d = stencil_squared_distance(s, x);
  const StencilDerivatives b =
      barrier_of_squared_distance(d.value, d.gradient, d.hessian, dhat, s.multiplicity * kappa);
  if (s.form != StencilForm::edge_edge || b.value == 0.0) return b;
  const Vec3 a0 = x.segment<3>(0), a1 = x.segment<3>(3), b0 = x.segment<3>(6), b1 = x.segment<3>(9);
  StencilDerivatives m;
  m.value = edge_edge_mollifier(a0, a1, b0, b1, s.mollifier_threshold);
  if (m.value == 1.0) return b;
  m.gradient = edge_edge_mollifier_gradient(a0, a1, b0, b1, s.mollifier_threshold);
  m.hessian = edge_edge_mollifier_hessian(a0, a1, b0, b1, s.mollifier_threshold);
  return mollified(b, m);
}

std::array<double, 4> stencil_closest_point_weights(const ContactStencil& s, const Vec12& x) {
  const Vec3 x0 = x.segment<3>(0), x1 = x.segment<3>(3), x2 = x.segment<3>(6), x3 = x.segment<3>(9);
  switch (s.form) {
    case StencilForm::point_point:
      return {1.0, -1.0, 0.0, 0.0};
    case StencilForm::point_line: {
      const Vec3 e = x2 - x1;
      const double t = std::clamp(e.dot(x0 - x1) / e.squaredNorm(), 0.0, 1.0);
      return {1.0, -(1.0 - t), -t, 0.0};
    }
    case StencilForm::point_plane: {
      // Barycentric coordinates of the projection of x0 onto the triangle (x1, x2, x3).
      const Vec3 e1 = x2 - x1, e2 = x3 - x1, w = x0 - x1;
      const double a = e1.dot(e1), b = e1.dot(e2), c = e2.dot(e2), d = e1.dot(w), f = e2.dot(w);
      const double det = a * c - b * b;
      const double beta1 = (c * d - b * f) / det, beta2 = (a * f - b * d) / det;
      return {1.0, -(1.0 - beta1 - beta2), -beta1, -beta2};
    }
    case StencilForm::edge_edge: {
      // Closest points of the two segments, clamped (robust for parallel edges): the weights of the
      // typed distance's features.
      const Vec3 ea = x1 - x0, eb = x3 - x2, w = x0 - x2;
      const double a = ea.dot(ea), b = ea.dot(eb), c = eb.dot(eb), d = ea.dot(w), e = eb.dot(w);
      const double det = a * c - b * b;
      double sa = det > 1e-12 * a * c ? std::clamp((b * e - c * d) / det, 0.0, 1.0) : 0.0;
      double sb = std::clamp((b * sa + e) / c, 0.0, 1.0);
      sa = std::clamp((b * sb - d) / a, 0.0, 1.0);
      return {1.0 - sa, sa, -(1.0 - sb), -sb};
    }
  }
  return {};
}

}  // namespace affix
