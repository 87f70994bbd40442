// The mabd solver's implicit penalty contact (He 2026 §6, penalty_contact.hpp) against references
// written here: the ground penalty's value against ½kδ² summed by hand, its gradient and Hessian in the
// 12 affine DOFs against central differences; each body–body stencil form's ½k(ξ − d)² against the
// distance, its gradient and (unprojected) Hessian in positions against central differences; the
// per-body blocks of two boxes in contact against Jᵀ∇E and Jᵀ P(∇²E) J formed with explicit 3×12
// Jacobians, the 2× block-Jacobi majoriser against the coupled Hessian; and the contact settings.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <nlohmann/json.hpp>

#include "affix/body/affine_body.hpp"
#include "affix/error.hpp"
#include "affix/math/psd_projection.hpp"
#include "affix/model/model.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/mabd/mabd_settings.hpp"
#include "affix/solvers/mabd/penalty_contact.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

/// Unit boxes (mass 1000 kg at the default density) compiled without a ground, apart, so the start
/// checks pass; the tests then place them through q.
std::vector<AffineBody> boxes(int count, bool first_fixed = false) {
  Scene scene;
  scene.name = "test";
  scene.file = "test.json";
  for (int i = 0; i < count; ++i) {
    BodyDef b;
    b.name = "box" + std::to_string(i);
    b.shape = BoxShape{Vec3::Ones(), 1};
    b.position = Vec3(0, 0, 3.0 * i);
    b.fixed = first_fixed && i == 0;
    scene.bodies.push_back(b);
  }
  return affine_bodies(compile(scene));
}

Vec12 pose(const Vec3& p, const Vec3& axis, double angle) {
  return affine_state(p, Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix());
}

// ------------------------------------------------------------------------------------ ground

TEST(MabdGroundPenalty, IsHalfKDepthSquaredOverTheVerticesBelow) {
  const AffineBody box = boxes(1)[0];
  const double k = 250.0, depth = 0.01;
  // Flat, its bottom face 0.01 below z = 0.2: four vertices at depth 0.01.
  const AffineDerivatives e = ground_penalty(box, affine_state(Vec3(0, 0, 0.7 - depth), Mat3::Identity()), 0.2, k);
  EXPECT_NEAR(e.value, 4 * 0.5 * k * depth * depth, 1e-15);
  EXPECT_NEAR(e.gradient(2), -4 * k * depth, 1e-12);  // pushes p up with 4kδ
  EXPECT_NEAR(e.hessian(2, 2), 4 * k, 1e-12);
  // Above the ground: nothing.
  EXPECT_EQ(ground_penalty(box, affine_state(Vec3(0, 0, 0.71), Mat3::Identity()), 0.2, k).value, 0.0);
}

TEST(MabdGroundPenalty, GradientAndHessianMatchFiniteDifferencesInAffineDofs) {
  const AffineBody box = boxes(1)[0];
  const double k = 1e4, height = 0.1;
  // Tilted and stretched a little so that three vertices are below at different depths.
  Vec12 q = pose(Vec3(0.2, -0.1, 0.65), Vec3(1, 2, 0.3), 0.3);
  q.tail<9>() *= 1.01;
  const AffineDerivatives e = ground_penalty(box, q, height, k);
  ASSERT_GT(e.value, 0.0);
  ASSERT_GT(e.gradient.norm(), 0.0);
  const auto value = [&](const VecX& x) { return ground_penalty(box, Vec12(x), height, k).value; };
  const auto gradient = [&](const VecX& x) { return VecX(ground_penalty(box, Vec12(x), height, k).gradient); };
  EXPECT_TRUE(test::near_relative(e.gradient, test::fd_gradient(value, q, 1e-7), 1e-6));
  EXPECT_TRUE(test::near_relative(e.hessian, test::fd_jacobian(gradient, q, 1e-7), 1e-6));
}

// ------------------------------------------------------------------------------------ stencils

struct StencilCase {
  const char* name;
  ContactStencil stencil;
  Vec12 x;
};

/// One configuration of each stencil form with d < ξ = 0.05 (bodies 0 and 1; the vertex indices are
/// not read by stencil_penalty). The near-parallel edge pair has its mollifier active.
std::vector<StencilCase> stencil_cases() {
  const auto v = [](int body, int vertex) { return StencilVertex{body, vertex}; };
  std::vector<StencilCase> cases;
  Vec12 x = Vec12::Zero();
  x << 0.01, 0.02, 0.03, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0;
  cases.push_back({"point_point", {StencilForm::point_point, 2, {v(0, 0), v(1, 0), {}, {}}}, x});
  x << 0.3, 0.02, 0.03, 0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 0, 0, 0;
  cases.push_back({"point_line", {StencilForm::point_line, 3, {v(0, 0), v(1, 0), v(1, 1), {}}}, x});
  x << 0.2, 0.3, 0.02, 0.0, 0.0, 0.0, 1.0, 0.0, 0.01, 0.0, 1.0, -0.01;
  cases.push_back({"point_plane", {StencilForm::point_plane, 4, {v(0, 0), v(1, 0), v(1, 1), v(1, 2)}}, x});
  x << -0.5, 0.0, 0.03, 0.5, 0.1, 0.02, 0.0, -0.5, 0.0, 0.1, 0.5, 0.0;
  cases.push_back({"edge_edge", {StencilForm::edge_edge, 4, {v(0, 0), v(0, 1), v(1, 0), v(1, 1)}, 1e-3}, x});
  x << -0.5, 0.0, 0.03, 0.5, 0.001, 0.02, -0.5, 0.0, 0.0, 0.5, 0.02, 0.0;
  cases.push_back({"edge_edge_mollified", {StencilForm::edge_edge, 4, {v(0, 0), v(0, 1), v(1, 0), v(1, 1)}, 0.1}, x});
  return cases;
}

TEST(MabdStencilPenalty, IsHalfKShellDepthSquaredWithFiniteDifferenceDerivatives) {
  const double xi = 0.05, k = 300.0;
  for (const StencilCase& c : stencil_cases()) {
    SCOPED_TRACE(c.name);
    const StencilDerivatives p = stencil_penalty(c.stencil, c.x, xi, k);
    const double d = std::sqrt(stencil_squared_distance_value(c.stencil, c.x));
    ASSERT_LT(d, xi);
    ASSERT_GT(p.gradient.norm(), 0.0);
    if (std::string(c.name) != "edge_edge_mollified") {
      EXPECT_NEAR(p.value, 0.5 * k * (xi - d) * (xi - d), 1e-12);
    } else {
      EXPECT_LT(p.value, 0.5 * k * (xi - d) * (xi - d));  // the mollifier is below 1
      EXPECT_GT(p.value, 0.0);
    }
    const auto value = [&](const VecX& y) { return stencil_penalty(c.stencil, Vec12(y), xi, k).value; };
    const auto gradient = [&](const VecX& y) { return VecX(stencil_penalty(c.stencil, Vec12(y), xi, k).gradient); };
    EXPECT_TRUE(test::near_relative(p.gradient, test::fd_gradient(value, c.x, 1e-7), 1e-5));
    EXPECT_TRUE(test::near_relative(p.hessian, test::fd_jacobian(gradient, c.x, 1e-7), 1e-5));
  }
}

TEST(MabdStencilPenalty, VanishesBeyondTheThicknessAndCountsMultiplicity) {
  StencilCase c = stencil_cases()[0];
  const double d = std::sqrt(stencil_squared_distance_value(c.stencil, c.x));
  EXPECT_EQ(stencil_penalty(c.stencil, c.x, 0.9 * d, 1.0).value, 0.0);
  const double once = stencil_penalty(c.stencil, c.x, 0.05, 1.0).value;
  c.stencil.multiplicity = 3;
  EXPECT_DOUBLE_EQ(stencil_penalty(c.stencil, c.x, 0.05, 1.0).value, 3 * once);
}

// ------------------------------------------------------------------------------------ two bodies

/// Box 1 tilted on box 0's top face, its lowest corner 0.004 above it, within ξ = 0.01.
std::vector<Vec12> touching_states() {
  const Mat3 R = Eigen::AngleAxisd(0.2, Vec3(1, 0.7, 0).normalized()).toRotationMatrix();
  double lowest = 0.0;
  for (int c = 0; c < 8; ++c) lowest = std::min(lowest, (R * Vec3(c & 1 ? 0.5 : -0.5, c & 2 ? 0.5 : -0.5, c & 4 ? 0.5 : -0.5)).z());
  return {affine_state(Vec3::Zero(), Mat3::Identity()), affine_state(Vec3(0.05, 0.02, 0.5 + 0.004 - lowest), R)};
}

/// ∇E and P(∇²E) of every active stencil gathered into the 24 DOFs of two bodies with explicit Jacobians:
/// the coupled pair Hessian the per-body blocks approximate.
void coupled(const std::vector<AffineBody>& bodies, const std::vector<Vec12>& q, double xi, double k, VecX& g,
             MatX& H) {
  g = VecX::Zero(24);
  H = MatX::Zero(24, 24);
  WorldVertices x(2);
  for (int b = 0; b < 2; ++b)
    for (const Vec3& v : bodies[b].mesh->vertices) x[b].push_back(world_point(q[b], v));
  std::vector<std::vector<std::array<int, 2>>> edges = body_edges(bodies);
  const auto stencils = active_stencils(bodies, edges, find_contact_candidates(bodies, edges, x, nullptr, xi), x, xi);
  ASSERT_FALSE(stencils.empty());
  for (const ContactStencil& s : stencils) {
    const StencilDerivatives p = stencil_penalty(s, stencil_positions(s, x), xi, k);
    Eigen::Matrix<double, 12, 24> J = Eigen::Matrix<double, 12, 24>::Zero();
    for (int v = 0; v < s.count; ++v)
      J.block<3, 12>(3 * v, 12 * s.v[v].body) = point_jacobian(bodies[s.v[v].body].mesh->vertices[s.v[v].vertex]);
    g += J.transpose() * p.gradient;
    H += J.transpose() * project_to_psd(p.hessian) * J;
  }
}

TEST(MabdPenaltyContact, BodyBlocksAreTheCoupledGradientAndTwiceTheDiagonalHessianBlocks) {
  const std::vector<AffineBody> bodies = boxes(2);
  const std::vector<Vec12> q = touching_states();
  const double xi = 0.01, k = 500.0, h = 0.01;
  PenaltyContact contact(bodies, std::nullopt, true, xi, k, h);
  const PenaltyContact::Proximity prox = contact.evaluate(q);
  ASSERT_GT(prox.active, 0);
  EXPECT_NEAR(prox.min_distance, 0.004, 1e-12);
  EXPECT_NEAR(prox.max_penetration, xi - 0.004, 1e-12);
  ASSERT_TRUE(contact.touches(0) && contact.touches(1));
  VecX g;
  MatX H;
  coupled(bodies, q, xi, k, g, H);
  ASSERT_GT(g.norm(), 0.0);
  for (int b = 0; b < 2; ++b) {
    EXPECT_TRUE(test::near_relative(contact.gradient(b), g.segment<12>(12 * b), 1e-12));
    EXPECT_TRUE(test::near_relative(contact.hessian(b), 2.0 * H.block<12, 12>(12 * b, 12 * b), 1e-12));
  }
  // The majoriser: diag(2A, 2C) − [A B; Bᵀ C] is PSD (penalty_contact.hpp), and B is not zero here.
  MatX majorised = MatX::Zero(24, 24);
  majorised.block<12, 12>(0, 0) = contact.hessian(0);
  majorised.block<12, 12>(12, 12) = contact.hessian(1);
  ASSERT_GT((H.block<12, 12>(0, 12)).norm(), 0.0);
  const Eigen::SelfAdjointEigenSolver<MatX> eigen(majorised - H);
  EXPECT_GT(eigen.eigenvalues().minCoeff(), -1e-9 * H.norm());
  // And the gradient is the derivative of the energy in each body's DOFs.
  for (int b = 0; b < 2; ++b) {
    const auto value = [&](const VecX& y) {
      std::vector<Vec12> moved = q;
      moved[b] = Vec12(y);
      return contact.energy(moved);
    };
    EXPECT_TRUE(test::near_relative(contact.gradient(b), test::fd_gradient(value, q[b], 1e-8), 1e-5));
  }
  EXPECT_NEAR(contact.energy(q), prox.energy, 1e-15);
}

TEST(MabdPenaltyContact, AFixedBodyTakesNoShareAndItsMovingPartnerKeepsItsBlockOnce) {
  const std::vector<AffineBody> bodies = boxes(2, /*first_fixed=*/true);
  const std::vector<Vec12> q = touching_states();
  PenaltyContact contact(bodies, std::nullopt, true, 0.01, 500.0, 0.01);
  contact.evaluate(q);
  EXPECT_FALSE(contact.touches(0));
  ASSERT_TRUE(contact.touches(1));
  VecX g;
  MatX H;
  coupled(bodies, q, 0.01, 500.0, g, H);
  EXPECT_TRUE(test::near_relative(contact.hessian(1), H.block<12, 12>(12, 12), 1e-12));
}

TEST(MabdPenaltyContact, DefaultStiffnessIsAHundredTimesTheHeaviestMovingMassOverHSquared) {
  const std::vector<AffineBody> bodies = boxes(2, /*first_fixed=*/true);
  const PenaltyContact contact(bodies, Ground{}, true, 0.01, std::nullopt, 0.01);
  EXPECT_DOUBLE_EQ(contact.stiffness(1, -1), 100.0 * bodies[1].mass / 1e-4);
  EXPECT_DOUBLE_EQ(contact.stiffness(0, 1), 100.0 * bodies[1].mass / 1e-4);  // the fixed one does not count
  EXPECT_DOUBLE_EQ(PenaltyContact(bodies, Ground{}, true, 0.01, 7.0, 0.01).stiffness(0, 1), 7.0);
}

// ------------------------------------------------------------------------------------ settings

Settings settings_of(const nlohmann::json& mabd) {
  nlohmann::json file = nlohmann::json::parse(R"({ "settings": { "solver": "mabd" },
      "bodies": [ { "name": "box", "shape": { "box": [0.2, 0.2, 0.2] } } ] })");
  file["settings"]["mabd"] = mabd;
  return parse_scene(file, "dir/scene.json").settings;
}

TEST(MabdPenaltyContact, SettingsAreReadAndCheckedWithTheirJsonPath) {
  EXPECT_FALSE(read_mabd_settings(settings_of(nlohmann::json::object()), "dir/scene.json").contact_stiffness);
  EXPECT_EQ(read_mabd_settings(settings_of(nlohmann::json::object()), "dir/scene.json").contact_thickness, 1e-3);
  EXPECT_FALSE(read_mabd_settings(settings_of(nlohmann::json::object()), "dir/scene.json").body_contact);
  EXPECT_TRUE(read_mabd_settings(settings_of({{"body_contact", true}}), "dir/scene.json").body_contact);
  const MabdSettings s = read_mabd_settings(settings_of({{"contact_stiffness", 2e6}, {"contact_thickness", 0.002}}),
                                            "dir/scene.json");
  EXPECT_EQ(s.contact_stiffness, 2e6);
  EXPECT_EQ(s.contact_thickness, 0.002);
  for (const char* field : {"contact_stiffness", "contact_thickness"}) {
    try {
      read_mabd_settings(settings_of({{field, 0}}), "dir/scene.json");
      ADD_FAILURE() << field << " = 0 accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                "dir/scene.json: settings.mabd." + std::string(field) + ": expected a positive number, got 0");
    }
  }
}

}  // namespace
}  // namespace affix
