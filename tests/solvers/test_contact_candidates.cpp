// Contact candidates (contact_candidates.hpp, Lan 2022 §4.2) and the proximity of BodyContactModel
// against a brute force over every primitive pair of random scenes: several bodies at random affine
// poses, every vertex–triangle and edge–edge pair of two bodies that may touch. The reference
// distances are the closest-point constructions of Ericson, Real-Time Collision Detection §5.1.5
// (point–triangle) and §5.1.9 (segment–segment), written here independently of affix/distance.
//
// Contract checked:
//   - completeness: every pair of primitives closer than the margin (d̂) is a candidate; with a sweep
//     x0 → x1, every pair that comes closer than the margin at some time of the linear motion
//     (sampled) is a candidate;
//   - filters (DESIGN §3): no candidate joins two bodies whose group/mask bits exclude each other,
//     bodies joined with collide_connected false (no_contact_with), two fixed or kinematic bodies, or a
//     body with itself;
//   - form: sorted, unique, indices in range, edge–edge with body_a < body_b;
//   - the incremental broad phase (broad_phase.hpp) gives the full rebuild's list on random motions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <set>

#include "affix/geometry/primitives.hpp"
#include "affix/solvers/contact/body_contact_model.hpp"
#include "affix/solvers/contact/broad_phase.hpp"
#include "affix/solvers/contact/contact_candidates.hpp"

namespace affix {
namespace {

using Edges = std::vector<std::vector<std::array<int, 2>>>;

// ---- Independent reference distances (Ericson 2005) -------------------------------------------

/// Closest point of triangle abc to p (Ericson §5.1.5, Voronoi regions of the vertices and edges).
Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

double point_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  return (p - closest_on_triangle(p, a, b, c)).norm();
}

/// Distance between segments p1q1 and p2q2 (Ericson §5.1.9).
double segment_segment(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.dot(d1), e = d2.dot(d2), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (a > 0.0 && e > 0.0) {
    const double c = d1.dot(r), b = d1.dot(d2), denom = a * e - b * b;
    s = denom > 0.0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
    t = (b * s + f) / e;
    if (t < 0.0) {
      t = 0.0;
      s = std::clamp(-c / a, 0.0, 1.0);
    } else if (t > 1.0) {
      t = 1.0;
      s = std::clamp((b - c) / a, 0.0, 1.0);
    }
  } else if (a > 0.0) {
    s = std::clamp(-d1.dot(r) / a, 0.0, 1.0);
  } else if (e > 0.0) {
    t = std::clamp(f / e, 0.0, 1.0);
  }
  return ((p1 + s * d1) - (p2 + t * d2)).norm();
}

/// Gap between the boxes of two point sets: a lower bound on the distance of anything inside them,
/// used only to skip pairs that cannot be near (a fact of geometry, not the code under test).
double box_gap(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  Vec3 a_lo = Vec3::Constant(INFINITY), a_hi = -a_lo, b_lo = a_lo, b_hi = a_hi;
  for (const Vec3& x : a) a_lo = a_lo.cwiseMin(x), a_hi = a_hi.cwiseMax(x);
  for (const Vec3& x : b) b_lo = b_lo.cwiseMin(x), b_hi = b_hi.cwiseMax(x);
  return (a_lo - b_hi).cwiseMax(b_lo - a_hi).cwiseMax(0.0).norm();
}

// ---- Scenes ------------------------------------------------------------------------------------

/// May bodies i and j touch, from DESIGN §3 directly: each one's group bit in the other's mask, not
/// joined with collide_connected false (either list), not both fixed or kinematic, not the same body.
bool allowed(const std::vector<AffineBody>& bodies, int i, int j) {
  const AffineBody &a = bodies[i], &b = bodies[j];
  const auto lists = [](const AffineBody& x, int k) {
    return std::find(x.no_contact_with.begin(), x.no_contact_with.end(), k) != x.no_contact_with.end();
  };
  return i != j && !(a.is_dirichlet() && b.is_dirichlet()) && !lists(a, j) && !lists(b, i) &&
         (a.collision.group & b.collision.mask) != 0 && (b.collision.group & a.collision.mask) != 0;
}

Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Quat(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
}

/// A general affine state: a random rotation times a mild stretch and shear, at `position`.
Vec12 random_state(std::mt19937& rng, const Vec3& position) {
  std::uniform_real_distribution<double> u(-0.15, 0.15);
  Mat3 F = Mat3::Identity();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) F(r, c) += u(rng);
  return affine_state(position, random_rotation(rng) * F);
}

AffineBody body_with(TriangleMesh mesh) {
  AffineBody b;
  b.mesh = std::make_shared<const TriangleMesh>(std::move(mesh));
  return b;
}

/// Seven bodies of different shapes and resolutions around the cube [0, spread]³ (spread small:
/// every pair overlaps; large: some pairs near, some far).
std::vector<AffineBody> mixed_bodies(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.2, 0.45);
  std::vector<AffineBody> bodies;
  bodies.push_back(body_with(make_box(Vec3(u(rng), u(rng), u(rng)), 2)));
  bodies.push_back(body_with(make_box(Vec3(u(rng), u(rng), u(rng)), 1)));
  bodies.push_back(body_with(make_sphere(0.5 * u(rng), 8)));
  bodies.push_back(body_with(make_capsule(0.3 * u(rng), u(rng), 8)));
  bodies.push_back(body_with(make_cylinder(0.5 * u(rng), u(rng), 6)));
  bodies.push_back(body_with(make_torus(0.5 * u(rng), 0.1, 8)));
  bodies.push_back(body_with(make_box(Vec3(u(rng), u(rng), u(rng)), 1)));
  return bodies;
}

VecX random_states(std::mt19937& rng, int n, double spread) {
  std::uniform_real_distribution<double> u(0.0, spread);
  VecX q(12 * n);
  for (int i = 0; i < n; ++i) q.segment<12>(12 * i) = random_state(rng, Vec3(u(rng), u(rng), u(rng)));
  return q;
}

/// A displacement of every body: up to 0.25 m of translation and a small change of A.
VecX random_motion(std::mt19937& rng, int n) {
  std::uniform_real_distribution<double> move(-0.25, 0.25), deform(-0.1, 0.1);
  VecX dq(12 * n);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) dq[12 * i + k] = move(rng);
    for (int k = 3; k < 12; ++k) dq[12 * i + k] = deform(rng);
  }
  return dq;
}

/// Filters on the mixed bodies: 0 fixed and 1 kinematic (a Dirichlet pair); 2 in group 2 with a mask
/// that drops group 1; 3 in group 2 colliding with everything; 4 and 5 joined with collide_connected
/// false (the lists are symmetric, as build_joint_model makes them).
void apply_filters(std::vector<AffineBody>& bodies) {
  bodies[0].fixed = true;
  bodies[1].kinematic = Kinematic{};
  bodies[2].collision = {2, ~1};
  bodies[3].collision = {2, -1};
  bodies[4].no_contact_with = {5};
  bodies[5].no_contact_with = {4};
}

// ---- Brute force -------------------------------------------------------------------------------

/// Smallest distance of each primitive pair over the sampled linear motion x0 → x1 (x1 null: at x0).
struct Reference {
  std::vector<ContactCandidate> near;  ///< pairs closer than `reach` at some sample
  double min_distance = std::numeric_limits<double>::infinity();  ///< at x0, over allowed pairs
  std::array<int, 2> closest{-1, -1};
};

Reference brute_force(const std::vector<AffineBody>& bodies, const Edges& edges, const WorldVertices& x0,
                      const WorldVertices* x1, double reach, int samples) {
  Reference ref;
  const int n = static_cast<int>(bodies.size());
  const int steps = x1 ? samples : 0;
  std::vector<WorldVertices> at;  // positions at each sample time
  for (int s = 0; s <= steps; ++s) {
    const double t = steps == 0 ? 0.0 : static_cast<double>(s) / steps;
    WorldVertices x = x0;
    if (x1)
      for (int i = 0; i < n; ++i)
        for (std::size_t v = 0; v < x[i].size(); ++v) x[i][v] = (1 - t) * x0[i][v] + t * (*x1)[i][v];
    at.push_back(std::move(x));
  }
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (!allowed(bodies, a, b)) continue;
      // Skip pairs whose boxes over the whole motion are farther apart than `reach`.
      std::vector<Vec3> all_a, all_b;
      for (const WorldVertices& x : at) {
        all_a.insert(all_a.end(), x[a].begin(), x[a].end());
        all_b.insert(all_b.end(), x[b].begin(), x[b].end());
      }
      const bool can_reach = box_gap(all_a, all_b) < reach;
      const bool track_min = box_gap(x0[a], x0[b]) < ref.min_distance;
      if (!can_reach && !track_min) continue;
      for (int v = 0; v < static_cast<int>(x0[a].size()); ++v) {
        for (int f = 0; f < static_cast<int>(bodies[b].mesh->faces.size()); ++f) {
          const auto& F = bodies[b].mesh->faces[f];
          double smallest = INFINITY;
          for (const WorldVertices& x : at)
            smallest = std::min(smallest, point_triangle(x[a][v], x[b][F[0]], x[b][F[1]], x[b][F[2]]));
          if (smallest < reach) ref.near.push_back({CandidateKind::vertex_face, a, v, b, f});
          const double d0 = point_triangle(x0[a][v], x0[b][F[0]], x0[b][F[1]], x0[b][F[2]]);
          if (d0 < ref.min_distance) ref.min_distance = d0, ref.closest = {std::min(a, b), std::max(a, b)};
        }
      }
      if (a > b) continue;  // edge pairs once, body_a < body_b
      for (int ea = 0; ea < static_cast<int>(edges[a].size()); ++ea) {
        for (int eb = 0; eb < static_cast<int>(edges[b].size()); ++eb) {
          const auto &A = edges[a][ea], &B = edges[b][eb];
          double smallest = INFINITY;
          for (const WorldVertices& x : at)
            smallest = std::min(smallest, segment_segment(x[a][A[0]], x[a][A[1]], x[b][B[0]], x[b][B[1]]));
          if (smallest < reach) ref.near.push_back({CandidateKind::edge_edge, a, ea, b, eb});
          const double d0 = segment_segment(x0[a][A[0]], x0[a][A[1]], x0[b][B[0]], x0[b][B[1]]);
          if (d0 < ref.min_distance) ref.min_distance = d0, ref.closest = {a, b};
        }
      }
    }
  }
  std::sort(ref.near.begin(), ref.near.end());
  return ref;
}

/// Well-formed candidates that respect the filters; and every pair of `reference` among them.
/// (The list is ordered by body pair, then by candidate: deterministic, not sorted as a whole.)
void expect_candidates_cover(std::vector<ContactCandidate> candidates, const Reference& reference,
                             const std::vector<AffineBody>& bodies, const Edges& edges) {
  std::sort(candidates.begin(), candidates.end());
  EXPECT_TRUE(std::adjacent_find(candidates.begin(), candidates.end()) == candidates.end()) << "duplicates";
  for (const ContactCandidate& c : candidates) {
    ASSERT_TRUE(allowed(bodies, c.body_a, c.body_b)) << "candidate between bodies " << c.body_a << " and "
                                                     << c.body_b << ", which may not touch";
    if (c.kind == CandidateKind::vertex_face) {
      ASSERT_LT(c.prim_a, static_cast<int>(bodies[c.body_a].mesh->vertices.size()));
      ASSERT_LT(c.prim_b, static_cast<int>(bodies[c.body_b].mesh->faces.size()));
    } else {
      ASSERT_LT(c.body_a, c.body_b);
      ASSERT_LT(c.prim_a, static_cast<int>(edges[c.body_a].size()));
      ASSERT_LT(c.prim_b, static_cast<int>(edges[c.body_b].size()));
    }
  }
  int missing = 0;
  for (const ContactCandidate& c : reference.near) {
    if (std::binary_search(candidates.begin(), candidates.end(), c)) continue;
    if (++missing <= 5)
      ADD_FAILURE() << (c.kind == CandidateKind::vertex_face ? "vertex–face " : "edge–edge ") << "pair (body "
                    << c.body_a << ", " << c.prim_a << ") – (body " << c.body_b << ", " << c.prim_b
                    << ") is within reach but not a candidate";
  }
  EXPECT_EQ(missing, 0) << "of " << reference.near.size() << " near pairs";
}

struct Case {
  unsigned seed;
  double spread;
  bool filters;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << "seed " << c.seed << ", spread " << c.spread << (c.filters ? ", filtered" : "");
}

class CandidatesVsBruteForce : public testing::TestWithParam<Case> {};

TEST_P(CandidatesVsBruteForce, ProximityCandidatesContainEveryPairWithinTheMargin) {
  std::mt19937 rng(GetParam().seed);
  std::vector<AffineBody> bodies = mixed_bodies(rng);
  if (GetParam().filters) apply_filters(bodies);
  const int n = static_cast<int>(bodies.size());
  const Edges edges = body_edges(bodies);
  const VecX q = random_states(rng, n, GetParam().spread);
  const WorldVertices x = world_vertices(bodies, affine_layout(bodies), q);
  for (const double margin : {0.004, 0.03}) {
    SCOPED_TRACE("margin " + std::to_string(margin));
    const Reference ref = brute_force(bodies, edges, x, nullptr, margin, 0);
    ASSERT_FALSE(ref.near.empty()) << "the scene must have near pairs, or the check is empty";
    const auto candidates = find_contact_candidates(bodies, edges, x, nullptr, margin);
    expect_candidates_cover(candidates, ref, bodies, edges);
    EXPECT_EQ(find_contact_candidates(bodies, edges, x, nullptr, margin), candidates) << "not deterministic";
  }
}

TEST_P(CandidatesVsBruteForce, SweptCandidatesContainEveryPairThatComesWithinTheMarginAlongTheMotion) {
  std::mt19937 rng(GetParam().seed + 1000);
  std::vector<AffineBody> bodies = mixed_bodies(rng);
  if (GetParam().filters) apply_filters(bodies);
  const int n = static_cast<int>(bodies.size());
  const Edges edges = body_edges(bodies);
  const VecX q = random_states(rng, n, GetParam().spread);
  const VecX dq = random_motion(rng, n);
  const WorldVertices x0 = world_vertices(bodies, affine_layout(bodies), q), x1 = world_vertices(bodies, affine_layout(bodies), q + dq);
  const double margin = 0.01;
  const Reference at_start = brute_force(bodies, edges, x0, nullptr, margin, 0);
  const Reference swept = brute_force(bodies, edges, x0, &x1, margin, 16);
  ASSERT_GT(swept.near.size(), at_start.near.size()) << "the motion must bring new pairs near";
  expect_candidates_cover(find_contact_candidates(bodies, edges, x0, &x1, margin), swept, bodies, edges);
}

TEST_P(CandidatesVsBruteForce, BodyContactModelFindsTheClosestPairAndItsDistance) {
  std::mt19937 rng(GetParam().seed + 2000);
  std::vector<AffineBody> bodies = mixed_bodies(rng);
  if (GetParam().filters) apply_filters(bodies);
  const int n = static_cast<int>(bodies.size());
  const double dhat = 0.02;
  const VecX q = random_states(rng, n, GetParam().spread);
  const WorldVertices x = world_vertices(bodies, affine_layout(bodies), q);
  const Reference ref = brute_force(bodies, body_edges(bodies), x, nullptr, dhat, 0);

  BodyContactModel model(bodies, dhat);
  model.update_candidates(q, nullptr);
  const BodyContactModel::Proximity p = model.min_distance(q);
  ASSERT_LT(ref.min_distance, dhat) << "the scene must have a pair within d̂";
  EXPECT_NEAR(p.min_distance, ref.min_distance, 1e-10);
  std::array<int, 2> closest{std::min(p.closest[0], p.closest[1]), std::max(p.closest[0], p.closest[1])};
  EXPECT_EQ(closest, ref.closest);

  // Every body pair with a primitive pair within d̂ is among the candidate body pairs.
  const auto pairs = model.candidate_body_pairs();
  for (const ContactCandidate& c : ref.near) {
    const std::array<int, 2> pair{std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b)};
    EXPECT_TRUE(std::binary_search(pairs.begin(), pairs.end(), pair)) << pair[0] << "–" << pair[1];
  }

  // Swept over q → q + dq: every body pair that comes within d̂ along the motion.
  const VecX dq = random_motion(rng, n);
  const WorldVertices x1 = world_vertices(bodies, affine_layout(bodies), q + dq);
  const Reference swept = brute_force(bodies, body_edges(bodies), x, &x1, dhat, 8);
  model.update_candidates(q, &dq);
  const auto swept_pairs = model.candidate_body_pairs();
  for (const ContactCandidate& c : swept.near) {
    const std::array<int, 2> pair{std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b)};
    EXPECT_TRUE(std::binary_search(swept_pairs.begin(), swept_pairs.end(), pair)) << pair[0] << "–" << pair[1];
  }
}

// The incremental broad phase (broad_phase.hpp) against a full rebuild: a sequence of proximity and
// swept lists in which random subsets of the bodies move (sometimes none, sometimes all) must give
// find_contact_candidates' list element for element, and keep the pairs of bodies that held still.
TEST_P(CandidatesVsBruteForce, IncrementalBroadPhaseEqualsAFullRebuildOnRandomMotions) {
  std::mt19937 rng(GetParam().seed + 3000);
  std::vector<AffineBody> bodies = mixed_bodies(rng);
  if (GetParam().filters) apply_filters(bodies);
  const int n = static_cast<int>(bodies.size());
  const Edges edges = body_edges(bodies);
  const DofLayout layout = affine_layout(bodies);
  const double margin = 0.02;
  BroadPhase broad(bodies, layout, edges, margin);
  VecX q = random_states(rng, n, GetParam().spread);
  std::bernoulli_distribution moves(0.3), sweeps(0.5);
  int kept = 0, rounds_with_pairs = 0;
  for (int round = 0; round < 40; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    VecX dq = 0.2 * random_motion(rng, n);  // a fifth: small steps, as a Newton iteration's
    const bool everyone = round % 10 == 9, nobody = round % 10 == 4;
    for (int i = 0; i < n; ++i)
      if (nobody || (!everyone && !moves(rng))) dq.segment<12>(12 * i).setZero();
    const WorldVertices x0 = world_vertices(bodies, layout, q);
    if (sweeps(rng)) {
      const VecX q1 = q + dq;
      const WorldVertices x1 = world_vertices(bodies, layout, q1);
      ASSERT_EQ(broad.update(q, &q1, x0, &x1), find_contact_candidates(bodies, edges, x0, &x1, margin));
      q = q1;  // the line search takes the whole step
    } else {
      const auto full = find_contact_candidates(bodies, edges, x0, nullptr, margin);
      ASSERT_EQ(broad.update(q, nullptr, x0, nullptr), full);
      ASSERT_EQ(broad.update(q, nullptr, x0, nullptr), full);  // asked again: nothing moved
      EXPECT_EQ(broad.paired_pairs(), 0) << "nothing moved, yet pairs were paired again";
      q += dq;
    }
    kept += broad.kept_pairs();
    rounds_with_pairs += broad.kept_pairs() + broad.paired_pairs() > 0;
  }
  EXPECT_GT(rounds_with_pairs, 10) << "the scene must have near pairs, or the check is empty";
  EXPECT_GT(kept, 0) << "no pair was ever kept: the broad phase is not incremental";
}

INSTANTIATE_TEST_SUITE_P(RandomScenes, CandidatesVsBruteForce,
                         testing::Values(Case{1, 0.25, false}, Case{2, 0.6, false}, Case{3, 0.9, false},
                                         Case{4, 0.25, true}, Case{5, 0.6, true}),
                         [](const testing::TestParamInfo<Case>& info) {
                           return "seed" + std::to_string(info.param.seed) +
                                  (info.param.filters ? "_filtered" : "");
                         });

TEST(ContactCandidates, FiltersExcludeOverlappingBodiesThatMayNotTouch) {
  // All seven bodies at (nearly) one place, so every pair overlaps: each filter must remove its pair,
  // and each allowed pair must be present.
  std::mt19937 rng(7);
  std::vector<AffineBody> bodies = mixed_bodies(rng);
  apply_filters(bodies);
  const int n = static_cast<int>(bodies.size());
  const Edges edges = body_edges(bodies);
  const VecX q = random_states(rng, n, 0.02);
  const WorldVertices x = world_vertices(bodies, affine_layout(bodies), q);
  std::set<std::array<int, 2>> found;
  for (const ContactCandidate& c : find_contact_candidates(bodies, edges, x, nullptr, 1e-3))
    found.insert({std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b)});
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      EXPECT_EQ(found.count({i, j}) == 1, allowed(bodies, i, j)) << "bodies " << i << " and " << j;
  // The filters exclude 0–1 (both Dirichlet), 2 against group-1 bodies, and 4–5.
  EXPECT_FALSE(found.count({0, 1}));
  EXPECT_FALSE(found.count({0, 2}));
  EXPECT_TRUE(found.count({2, 3}));
  EXPECT_FALSE(found.count({4, 5}));
}

TEST(ContactCandidates, DistantBodiesHaveNoCandidates) {
  std::vector<AffineBody> bodies{body_with(make_box(Vec3::Ones(), 2)), body_with(make_sphere(0.5, 8))};
  const Edges edges = body_edges(bodies);
  VecX q(24);
  q << affine_state(Vec3::Zero(), Mat3::Identity()), affine_state(Vec3(1.02, 0, 0), Mat3::Identity());
  const WorldVertices x = world_vertices(bodies, affine_layout(bodies), q);
  // 0.02 apart: no candidates with a margin below half the gap (boxes inflated on both sides) ...
  EXPECT_TRUE(find_contact_candidates(bodies, edges, x, nullptr, 0.009).empty());
  // ... some with a margin above it.
  EXPECT_FALSE(find_contact_candidates(bodies, edges, x, nullptr, 0.03).empty());
}

}  // namespace
}  // namespace affix
