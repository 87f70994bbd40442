// The co-rotated affine body of the mabd solver (He 2026 §3.3–3.4, corotated_body.hpp) and its settings
// (mabd_settings.hpp), against references written here: the elastic gradient against central differences
// of the energy (the polar R recomputed from A at every sample, so the test also shows that holding the
// polar R constant loses nothing), the rest stiffness K₀ against the finite-difference Hessian at A = I
// and its closed-form spectrum, the co-rotation Q against its definition (orthogonal, QᵀMQ = M for a
// real body's mass matrix, its solve against a dense solve), the co-rotated Newton matrix against the
// true one to first order in the strain, Lamé parameters against hand values, and every field and error
// of `settings.mabd`.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cstdio>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "affix/body/affine_body.hpp"
#include "affix/error.hpp"
#include "affix/math/rotation.hpp"
#include "affix/model/model.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/mabd/corotated_body.hpp"
#include "affix/solvers/mabd/mabd_settings.hpp"
#include "affix/solvers/registry.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

constexpr RotationExtraction kKinds[] = {RotationExtraction::polar, RotationExtraction::normalize};
constexpr double kVolume = 0.3;  // m³
const Lame kLame = Lame::from_young(1e7, 0.3);

// ------------------------------------------------------------------------------------ states

Vec12 state_of(const Vec3& p, const Mat3& A) { return affine_state(p, A); }

class RandomStates {
 public:
  explicit RandomStates(unsigned seed) : rng_(seed) {}
  double normal() { return std::normal_distribution<double>()(rng_); }
  Vec3 vector() { return Vec3(normal(), normal(), normal()); }
  Mat3 rotation() { return Quat(normal(), normal(), normal(), normal()).normalized().toRotationMatrix(); }
  /// A random symmetric matrix of Frobenius norm 1.
  Mat3 symmetric() {
    Mat3 S;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) S(i, j) = normal();
    S = 0.5 * (S + S.transpose());
    return S / S.norm();
  }
  /// A near-rigid state: A = R (I + strain·S), S symmetric with ‖S‖ = 1, and a random translation.
  Vec12 near_rigid(double strain) { return state_of(vector(), rotation() * (Mat3::Identity() + strain * symmetric())); }

 private:
  std::mt19937 rng_;
};

/// The rotation `kind` reads from A, computed as the solver does (CoRotation).
Mat3 rotation_of(const Vec12& q, RotationExtraction kind) { return CoRotation(state_matrix(q), kind).rotation(); }

/// Ψ(q) with R recomputed from q: the true energy of the body as a function of its state alone.
double energy(const Vec12& q, RotationExtraction kind) {
  return elastic_energy(q, rotation_of(q, kind), kVolume, kLame, kind);
}

/// The Hessian of `f` by central second differences of its values (no gradient involved).
MatX fd_hessian_of_values(const std::function<double(const VecX&)>& f, const VecX& x, double h) {
  const Eigen::Index n = x.size();
  MatX H(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = i; j < n; ++j) {
      const auto at = [&](double si, double sj) {
        VecX y = x;
        y[i] += si * h;
        y[j] += sj * h;
        return f(y);
      };
      H(i, j) = H(j, i) = (at(1, 1) - at(1, -1) - at(-1, 1) + at(-1, -1)) / (4.0 * h * h);
    }
  }
  return H;
}

MatX fd_energy_hessian(const Vec12& q, RotationExtraction kind) {
  return fd_hessian_of_values([kind](const VecX& x) { return energy(Vec12(x), kind); }, q, 1e-4);
}

/// Q as a matrix, column by column from apply().
Mat12 q_matrix(const CoRotation& Q) {
  Mat12 M;
  for (int k = 0; k < 12; ++k) M.col(k) = Q.apply(Vec12::Unit(k));
  return M;
}

/// A vector of the A block from a 3×3 matrix (rows of A stacked, as in q), with a zero p part.
Vec12 a_block(const Mat3& M) { return state_of(Vec3::Zero(), M); }

// ------------------------------------------------------------------------------------ elastic energy

TEST(MabdCorotatedBody, ElasticGradientMatchesFiniteDifferencesOfTheEnergy) {
  RandomStates random(7);
  for (RotationExtraction kind : kKinds) {
    for (int sample = 0; sample < 20; ++sample) {
      const Vec12 q = random.near_rigid(0.02);
      const Vec12 g = elastic_gradient(q, rotation_of(q, kind), kVolume, kLame, kind);
      ASSERT_GT(g.tail<9>().norm(), 1e3) << "a strained body has an elastic force";
      EXPECT_TRUE(g.head<3>().isZero(0.0)) << "translation stores no energy";
      const VecX fd = test::fd_gradient([kind](const VecX& x) { return energy(Vec12(x), kind); }, q, 1e-6);
      EXPECT_TRUE(test::near_relative(g, fd, 1e-7))
          << to_string(kind) << ", sample " << sample;
    }
  }
}

// The polar R is stationary: Ψ(q, R) is smallest over rotations at R = polar(A) (for small strain), so
// ∂Ψ/∂R vanishes there and holding R fixed gives the whole gradient. The test above would pass for any
// R if it did not depend on that; with a rotation that is not A's polar factor it must fail.
TEST(MabdCorotatedBody, HoldingRFixedIsExactOnlyForThePolarFactor) {
  RandomStates random(11);
  const Vec12 q = random.near_rigid(0.05);
  const Mat3 A = state_matrix(q);
  const Mat3 off = polar_rotation(A) * rotation_from_rotation_vector(Vec3(0.02, -0.01, 0.03));
  const Vec12 g_off = elastic_gradient(q, off, kVolume, kLame, RotationExtraction::polar);
  const VecX fd = test::fd_gradient([](const VecX& x) { return energy(Vec12(x), RotationExtraction::polar); }, q);
  EXPECT_GT((g_off - fd).cwiseAbs().maxCoeff(), 1e-2 * fd.cwiseAbs().maxCoeff());
}

TEST(MabdCorotatedBody, EnergyIsZeroOnRotationsAndInvariantUnderThem) {
  RandomStates random(3);
  for (RotationExtraction kind : kKinds) {
    const Mat3 R = random.rotation();
    EXPECT_NEAR(energy(state_of(random.vector(), R), kind), 0.0, 1e-20 * kLame.mu) << to_string(kind);
    const Vec12 q = random.near_rigid(0.03);
    const Vec12 turned = state_of(R * state_translation(q), R * state_matrix(q));
    EXPECT_NEAR(energy(turned, kind), energy(q, kind), 1e-10 * energy(q, kind)) << to_string(kind);
  }
}

// ------------------------------------------------------------------------------------ rest stiffness

TEST(MabdCorotatedBody, RestStiffnessIsTheHessianOfTheEnergyAtRest) {
  const Mat12 K0 = rest_stiffness(kVolume, kLame);
  const Vec12 rest = state_of(Vec3(0.3, -0.2, 1.0), Mat3::Identity());
  for (RotationExtraction kind : kKinds) {
    const MatX fd = fd_energy_hessian(rest, kind);
    EXPECT_TRUE(test::near_relative(K0, fd, 1e-6)) << to_string(kind);
  }
}

// K₀ = V(μ(I₉ + T) + λ vec(I)vec(I)ᵀ) on the A block: on symmetric δA it is 2μV (five traceless
// directions) and (2μ + 3λ)V (δA = I), on skew δA (infinitesimal rotations) and on p it is zero.
TEST(MabdCorotatedBody, RestStiffnessIsSymmetricPositiveSemidefiniteWithTheRigidNullSpace) {
  const Mat12 K0 = rest_stiffness(kVolume, kLame);
  EXPECT_TRUE(K0 == K0.transpose());
  const Eigen::SelfAdjointEigenSolver<Mat12> eig(K0);
  const Vec12 values = eig.eigenvalues();  // ascending
  const double scale = values.maxCoeff();
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(values[k], 0.0, 1e-12 * scale) << "eigenvalue " << k;
  for (int k = 6; k < 11; ++k) EXPECT_NEAR(values[k], 2.0 * kLame.mu * kVolume, 1e-12 * scale) << "eigenvalue " << k;
  EXPECT_NEAR(values[11], (2.0 * kLame.mu + 3.0 * kLame.lambda) * kVolume, 1e-12 * scale);
  // The null space is exactly p and the skew part of A.
  for (int i = 0; i < 3; ++i) EXPECT_TRUE((K0 * Vec12::Unit(i)).isZero(0.0)) << "p" << i;
  for (int axis = 0; axis < 3; ++axis) {
    const Vec12 rotation = a_block(skew(Vec3::Unit(axis)));
    EXPECT_LT((K0 * rotation).norm(), 1e-12 * scale) << "infinitesimal rotation about axis " << axis;
  }
  const Vec12 dilation = a_block(Mat3::Identity());
  EXPECT_NEAR(dilation.dot(K0 * dilation) / dilation.squaredNorm(), (2.0 * kLame.mu + 3.0 * kLame.lambda) * kVolume,
              1e-12 * scale);
}

// ------------------------------------------------------------------------------------ co-rotation

TEST(MabdCorotatedBody, CoRotationIsOrthogonalAndItsTransposeIsItsInverse) {
  RandomStates random(5);
  for (RotationExtraction kind : kKinds) {
    const Vec12 q = random.near_rigid(0.05);
    const CoRotation Q(state_matrix(q), kind);
    const Mat3& R = Q.rotation();
    EXPECT_TRUE((R.transpose() * R).isApprox(Mat3::Identity(), 1e-14)) << to_string(kind);
    EXPECT_NEAR(R.determinant(), 1.0, 1e-14) << to_string(kind);
    const Mat12 Qm = q_matrix(Q);
    EXPECT_TRUE((Qm.transpose() * Qm).isApprox(Mat12::Identity(), 1e-14)) << to_string(kind);
    for (int sample = 0; sample < 5; ++sample) {
      Vec12 x;
      for (int i = 0; i < 12; ++i) x[i] = random.normal();
      EXPECT_LT((Q.apply_transpose(Q.apply(x)) - x).norm(), 1e-14 * x.norm());
      EXPECT_LT((Q.apply(Q.apply_transpose(x)) - x).norm(), 1e-14 * x.norm());
      EXPECT_NEAR(Q.apply(x).norm(), x.norm(), 1e-14 * x.norm());
      EXPECT_LT((Q.apply_transpose(x) - Qm.transpose() * x).norm(), 1e-14 * x.norm());
    }
    // Q maps the state of a body to the state of the same body turned by R: p → Rp, A → RA.
    const Vec12 turned = Q.apply(q);
    EXPECT_TRUE(state_translation(turned).isApprox(R * state_translation(q), 1e-14));
    EXPECT_TRUE(state_matrix(turned).isApprox(R * state_matrix(q), 1e-14));
  }
  // The polar kind reads A's polar factor; normalize orthonormalises A's columns in order.
  const Mat3 A = random.rotation() * (Mat3::Identity() + 0.05 * random.symmetric());
  EXPECT_TRUE(CoRotation(A, RotationExtraction::polar).rotation().isApprox(polar_rotation(A), 1e-14));
  const Mat3 N = CoRotation(A, RotationExtraction::normalize).rotation();
  EXPECT_TRUE(N.col(0).isApprox(A.col(0).normalized(), 1e-14));
  EXPECT_NEAR(N.col(1).dot(A.col(0).cross(A.col(1)).normalized()), 0.0, 1e-14) << "column 1 stays in the plane of A's first two";
}

/// A closed box mesh spanning [lo, hi] (not containing the origin), as an OBJ file in `dir`.
std::filesystem::path off_centre_box_obj(const std::filesystem::path& dir, const Vec3& lo, const Vec3& hi) {
  const auto path = dir / "off_centre_box.obj";
  std::ofstream out(path);
  for (int k = 0; k < 8; ++k)
    out << "v " << (k & 1 ? hi : lo).x() << ' ' << (k & 2 ? hi : lo).y() << ' ' << (k & 4 ? hi : lo).z() << '\n';
  // Outward faces of the cube whose vertex k has bits (x, y, z) = (k&1, k&2, k&4), 1-based.
  out << "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
  return path;
}

/// A real body whose rest origin is outside it: a 0.5 × 0.4 × 0.2 m block from a mesh, compiled and made
/// an affine body as the solver makes it (its mass matrix has p–A coupling blocks).
AffineBody off_centre_body() {
  const auto dir = std::filesystem::temp_directory_path() / ("affix_mabd_corotated_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  BodyDef b;
  b.name = "block";
  b.shape = MeshShape{off_centre_box_obj(dir, Vec3(0.2, -0.1, 0.05), Vec3(0.7, 0.3, 0.25)), Vec3::Ones()};
  b.position = Vec3(1.0, 2.0, 3.0);
  Scene scene;
  scene.name = "test";
  scene.file = "test.json";
  scene.bodies = {b};
  const Model model = compile(scene);
  std::filesystem::remove_all(dir);
  return affine_bodies(model).at(0);
}

TEST(MabdCorotatedBody, CoRotationKeepsARealBodysMassMatrix) {
  const AffineBody body = off_centre_body();
  ASSERT_GT(body.center_of_mass.norm(), 0.3) << "the body's centre of mass is away from its origin";
  ASSERT_NEAR(body.mass, 1000.0 * 0.5 * 0.4 * 0.2, 1e-9);
  const Mat12 M = body.mass_matrix.matrix();
  ASSERT_GT((M.block<3, 9>(0, 3).cwiseAbs().maxCoeff()), 1.0) << "the p–A coupling blocks are not zero";
  RandomStates random(13);
  for (RotationExtraction kind : kKinds) {
    for (int sample = 0; sample < 5; ++sample) {
      const Mat12 Q = q_matrix(CoRotation(state_matrix(random.near_rigid(0.05)), kind));
      EXPECT_TRUE(test::near_relative(Q.transpose() * M * Q, M, 1e-14)) << to_string(kind);
    }
  }
  // M is not invariant under just any orthogonal 12×12 map: one that turns p alone changes it.
  Mat12 P = Mat12::Identity();
  P.topLeftCorner<3, 3>() = random.rotation();
  EXPECT_FALSE(test::near_relative(P.transpose() * M * P, M, 1e-3));
}

// Q H₀⁻¹ Qᵀ x against a dense LU solve of the assembled H = Q H₀ Qᵀ. The two agree to the dense solve's
// own accuracy, ε·cond(H): 1e-12 relative for a soft material (cond ~ 10³), and the same within cond(H)
// for the default stiffness (E = 8e9 Pa, cond ~ 10⁵), where the dense reference itself loses digits.
TEST(MabdCorotatedBody, CoRotatedSolveEqualsADenseSolveOfItsHessian) {
  const AffineBody body = off_centre_body();
  const double h = 0.01;
  RandomStates random(17);
  for (double young : {1e6, 8e9}) {
    const Mat12 K0 = rest_stiffness(body.volume, Lame::from_young(young, 0.3));
    const CorotatedFactor factor(body.mass_matrix.matrix(), K0, h);
    EXPECT_TRUE(factor.matrix.isApprox(body.mass_matrix.matrix() + h * h * K0, 1e-15));
    const Eigen::SelfAdjointEigenSolver<Mat12> eig(factor.matrix);
    const double cond = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
    const double tolerance = std::max(1e-12, 1e-15 * cond);
    std::printf("E = %.0e Pa: cond(H) = %.2e, tolerance %.1e\n", young, cond, tolerance);
    for (RotationExtraction kind : kKinds) {
      for (int sample = 0; sample < 5; ++sample) {
        const CoRotation Q(state_matrix(random.near_rigid(0.01)), kind);
        const Mat12 H = Q.hessian(factor);
        EXPECT_TRUE(test::near_relative(H, H.transpose(), 1e-15));
        EXPECT_TRUE(test::near_relative(H, q_matrix(Q) * factor.matrix * q_matrix(Q).transpose(), 1e-14));
        Vec12 x;
        for (int i = 0; i < 12; ++i) x[i] = random.normal();
        const Vec12 dense = H.fullPivLu().solve(x);
        const Vec12 solved = Q.solve(factor, x);
        EXPECT_LT((solved - dense).norm(), tolerance * dense.norm()) << young << ", " << to_string(kind) << ", " << sample;
        EXPECT_LT((H * solved - x).norm(), 1e-14 * H.norm() * solved.norm()) << "backward error";
      }
    }
  }
}

// H = Q(M + h²K₀)Qᵀ = M + h² QK₀Qᵀ against the true M + h²∇²Ψ: equal on rotations, and apart by O(strain)
// off them (He 2026 Eq. 11). The error is measured at two strains a factor 10 apart and must shrink ~10×.
TEST(MabdCorotatedBody, CoRotatedHessianIsTheTrueNewtonMatrixToFirstOrderInTheStrain) {
  const AffineBody body = off_centre_body();
  const double h = 0.01;
  const Mat12 K0 = rest_stiffness(body.volume, kLame);
  const CorotatedFactor factor(body.mass_matrix.matrix(), K0, h);
  const double scale = h * h * K0.cwiseAbs().maxCoeff();
  for (RotationExtraction kind : kKinds) {
    RandomStates random(19);
    const Mat3 R = random.rotation();
    const Mat3 S = random.symmetric();
    const Vec3 p = random.vector();
    const auto error_at = [&](double strain) {
      const Vec12 q = state_of(p, R * (Mat3::Identity() + strain * S));
      // energy() uses kVolume; scale the Hessian to this body's volume (Ψ is linear in V).
      const MatX true_hessian = body.mass_matrix.matrix() + h * h * (body.volume / kVolume) * fd_energy_hessian(q, kind);
      return (CoRotation(state_matrix(q), kind).hessian(factor) - true_hessian).cwiseAbs().maxCoeff() / scale;
    };
    const double e0 = error_at(0.0), e1 = error_at(1e-2), e2 = error_at(1e-3);
    std::printf("%s: ‖H_corotated − H‖/‖h²K₀‖ = %.2e (rest), %.2e (strain 1e-2), %.2e (strain 1e-3)\n",
                to_string(kind), e0, e1, e2);
    EXPECT_LT(e0, 1e-6) << to_string(kind);
    EXPECT_LT(e1, 0.1) << to_string(kind);
    EXPECT_GT(e1, 1e-4) << to_string(kind) << ": the strained Hessian differs at first order";
    EXPECT_NEAR(e1 / e2, 10.0, 3.0) << to_string(kind) << ": the error is first order in the strain";
  }
}

// ------------------------------------------------------------------------------------ twist stiffness

/// The co-rotated Newton matrix with the twist term of the strained state q (corotated_body.hpp).
CoRotation twisted(const Vec12& q, RotationExtraction kind, const CorotatedFactor& factor, double volume, double h) {
  CoRotation Q(state_matrix(q), kind);
  Q.set_twist(factor, h * h * twist_stiffness(state_matrix(q), Q.rotation(), volume, kLame, kind));
  return Q;
}

// With Γ the polar Newton matrix is the true one, not only to first order: under tension (every τ ≥ 0,
// nothing clamped) Q(H₀ + U₀h²ΓU₀ᵀ)Qᵀ equals M + h²∇²Ψ to the accuracy of the finite differences, at
// strains where the test above sees O(strain) errors. Without Γ the same comparison fails.
TEST(MabdCorotatedBody, TwistStiffnessMakesThePolarNewtonMatrixExactUnderTension) {
  const AffineBody body = off_centre_body();
  const double h = 0.01;
  const CorotatedFactor factor(body.mass_matrix.matrix(), rest_stiffness(body.volume, kLame), h);
  const double scale = h * h * rest_stiffness(body.volume, kLame).cwiseAbs().maxCoeff();
  RandomStates random(23);
  for (int sample = 0; sample < 4; ++sample) {
    const Mat3 V = random.rotation();
    const Vec3 stretch(1.0 + 0.3 * sample, 0.5, 0.2);  // positive principal strains: tension
    const Vec12 q = state_of(random.vector(), random.rotation() * (Mat3::Identity() + 1e-2 * V * stretch.asDiagonal() * V.transpose()));
    const MatX true_hessian = body.mass_matrix.matrix() + h * h * (body.volume / kVolume) * fd_energy_hessian(q, RotationExtraction::polar);
    const Mat12 with_twist = twisted(q, RotationExtraction::polar, factor, body.volume, h).hessian(factor);
    const Mat12 without = CoRotation(state_matrix(q), RotationExtraction::polar).hessian(factor);
    const double error = (with_twist - true_hessian).cwiseAbs().maxCoeff() / scale;
    const double old_error = (without - true_hessian).cwiseAbs().maxCoeff() / scale;
    std::printf("sample %d: ‖H − H_true‖/‖h²K₀‖ = %.2e with the twist term, %.2e without\n", sample, error, old_error);
    EXPECT_LT(error, 1e-6) << sample;
    EXPECT_GT(old_error, 1e-3) << sample << ": the twist term is what was missing";
  }
}

// Γ is zero on a rotation (no stress), positive semi-definite always (compressive twists clamped), and
// the Woodbury solve (H₀⁻¹ − Z K Zᵀ) equals a dense solve of the twisted Hessian, for both rotations.
TEST(MabdCorotatedBody, TwistedSolveEqualsADenseSolveAndGammaIsPositiveSemidefinite) {
  const AffineBody body = off_centre_body();
  const double h = 0.01;
  const CorotatedFactor factor(body.mass_matrix.matrix(), rest_stiffness(body.volume, kLame), h);
  RandomStates random(29);
  for (RotationExtraction kind : kKinds) {
    const Mat3 rigid = random.rotation();
    EXPECT_TRUE(twist_stiffness(rigid, CoRotation(rigid, kind).rotation(), body.volume, kLame, kind).isZero(1e-6 * kLame.mu))
        << to_string(kind);
    for (int sample = 0; sample < 10; ++sample) {
      const Vec12 q = random.near_rigid(5e-2);  // random signs: some twists compressive, clamped
      const Mat3 A = state_matrix(q);
      const Mat3 gamma = twist_stiffness(A, CoRotation(A, kind).rotation(), body.volume, kLame, kind);
      EXPECT_TRUE(test::near_relative(gamma, gamma.transpose(), 1e-14));
      EXPECT_GE(Eigen::SelfAdjointEigenSolver<Mat3>(gamma).eigenvalues().minCoeff(), -1e-12 * gamma.norm()) << sample;
      const CoRotation Q = twisted(q, kind, factor, body.volume, h);
      const Mat12 H = Q.hessian(factor);
      Vec12 x;
      for (int i = 0; i < 12; ++i) x[i] = random.normal();
      const Vec12 dense = H.fullPivLu().solve(x);
      EXPECT_LT((Q.solve(factor, x) - dense).norm(), 1e-10 * dense.norm()) << to_string(kind) << ", " << sample;
    }
  }
}

/// Γ⁺ by its definition in the header, in S's principal frame: S = sym(RᵀA) = V diag(s) Vᵀ, p = ∂ψ/∂s,
/// τ_k = (p_i + p_j)/(s_i + s_j) clamped at 0, Γ = volume · V diag(τ) Vᵀ.
Mat3 principal_twist(const Mat3& A, const Mat3& R, double volume, RotationExtraction kind) {
  const Mat3 RtA = R.transpose() * A;
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(0.5 * (RtA + RtA.transpose()));
  const Vec3 s = eigen.eigenvalues();
  Vec3 p;
  if (kind == RotationExtraction::polar) {  // ψ = μ Σ(s − 1)² + ½λ(Σ(s − 1))²
    p = 2.0 * kLame.mu * (s.array() - 1.0).matrix() + Vec3::Constant(kLame.lambda * (s.sum() - 3.0));
  } else {  // St. Venant–Kirchhoff: p_i = s_i(2μE_i + λΣE), E_i = ½(s_i² − 1)
    const Vec3 E = 0.5 * (s.array().square() - 1.0).matrix();
    p = s.cwiseProduct(2.0 * kLame.mu * E + Vec3::Constant(kLame.lambda * E.sum()));
  }
  Vec3 tau;
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    tau[k] = std::max(0.0, (p[i] + p[j]) / (s[i] + s[j]));
  }
  return volume * eigen.eigenvectors() * tau.asDiagonal() * eigen.eigenvectors().transpose();
}

// The end of a step reads Ψ and Γ together (elastic_state): the same Ψ as elastic_energy, and Γ (with its
// negative twists clamped, psd_clamp.hpp) as the header defines it in the principal frame.
TEST(MabdCorotatedBody, ElasticStateIsTheEnergyAndThePrincipalTwistStiffness) {
  RandomStates random(31);
  for (RotationExtraction kind : kKinds) {
    int clamped = 0;
    for (int sample = 0; sample < 200; ++sample) {
      const Vec12 q = random.near_rigid(sample % 2 ? 5e-2 : 1e-5);
      const Mat3 A = state_matrix(q);
      const Mat3 R = rotation_of(q, kind);
      const ElasticState state = elastic_state(A, R, kVolume, kLame, kind);
      EXPECT_NEAR(state.energy, elastic_energy(q, R, kVolume, kLame, kind), 1e-13 * state.energy) << sample;
      const Mat3 reference = principal_twist(A, R, kVolume, kind);
      EXPECT_LE((state.twist - reference).norm(), 1e-9 * reference.norm() + 1e-12 * kLame.mu * kVolume)
          << to_string(kind) << ", sample " << sample;
      clamped += Eigen::SelfAdjointEigenSolver<Mat3>(reference).eigenvalues().minCoeff() < 1e-9 * reference.norm();
    }
    EXPECT_GT(clamped, 20) << "the samples exercise the clamp";
  }
}

// ------------------------------------------------------------------------------------ Lamé

TEST(MabdCorotatedBody, LameParametersOfYoungsModulusAndPoissonsRatio) {
  // μ = E / (2(1 + ν)), λ = Eν / ((1 + ν)(1 − 2ν)), worked by hand.
  const Lame a = Lame::from_young(1e6, 0.25);  // μ = 1e6/2.5, λ = 2.5e5/(1.25·0.5)
  EXPECT_DOUBLE_EQ(a.mu, 4e5);
  EXPECT_DOUBLE_EQ(a.lambda, 4e5);
  const Lame steel = Lame::from_young(210e9, 0.3);  // μ = 210e9/2.6, λ = 63e9/0.52
  EXPECT_NEAR(steel.mu, 80.76923076923077e9, 1e-3);
  EXPECT_NEAR(steel.lambda, 121.15384615384616e9, 1e-3);
  const Lame zero = Lame::from_young(8e9, 0.0);
  EXPECT_DOUBLE_EQ(zero.mu, 4e9);
  EXPECT_DOUBLE_EQ(zero.lambda, 0.0);
  const Lame third = Lame::from_young(3.0, 1.0 / 3.0);  // μ = 3/(8/3) = 9/8, λ = 1/((4/3)(1/3)) = 9/4
  EXPECT_DOUBLE_EQ(third.mu, 1.125);
  EXPECT_DOUBLE_EQ(third.lambda, 2.25);
}

// ------------------------------------------------------------------------------------ settings.mabd

using nlohmann::json;

const std::filesystem::path kFile = "dir/scene.json";

/// A free box with `mabd` as its settings.mabd block.
Scene scene_with_mabd(const json& mabd) {
  json file = json::parse(R"({ "settings": { "dt": 0.01, "duration": 0.1, "solver": "mabd" },
      "bodies": [ { "name": "box", "shape": { "box": [0.2, 0.2, 0.2] }, "position": [0, 0, 1] } ] })");
  file["settings"]["mabd"] = mabd;
  return parse_scene(file, kFile);
}

MabdSettings read(const json& mabd) {
  const Scene scene = scene_with_mabd(mabd);
  return read_mabd_settings(scene.settings, scene.file);
}

std::string read_error(const json& mabd) {
  try {
    read(mabd);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for settings.mabd " << mabd.dump();
  return {};
}

TEST(MabdSettings, AnAbsentOrEmptyBlockGivesTheDefaults) {
  const Scene scene = parse_scene(json::parse(R"({ "bodies": [ { "name": "a", "shape": { "sphere": 1 } } ] })"),
                                  kFile);
  const MabdSettings absent = read_mabd_settings(scene.settings, scene.file);
  EXPECT_EQ(absent, MabdSettings{});
  EXPECT_EQ(read(json::object()), MabdSettings{});
  EXPECT_FALSE(absent.youngs_modulus.has_value());
  EXPECT_EQ(absent.poisson_ratio, 0.3);
  EXPECT_EQ(absent.iterations, 1);
  EXPECT_EQ(absent.tolerance, 1e-4);
  EXPECT_EQ(absent.rotation, RotationExtraction::polar);
  EXPECT_EQ(absent.dual_solver, DualSolverKind::automatic);
}

TEST(MabdSettings, EveryFieldIsRead) {
  const MabdSettings s = read(json::parse(R"({ "youngs_modulus": 2.5e8, "poisson_ratio": 0.45, "iterations": 4,
                                               "tolerance": 1e-6, "rotation": "normalize", "dual_solver": "tree" })"));
  EXPECT_EQ(s.youngs_modulus, 2.5e8);
  EXPECT_EQ(s.poisson_ratio, 0.45);
  EXPECT_EQ(s.iterations, 4);
  EXPECT_EQ(s.tolerance, 1e-6);
  EXPECT_EQ(s.rotation, RotationExtraction::normalize);
  EXPECT_EQ(s.dual_solver, DualSolverKind::tree);
  EXPECT_EQ(read(json::parse(R"({ "poisson_ratio": 0 })")).poisson_ratio, 0.0);
  EXPECT_EQ(read(json::parse(R"({ "rotation": "polar" })")).rotation, RotationExtraction::polar);
  EXPECT_EQ(read(json::parse(R"({ "dual_solver": "automatic" })")).dual_solver, DualSolverKind::automatic);
  EXPECT_EQ(read(json::parse(R"({ "dual_solver": "direct" })")).dual_solver, DualSolverKind::direct);
  EXPECT_EQ(read(json::parse(R"({ "dual_solver": "chain" })")).dual_solver, DualSolverKind::chain);
  EXPECT_EQ(read(json::parse(R"({ "dual_solver": "loop" })")).dual_solver, DualSolverKind::loop);
  EXPECT_EQ(read(json::parse(R"({ "dual_solver": "gauss_seidel" })")).dual_solver, DualSolverKind::gauss_seidel);
  const MabdSettings gs = read(json::parse(R"({ "gauss_seidel_tolerance": 1e-9, "gauss_seidel_iterations": 7 })"));
  EXPECT_EQ(gs.gauss_seidel_tolerance, 1e-9);
  EXPECT_EQ(gs.gauss_seidel_iterations, 7);
}

TEST(MabdSettings, BadValuesNameTheFileAndTheJsonPath) {
  const std::string at = kFile.string() + ": settings.mabd.";
  EXPECT_EQ(read_error(json::parse(R"({ "poisson_ratio": 0.5 })")),
            at + "poisson_ratio: expected a number in [0, 0.5), got 0.5");
  EXPECT_EQ(read_error(json::parse(R"({ "poisson_ratio": -0.1 })")),
            at + "poisson_ratio: expected a non-negative number, got -0.1");
  EXPECT_EQ(read_error(json::parse(R"({ "iterations": 0 })")), at + "iterations: expected an integer ≥ 1, got 0");
  EXPECT_EQ(read_error(json::parse(R"({ "iterations": 1.5 })")), at + "iterations: expected an integer, got 1.5");
  EXPECT_EQ(read_error(json::parse(R"({ "youngs_modulus": 0 })")),
            at + "youngs_modulus: expected a positive number, got 0");
  EXPECT_EQ(read_error(json::parse(R"({ "tolerance": -1 })")), at + "tolerance: expected a positive number, got -1");
  EXPECT_EQ(read_error(json::parse(R"({ "rotation": "foo" })")),
            at + "rotation: expected one of \"polar\", \"normalize\", got \"foo\"");
  EXPECT_EQ(read_error(json::parse(R"({ "rotation": 1 })")), at + "rotation: expected a string, got 1");
  EXPECT_EQ(read_error(json::parse(R"({ "dual_solver": "foo" })")),
            at + "dual_solver: expected one of \"automatic\", \"direct\", \"chain\", \"tree\", \"loop\", "
                 "\"gauss_seidel\", got \"foo\"");
  EXPECT_EQ(read_error(json::parse(R"({ "gauss_seidel_tolerance": 0 })")),
            at + "gauss_seidel_tolerance: expected a positive number, got 0");
  EXPECT_EQ(read_error(json::parse(R"({ "strain_tolerance": 0 })")),
            at + "strain_tolerance: expected a positive number, got 0");
  EXPECT_EQ(read_error(json::parse(R"({ "max_iterations": 0 })")), at + "max_iterations: expected an integer ≥ 1, got 0");
  EXPECT_EQ(read_error(json::parse(R"({ "gauss_seidel_iterations": 0 })")),
            at + "gauss_seidel_iterations: expected an integer ≥ 1, got 0");
  EXPECT_EQ(read_error(json::parse(R"({ "iterations": 2, "beta": 2 })")),
            at + "beta: unknown field (expected one of: youngs_modulus, poisson_ratio, iterations, tolerance, "
                 "strain_tolerance, max_iterations, rotation, dual_solver, gauss_seidel_tolerance, gauss_seidel_iterations, contact_stiffness, "
                 "contact_thickness, body_contact)");
  EXPECT_EQ(read_error(json::parse(R"([1, 2])")), kFile.string() + ": settings.mabd: expected an object, got [1, 2]");
}

// What `affix validate` runs, and the solver when it is built: both read the block.
TEST(MabdSettings, CheckModelAndTheSolverRefuseABadBlock) {
  const auto model = std::make_shared<const Model>(compile(scene_with_mabd(json::parse(R"({ "iterations": 0 })"))));
  const std::string expected = kFile.string() + ": settings.mabd.iterations: expected an integer ≥ 1, got 0";
  try {
    check_model(*model);
    ADD_FAILURE() << "check_model accepted settings.mabd.iterations = 0";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
  try {
    make_simulator(model);
    ADD_FAILURE() << "make_simulator accepted settings.mabd.iterations = 0";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
  EXPECT_NO_THROW(check_model(compile(scene_with_mabd(json::parse(R"({ "iterations": 3 })")))));
}

}  // namespace
}  // namespace affix
