#pragma once
// Candidate primitive pairs between bodies (Lan 2022 §4.2): the pairs whose distance or CCD must be
// evaluated. Three stages:
//   1. each body's box of world vertices (swept over the step for CCD), inflated by a margin;
//   2. sort-and-sweep over those boxes for body pairs that may collide (collision_filter.hpp);
//   3. the intersection AABB (i-AABB) of each body pair: only primitives whose own (swept, inflated)
//      box meets the overlap of the two body boxes can be within reach, and these are paired through
//      a uniform grid. Bodies are never tested against themselves (ABD bodies are stiff).
#include <array>
#include <vector>

#include "affix/body/affine_body.hpp"
#include "affix/geometry/aabb.hpp"

namespace affix {

enum class CandidateKind : unsigned char { vertex_face, edge_edge };

/// vertex_face: vertex `prim_a` of body_a against face `prim_b` of body_b (either body may be the
/// lower index). edge_edge: edge `prim_a` of body_a (< body_b) against edge `prim_b` of body_b.
struct ContactCandidate {
  CandidateKind kind;
  int body_a, prim_a;
  int body_b, prim_b;
  auto operator<=>(const ContactCandidate&) const = default;
};

/// World positions of every body's vertices.
using WorldVertices = std::vector<std::vector<Vec3>>;

/// ... at the stacked state q laid out by `layout`.
WorldVertices world_vertices(const std::vector<AffineBody>& bodies, const DofLayout& layout, const VecX& q);

/// The unique edges of every body's mesh (mesh_edges), computed once per run.
std::vector<std::vector<std::array<int, 2>>> body_edges(const std::vector<AffineBody>& bodies);

/// One body's box of its vertices at x0 (and x1 when sweeping), inflated by the margin: stage 1.
Aabb body_box(const std::vector<Vec3>& x0, const std::vector<Vec3>* x1, double margin);

/// Boxes of one body's primitives over the step, inflated by the margin.
struct PrimitiveBoxes {
  std::vector<Aabb> vertices, edges, faces;
};
/// Fills `boxes` (its capacity kept: no allocation once the sizes have been seen).
void primitive_boxes(const AffineBody& body, const std::vector<std::array<int, 2>>& edges,
                     const std::vector<Vec3>& x0, const std::vector<Vec3>* x1, double margin,
                     PrimitiveBoxes& boxes);

/// Stage 3 for the body pair a < b: appends their candidates, sorted, to `out`, from the bodies'
/// boxes and their primitives' boxes. A function of those boxes alone (so of the two bodies' states).
void pair_candidates(int a, int b, const Aabb& box_a, const Aabb& box_b, const PrimitiveBoxes& prims_a,
                     const PrimitiveBoxes& prims_b, std::vector<ContactCandidate>& out);

/// Candidates between the bodies' primitives at positions x0, swept to x1 when given, with boxes
/// inflated by `margin`. Sorted, so the result does not depend on thread scheduling.
std::vector<ContactCandidate> find_contact_candidates(
    const std::vector<AffineBody>& bodies, const std::vector<std::vector<std::array<int, 2>>>& edges,
    const WorldVertices& x0, const WorldVertices* x1, double margin);

}  // namespace affix
