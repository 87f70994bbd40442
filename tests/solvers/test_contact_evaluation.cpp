// BodyContactModel's cached evaluation (contact_evaluation.hpp) against a direct reference written
// here: the barrier sum over freshly reduced, merged stencils (active_stencils), each stencil's
// Hessian projected to PSD as a whole 12×12 (project_to_psd<12>) and mapped to its bodies. Checked:
//   - energies after moving only some bodies (stale reductions must be redone, fresh ones kept) equal
//     those of a model that never evaluated anything;
//   - the per-stencil projection (3×3 for point–point, through the relative motions of 3 or 4 points
//     otherwise) equals the 12×12 one;
//   - the value-only barrier equals the value of the derivative evaluation for every stencil form;
//   - with a mask, the rows of the flagged bodies are those of the full evaluation;
//   - proximity candidates asked for again at the same state are not rebuilt;
//   - candidates whose primitives' boxes are d̂ or more apart are bounded, not measured: the bound is
//     below the true distance, and the closest distance over all candidates is still exact;
//   - reductions kept from one candidate list to the next (a new sweep where the last search ended)
//     give the energies of a model that never evaluated anything, before and after further moves.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <set>

#include "affix/geometry/primitives.hpp"
#include "affix/math/psd_projection.hpp"
#include "affix/solvers/assembly/stencil_assembly.hpp"
#include "affix/solvers/contact/body_contact_model.hpp"

namespace affix {
namespace {

constexpr double kDhat = 0.02, kKappa = 1e3;

AffineBody body_with(TriangleMesh mesh) {
  AffineBody b;
  b.mesh = std::make_shared<const TriangleMesh>(std::move(mesh));
  return b;
}

/// Five bodies in a row, most within d̂ of the next: boxes turned a little about two axes (point–face,
/// edge–edge and point–edge stencils) and a sphere; apart from them, two unit cubes turned so that a
/// corner of each points at the other's (point–point).
struct Row {
  std::vector<AffineBody> bodies;
  VecX q, dq;
};

Row make_row(unsigned seed) {
  Row r;
  r.bodies = {body_with(make_box(Vec3(1, 1, 1), 2)), body_with(make_box(Vec3(1, 0.8, 1.2), 1)),
              body_with(make_sphere(0.5, 10)), body_with(make_box(Vec3(1, 1, 1), 1)),
              body_with(make_box(Vec3(0.9, 1.1, 1), 2)), body_with(make_box(Vec3(1, 1, 1), 1)),
              body_with(make_box(Vec3(1, 1, 1), 1))};
  const int n = 5;  // the row; the two cubes after it are placed below
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> tilt(-0.004, 0.004), move(-0.3 * kDhat, 0.3 * kDhat);
  r.q.resize(12 * 7);
  r.dq = VecX::Zero(12 * 7);
  for (int i = 0; i < n; ++i) {
    const Mat3 R = (Eigen::AngleAxisd(tilt(rng), Vec3::UnitY()) * Eigen::AngleAxisd(tilt(rng), Vec3::UnitZ())).matrix();
    // Half-widths 0.5 (boxes) and the sphere's radius 0.5: centres 1 + 0.5 d̂ apart along x.
    r.q.segment<12>(12 * i) = affine_state(Vec3((1.0 + 0.5 * kDhat) * i, 0.1 * tilt(rng), 0), R);
    r.dq.segment<12>(12 * i) = affine_state(Vec3(move(rng), move(rng), move(rng)), 1e-3 * Mat3::Random());
  }
  // The diagonal (1, 1, 1) along x: corners at ±√3/2 on the x axis, tips 0.5 d̂ apart.
  const Mat3 corner_first = Eigen::Quaterniond::FromTwoVectors(Vec3(1, 1, 1), Vec3::UnitX()).toRotationMatrix();
  r.q.segment<12>(60) = affine_state(Vec3(0, 5, 0), corner_first);
  r.q.segment<12>(72) = affine_state(Vec3(std::sqrt(3.0) + 0.5 * kDhat, 5, 0), corner_first);
  return r;
}

/// Σ βh²κb per body over fresh merged stencils (the reference energy).
std::vector<double> reference_energies(const Row& r, const VecX& q, const std::vector<ContactCandidate>& candidates) {
  const WorldVertices x = world_vertices(r.bodies, affine_layout(r.bodies), q);
  std::vector<double> e(r.bodies.size(), 0.0);
  for (const ContactStencil& s : active_stencils(r.bodies, body_edges(r.bodies), candidates, x, kDhat))
    e[s.body_a()] += stencil_barrier(s, stencil_positions(s, x), kDhat, kKappa).value;
  return e;
}

std::vector<ContactCandidate> proximity_candidates(const Row& r, const VecX& q) {
  return find_contact_candidates(r.bodies, body_edges(r.bodies), world_vertices(r.bodies, affine_layout(r.bodies), q),
                                 nullptr, kDhat);
}

TEST(ContactEvaluation, EnergiesAfterPartialMovesMatchAFreshEvaluation) {
  Row r = make_row(3);
  const int n = static_cast<int>(r.bodies.size());
  BodyContactModel model(r.bodies, kDhat);
  model.update_candidates(r.q, &r.dq);
  const std::vector<char> all(n, 1);
  std::vector<double> e(n, 0.0);
  model.add_energies(r.q, kKappa, 1.0, {}, 0.0, all, e);  // fills the caches at q
  // A line search moving bodies 1 and 3 only, then 3 back and 2 forward.
  VecX trial = r.q;
  for (int i : {1, 3}) trial.segment<12>(12 * i) += 0.5 * r.dq.segment<12>(12 * i);
  VecX trial2 = trial;
  trial2.segment<12>(36) = r.q.segment<12>(36);
  trial2.segment<12>(24) += 0.25 * r.dq.segment<12>(24);
  for (const VecX* point : {&trial, &trial2, &r.q}) {
    std::vector<double> cached(n, 0.0), fresh(n, 0.0);
    model.add_energies(*point, kKappa, 1.0, {}, 0.0, all, cached);
    BodyContactModel untouched(r.bodies, kDhat);
    untouched.update_candidates(r.q, &r.dq);
    untouched.add_energies(*point, kKappa, 1.0, {}, 0.0, all, fresh);
    EXPECT_EQ(cached, fresh);
    // The same sum over merged stencils, booked on each stencil's first body.
    BodyContactModel proximity(r.bodies, kDhat);
    proximity.update_candidates(*point, nullptr);
    const std::vector<double> reference = reference_energies(r, *point, proximity_candidates(r, *point));
    double total = 0.0, reference_total = 0.0;
    for (int i = 0; i < n; ++i) total += cached[i], reference_total += reference[i];
    ASSERT_GT(reference_total, 0.0) << "the row must have active stencils";
    EXPECT_NEAR(total, reference_total, 1e-12 * reference_total);
  }
}

TEST(ContactEvaluation, ValueOnlyBarrierAndPerStencilProjectionMatchTheFullEvaluation) {
  std::set<StencilForm> forms;
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    const Row r = make_row(seed);
    const int n = static_cast<int>(r.bodies.size());
    const DofLayout layout = affine_layout(r.bodies);
    const WorldVertices x = world_vertices(r.bodies, layout, r.q);
    const auto stencils = active_stencils(r.bodies, body_edges(r.bodies), proximity_candidates(r, r.q), x, kDhat);
    ASSERT_FALSE(stencils.empty());
    // Reference: every merged stencil's Hessian projected as a 12×12, mapped to its bodies.
    VecX g_ref = VecX::Zero(12 * n);
    BlockHessian H_ref;
    H_ref.reset(n);
    for (const ContactStencil& s : stencils) {
      forms.insert(s.form);
      const Vec12 positions = stencil_positions(s, x);
      StencilDerivatives d = stencil_barrier(s, positions, kDhat, kKappa);
      const double s2 = stencil_squared_distance_value(s, positions);
      EXPECT_NEAR(stencil_barrier_value(s, positions, s2, kDhat, kKappa), d.value, 1e-12 * d.value);
      d.hessian = project_to_psd<12>(d.hessian);
      std::array<BodyPoint, 4> points;
      for (int k = 0; k < s.count; ++k) points[k] = {s.v[k].body, r.bodies[s.v[k].body].mesh->vertices[s.v[k].vertex]};
      const StencilBodyTerms t = stencil_to_bodies(points.data(), s.count, d.value, d.gradient, d.hessian);
      add_stencil_gradient(t, 1.0, layout, g_ref);
      add_stencil_hessian(t, 1.0, H_ref);
    }
    BodyContactModel model(r.bodies, kDhat);
    model.update_candidates(r.q, nullptr);
    VecX g = VecX::Zero(12 * n);
    BlockHessian H;
    H.reset(n);
    model.add_derivatives(r.q, kKappa, 1.0, {}, 0.0, g, H);
    EXPECT_LT((g - g_ref).lpNorm<Eigen::Infinity>(), 1e-10 * g_ref.lpNorm<Eigen::Infinity>());
    double scale = 0.0;
    for (int i = 0; i < n; ++i) scale = std::max(scale, H_ref.diagonal(i).lpNorm<Eigen::Infinity>());
    for (int i = 0; i < n; ++i)
      EXPECT_LT((H.diagonal(i) - H_ref.diagonal(i)).lpNorm<Eigen::Infinity>(), 1e-9 * scale) << "block " << i;
    ASSERT_EQ(H.couplings().size(), H_ref.couplings().size());
    for (std::size_t k = 0; k < H.couplings().size(); ++k) {
      EXPECT_EQ(H.couplings()[k].first, H_ref.couplings()[k].first);
      EXPECT_LT((H.couplings()[k].second - H_ref.couplings()[k].second).lpNorm<Eigen::Infinity>(), 1e-9 * scale);
    }
  }
  EXPECT_EQ(forms.count(StencilForm::point_point) + forms.count(StencilForm::point_line) +
                forms.count(StencilForm::point_plane) + forms.count(StencilForm::edge_edge),
            4u)
      << "every stencil form must occur in the rows; point_point " << forms.count(StencilForm::point_point)
      << ", point_line " << forms.count(StencilForm::point_line) << ", point_plane "
      << forms.count(StencilForm::point_plane) << ", edge_edge " << forms.count(StencilForm::edge_edge);
}

TEST(ContactEvaluation, MaskedDerivativesKeepTheFlaggedBodiesRows) {
  const Row r = make_row(5);
  const int n = static_cast<int>(r.bodies.size());
  BodyContactModel model(r.bodies, kDhat);
  model.update_candidates(r.q, nullptr);
  VecX g_all = VecX::Zero(12 * n), g = VecX::Zero(12 * n);
  BlockHessian H_all, H;
  H_all.reset(n);
  H.reset(n);
  model.add_derivatives(r.q, kKappa, 1.0, {}, 0.0, g_all, H_all);
  const std::vector<char> touching{0, 1, 1, 0, 0, 0, 0};
  model.add_derivatives(r.q, kKappa, 1.0, {}, 0.0, g, H, &touching);
  for (int i = 0; i < n; ++i) {
    if (!touching[i]) continue;
    EXPECT_EQ(g.segment<12>(12 * i), g_all.segment<12>(12 * i)) << "body " << i;
    EXPECT_EQ(H.diagonal(i), H_all.diagonal(i)) << "body " << i;
  }
  EXPECT_TRUE(H.diagonal(4).isZero(0.0)) << "stencils between unflagged bodies are left out";
}

TEST(ContactEvaluation, ProximityCandidatesAtTheSameStateAreNotRebuilt) {
  const Row r = make_row(6);
  BodyContactModel model(r.bodies, kDhat);
  model.update_candidates(r.q, nullptr);
  model.update_candidates(r.q, nullptr);
  EXPECT_EQ(model.candidate_builds(), 1);
  const auto pairs = model.candidate_body_pairs();
  model.update_candidates(r.q, &r.dq);  // a sweep ...
  EXPECT_EQ(model.candidate_builds(), 2);
  model.update_candidates(r.q, nullptr);  // ... and back to the proximity set of q
  EXPECT_EQ(model.candidate_builds(), 2);
  EXPECT_EQ(model.candidate_body_pairs(), pairs);
  const VecX moved = r.q + 0.5 * r.dq;
  model.update_candidates(moved, nullptr);
  EXPECT_EQ(model.candidate_builds(), 3);
}

TEST(ContactEvaluation, ReductionsKeptAcrossCandidateListsMatchAFreshEvaluation) {
  Row r = make_row(9);
  const int n = static_cast<int>(r.bodies.size());
  const std::vector<char> all(n, 1);
  BodyContactModel model(r.bodies, kDhat);
  model.update_candidates(r.q, &r.dq);
  std::vector<double> e(n, 0.0);
  model.add_energies(r.q, kKappa, 1.0, {}, 0.0, all, e);
  // A line search that moved bodies 1 and 3, then the next iteration's sweep from there along another
  // direction, then a trial that moves body 2 only, then the proximity set at the new point.
  VecX point = r.q;
  for (int i : {1, 3}) point.segment<12>(12 * i) += 0.5 * r.dq.segment<12>(12 * i);
  model.add_energies(point, kKappa, 1.0, {}, 0.0, all, e);
  const VecX dq2 = -0.7 * r.dq;
  VecX trial = point;
  trial.segment<12>(24) += 0.5 * dq2.segment<12>(24);
  const auto check = [&](const VecX& at, const VecX* sweep) {
    std::vector<double> kept(n, 0.0), fresh(n, 0.0);
    model.add_energies(at, kKappa, 1.0, {}, 0.0, all, kept);
    BodyContactModel untouched(r.bodies, kDhat);
    untouched.update_candidates(point, sweep);
    untouched.add_energies(at, kKappa, 1.0, {}, 0.0, all, fresh);
    EXPECT_EQ(kept, fresh);
    double total = 0.0;
    for (double v : kept) total += v;
    EXPECT_GT(total, 0.0) << "the row must have active stencils";
  };
  model.update_candidates(point, &dq2);
  check(point, &dq2);
  check(trial, &dq2);
  model.update_candidates(point, nullptr);
  check(point, nullptr);
}

TEST(ContactEvaluation, FarCandidatesAreBoundedAndTheClosestDistanceStaysExact) {
  const Row r = make_row(8);
  const int n = static_cast<int>(r.bodies.size());
  const DofLayout layout = affine_layout(r.bodies);
  const auto edges = body_edges(r.bodies);
  // A long sweep: most of its candidates are far apart at its start.
  const VecX dq = 40.0 * r.dq;
  const WorldVertices x0 = world_vertices(r.bodies, layout, r.q), x1 = world_vertices(r.bodies, layout, r.q + dq);
  const std::vector<ContactCandidate> candidates = find_contact_candidates(r.bodies, edges, x0, &x1, kDhat);
  VertexCache x;
  x.move_to(r.bodies, layout, r.q);
  CandidateEvaluation evaluation;
  evaluation.reset(candidates.size(), kDhat);
  int bounded = 0;
  double closest = std::numeric_limits<double>::infinity();
  for (int k = 0; k < static_cast<int>(candidates.size()); ++k) {
    evaluation.reduce(k, candidates[k], r.bodies, edges, x);
    const ContactStencil s = reduce_candidate(r.bodies, edges, candidates[k], x.vertices());
    const double exact = stencil_squared_distance_value(s, stencil_positions(s, x.vertices()));
    closest = std::min(closest, std::sqrt(exact));
    if (evaluation.exact(k)) {
      EXPECT_EQ(evaluation.squared_distance(k), exact);
      EXPECT_TRUE(evaluation.stencil(k) == s);
    } else {
      ++bounded;
      EXPECT_GE(evaluation.squared_distance(k), kDhat * kDhat);
      EXPECT_LE(evaluation.squared_distance(k), exact * (1.0 + 1e-12));
      evaluation.reduce_exactly(k, candidates[k], r.bodies, edges, x);
      EXPECT_EQ(evaluation.squared_distance(k), exact);
    }
  }
  ASSERT_GT(bounded, 0) << "the sweep must reach candidates beyond d̂";
  ASSERT_LT(bounded, static_cast<int>(candidates.size()));
  // Pulled apart (3 d̂ more between neighbours along x) the closest candidate is a bounded one, and the
  // model's closest distance is still the measured one.
  BodyContactModel model(r.bodies, kDhat);
  model.update_candidates(r.q, &dq);
  EXPECT_EQ(model.min_distance(r.q).min_distance, closest);
  VecX apart = r.q;
  for (int i = 0; i < n; ++i) apart[12 * i] += 3.0 * kDhat * i;
  model.update_candidates(apart, &dq);
  const double far_closest = model.min_distance(apart).min_distance;
  const WorldVertices xa = world_vertices(r.bodies, layout, apart), xb = world_vertices(r.bodies, layout, apart + dq);
  double reference = std::numeric_limits<double>::infinity();
  for (const ContactCandidate& c : find_contact_candidates(r.bodies, edges, xa, &xb, kDhat)) {
    const ContactStencil s = reduce_candidate(r.bodies, edges, c, xa);
    reference = std::min(reference, std::sqrt(stencil_squared_distance_value(s, stencil_positions(s, xa))));
  }
  EXPECT_EQ(far_closest, reference);
  EXPECT_GT(far_closest, kDhat);
}

}  // namespace
}  // namespace affix
