// BodyContactModel::max_steps skips the ACCD queries whose lower bound cannot lower either body's
// running bound (body_contact_model.cpp). Checked against the direct reference written here — every
// swept candidate queried, each body's bound the minimum — bit for bit, with and without a body mask,
// on stacks of boxes and spheres within d̂ of each other moving towards, along and away from each other.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "affix/ccd/additive_ccd.hpp"
#include "affix/geometry/primitives.hpp"
#include "affix/solvers/contact/body_contact_model.hpp"

namespace affix {
namespace {

constexpr double kDhat = 0.01;

AffineBody body_with(TriangleMesh mesh) {
  AffineBody b;
  b.mesh = std::make_shared<const TriangleMesh>(std::move(mesh));
  return b;
}

/// Per body, the smallest ACCD time of impact of every candidate swept over q → q + dq that has a
/// flagged body (all when `touching` is null).
std::vector<double> reference_steps(const std::vector<AffineBody>& bodies, const VecX& q, const VecX& dq,
                                    const std::vector<char>* touching) {
  const DofLayout layout = affine_layout(bodies);
  const auto edges = body_edges(bodies);
  const WorldVertices x0 = world_vertices(bodies, layout, q), x1 = world_vertices(bodies, layout, VecX(q + dq));
  std::vector<double> steps(bodies.size(), 1.0);
  for (const ContactCandidate& c : find_contact_candidates(bodies, edges, x0, &x1, kDhat)) {
    if (touching && !(*touching)[c.body_a] && !(*touching)[c.body_b]) continue;
    const auto p = [&](int body, int v) { return x0[body][v]; };
    const auto d = [&](int body, int v) { return Vec3(x1[body][v] - x0[body][v]); };
    double toi;
    if (c.kind == CandidateKind::vertex_face) {
      const auto& f = bodies[c.body_b].mesh->faces[c.prim_b];
      toi = point_triangle_accd(p(c.body_a, c.prim_a), p(c.body_b, f[0]), p(c.body_b, f[1]), p(c.body_b, f[2]),
                                d(c.body_a, c.prim_a), d(c.body_b, f[0]), d(c.body_b, f[1]), d(c.body_b, f[2]))
                .toi;
    } else {
      const auto& ea = edges[c.body_a][c.prim_a];
      const auto& eb = edges[c.body_b][c.prim_b];
      toi = edge_edge_accd(p(c.body_a, ea[0]), p(c.body_a, ea[1]), p(c.body_b, eb[0]), p(c.body_b, eb[1]),
                           d(c.body_a, ea[0]), d(c.body_a, ea[1]), d(c.body_b, eb[0]), d(c.body_b, eb[1]))
                .toi;
    }
    steps[c.body_a] = std::min(steps[c.body_a], toi);
    steps[c.body_b] = std::min(steps[c.body_b], toi);
  }
  return steps;
}

TEST(ContactMaxSteps, SkippedQueriesChangeNoBodysBound) {
  // A column of six bodies (boxes, finely meshed boxes, a sphere), each 0.3–0.9 d̂ above the last and
  // tilted a little, so that hundreds of near candidates link each neighbour pair.
  std::vector<AffineBody> bodies;
  for (int i = 0; i < 6; ++i)
    bodies.push_back(body_with(i == 3 ? make_sphere(0.5, 12) : make_box(Vec3(1, 1, 1), 1 + i % 3)));
  const int n = static_cast<int>(bodies.size());
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), gap(0.3, 0.9);
  int lowered = 0;
  for (int trial = 0; trial < 20; ++trial) {
    VecX q(12 * n), dq(12 * n);
    double z = 0.0;
    for (int i = 0; i < n; ++i) {
      const Mat3 R = Eigen::AngleAxisd(0.003 * unit(rng), Vec3(unit(rng), unit(rng), 1).normalized()).matrix();
      q.segment<12>(12 * i) = affine_state(Vec3(0.02 * unit(rng), 0.02 * unit(rng), z), R);
      z += 1.0 + gap(rng) * kDhat;
      // Moves of up to several d̂: towards the body below, sliding sideways, or away; and a little turn.
      dq.segment<12>(12 * i) = affine_state(4 * kDhat * Vec3(unit(rng), unit(rng), unit(rng) - 0.3 * (trial % 3)),
                                            0.002 * Mat3::Random());
    }
    BodyContactModel model(bodies, kDhat);
    model.update_candidates(q, &dq);
    const std::vector<double> steps = model.max_steps(q, dq);
    EXPECT_EQ(steps, reference_steps(bodies, q, dq, nullptr)) << "trial " << trial;
    std::vector<char> touching(n, 0);
    touching[trial % n] = touching[(trial + 2) % n] = 1;
    EXPECT_EQ(model.max_steps(q, dq, &touching), reference_steps(bodies, q, dq, &touching)) << "trial " << trial;
    for (double s : steps) lowered += s < 1.0;
  }
  EXPECT_GT(lowered, 20);  // the moves do bring pairs close: the bounds are not all 1
}

}  // namespace
}  // namespace affix
