#include "affix/solvers/contact/contact_candidates.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <span>

#include "affix/body/collision_filter.hpp"
#include "affix/geometry/aabb.hpp"
#include "affix/geometry/sweep_and_prune.hpp"
#include "affix/geometry/uniform_grid.hpp"

namespace affix {
namespace {

Aabb overlap(const Aabb& a, const Aabb& b) {
  Aabb o;
  o.min = a.min.cwiseMax(b.min);
  o.max = a.max.cwiseMin(b.max);
  return o;
}

// Below this many query–target tests inside the i-AABB, testing every pair is cheaper than building a
// grid (the common case between small bodies: tens of primitives on each side of the overlap).
constexpr std::size_t kDirectPairs = 4096;

/// Pairs every `queries` box inside `region` with the `targets` boxes inside it that it touches (each
/// pair once, in no particular order: the caller sorts).
template <typename Emit>
void pair_within(const std::vector<Aabb>& queries, const std::vector<Aabb>& targets, const Aabb& region,
                 Emit&& emit) {
  thread_local std::vector<int> inside_q, inside_t;
  inside_q.clear(), inside_t.clear();
  for (int k = 0; k < static_cast<int>(queries.size()); ++k)
    if (queries[k].intersects(region)) inside_q.push_back(k);
  for (int t = 0; t < static_cast<int>(targets.size()); ++t)
    if (targets[t].intersects(region)) inside_t.push_back(t);
  if (inside_q.empty() || inside_t.empty()) return;
  if (inside_q.size() * inside_t.size() <= kDirectPairs) {
    for (int k : inside_q)
      for (int t : inside_t)
        if (queries[k].intersects(targets[t])) emit(k, t);
    return;
  }
  const UniformGrid grid(std::span<const Aabb>(targets), region);
  for (int k : inside_q) {
    grid.for_each_intersecting(queries[k], [&](int t) {
      emit(k, t);
      return false;
    });
  }
}

}  // namespace

Aabb body_box(const std::vector<Vec3>& x0, const std::vector<Vec3>* x1, double margin) {
  Aabb box;
  for (const Vec3& x : x0) box.extend(x);
  if (x1)
    for (const Vec3& x : *x1) box.extend(x);
  box.inflate(margin);
  return box;
}

void primitive_boxes(const AffineBody& body, const std::vector<std::array<int, 2>>& edges,
                     const std::vector<Vec3>& x0, const std::vector<Vec3>* x1, double margin,
                     PrimitiveBoxes& boxes) {
  boxes.vertices.resize(x0.size());
  for (std::size_t v = 0; v < x0.size(); ++v) {
    boxes.vertices[v] = Aabb{};
    boxes.vertices[v].extend(x0[v]);
    if (x1) boxes.vertices[v].extend((*x1)[v]);
    boxes.vertices[v].inflate(margin);
  }
  boxes.edges.resize(edges.size());
  for (std::size_t k = 0; k < edges.size(); ++k) {
    boxes.edges[k] = boxes.vertices[edges[k][0]];
    boxes.edges[k].extend(boxes.vertices[edges[k][1]]);
  }
  const auto& faces = body.mesh->faces;
  boxes.faces.resize(faces.size());
  for (std::size_t k = 0; k < faces.size(); ++k) {
    boxes.faces[k] = boxes.vertices[faces[k][0]];
    boxes.faces[k].extend(boxes.vertices[faces[k][1]]);
    boxes.faces[k].extend(boxes.vertices[faces[k][2]]);
  }
}

void pair_candidates(int a, int b, const Aabb& box_a, const Aabb& box_b, const PrimitiveBoxes& prims_a,
                     const PrimitiveBoxes& prims_b, std::vector<ContactCandidate>& out) {
  const Aabb region = overlap(box_a, box_b);  // the i-AABB
  const std::size_t first = out.size();
  pair_within(prims_a.vertices, prims_b.faces, region,
              [&](int v, int f) { out.push_back({CandidateKind::vertex_face, a, v, b, f}); });
  pair_within(prims_b.vertices, prims_a.faces, region,
              [&](int v, int f) { out.push_back({CandidateKind::vertex_face, b, v, a, f}); });
  pair_within(prims_a.edges, prims_b.edges, region,
              [&](int ea, int eb) { out.push_back({CandidateKind::edge_edge, a, ea, b, eb}); });
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

WorldVertices world_vertices(const std::vector<AffineBody>& bodies, const DofLayout& layout, const VecX& q) {
  WorldVertices x(bodies.size());
  tbb::parallel_for(0, static_cast<int>(bodies.size()), [&](int i) {
    const Vec12 qi = layout.segment<kAffineDofs>(q, i);
    for (const Vec3& x_bar : bodies[i].mesh->vertices) x[i].push_back(world_point(qi, x_bar));
  });
  return x;
}

std::vector<std::vector<std::array<int, 2>>> body_edges(const std::vector<AffineBody>& bodies) {
  std::vector<std::vector<std::array<int, 2>>> edges;
  for (const AffineBody& b : bodies) edges.push_back(mesh_edges(*b.mesh));
  return edges;
}

std::vector<ContactCandidate> find_contact_candidates(
    const std::vector<AffineBody>& bodies, const std::vector<std::vector<std::array<int, 2>>>& edges,
    const WorldVertices& x0, const WorldVertices* x1, double margin) {
  const int n = static_cast<int>(bodies.size());
  std::vector<Aabb> boxes(n);
  tbb::parallel_for(0, n, [&](int i) { boxes[i] = body_box(x0[i], x1 ? &(*x1)[i] : nullptr, margin); });

  std::vector<std::array<int, 2>> body_pairs;
  for_each_overlapping_pair(std::span<const Aabb>(boxes), 0, [&](int i, int j) {
    if (may_collide(bodies, i, j)) body_pairs.push_back({i, j});
    return false;
  });
  if (body_pairs.empty()) return {};
  std::sort(body_pairs.begin(), body_pairs.end());

  // Primitive boxes only for the bodies that have a partner.
  std::vector<int> needed;
  for (const auto& [a, b] : body_pairs) needed.insert(needed.end(), {a, b});
  std::sort(needed.begin(), needed.end());
  needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
  std::vector<PrimitiveBoxes> prims(n);
  tbb::parallel_for(0, static_cast<int>(needed.size()), [&](int k) {
    const int i = needed[k];
    primitive_boxes(bodies[i], edges[i], x0[i], x1 ? &(*x1)[i] : nullptr, margin, prims[i]);
  });

  std::vector<std::vector<ContactCandidate>> per_pair(body_pairs.size());
  tbb::parallel_for(0, static_cast<int>(body_pairs.size()), [&](int k) {
    const auto [a, b] = body_pairs[k];
    pair_candidates(a, b, boxes[a], boxes[b], prims[a], prims[b], per_pair[k]);
  });
  std::vector<ContactCandidate> all;
  for (auto& list : per_pair) all.insert(all.end(), list.begin(), list.end());
  return all;
}

}  // namespace affix
