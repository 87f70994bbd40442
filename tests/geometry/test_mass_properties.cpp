// Volume integrals against closed forms: exact for polyhedra, and for the curved primitives converging
// to the smooth shape's values as the resolution grows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "affix/geometry/mass_properties.hpp"
#include "affix/geometry/primitives.hpp"

namespace affix {
namespace {

constexpr double kPi = std::numbers::pi;

TriangleMesh transformed(TriangleMesh mesh, const Mat3& R, const Vec3& t) {
  for (Vec3& v : mesh.vertices) v = R * v + t;
  return mesh;
}

TEST(MassProperties, BoxIsExact) {
  const Vec3 size(0.6, 1.4, 2.2);
  for (int n : {1, 3}) {
    const MassProperties m = mass_properties(make_box(size, n));
    const double V = size.prod();
    EXPECT_NEAR(m.volume, V, 1e-12);
    EXPECT_LT(m.first_moment.norm(), 1e-12);
    // ∫x² over [−a/2, a/2] × area = a³/12 · (b c) = V a²/12.
    const Mat3 expected = (V / 12.0 * size.cwiseProduct(size)).asDiagonal();
    EXPECT_LT((m.second_moment - expected).cwiseAbs().maxCoeff(), 1e-12) << m.second_moment;
  }
}

TEST(MassProperties, TransformWithTheBody) {
  // x ↦ R x + t:  V unchanged,  ∫x ↦ R ∫x + V t,  ∫x xᵀ ↦ R S Rᵀ + R ∫x tᵀ + t (R ∫x)ᵀ + V t tᵀ,
  // with ∫x = 0 for the centred box.
  const Vec3 size(0.6, 1.4, 2.2);
  const double V = size.prod();
  const Mat3 S0 = (V / 12.0 * size.cwiseProduct(size)).asDiagonal();
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1.0, -2.0, 0.5).normalized()).toRotationMatrix();
  const MassProperties m = mass_properties(transformed(make_box(size, 2), R, Vec3(3.0, -2.0, 5.0)));
  const Vec3 t(3.0, -2.0, 5.0);
  const Mat3 expected = R * S0 * R.transpose() + V * t * t.transpose();
  EXPECT_NEAR(m.volume, V, 1e-13);
  EXPECT_LT((m.first_moment - V * t).norm(), 1e-13 * (V * t).norm());
  EXPECT_LT((m.second_moment - expected).norm(), 1e-13 * expected.norm());
  EXPECT_LT((center_of_mass(m) - t).norm(), 1e-13 * t.norm());
  // The inertia about the centre of mass does not see the translation: R I₀ Rᵀ with the box's
  // I₀ = ρV/12 diag(sy² + sz², sx² + sz², sx² + sy²).
  const double rho = 800.0;
  const Vec3 s2 = size.cwiseProduct(size);
  const Mat3 I0 = Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()).asDiagonal() * (rho * V / 12.0);
  EXPECT_LT((inertia_tensor(m, rho) - R * I0 * R.transpose()).norm(), 1e-12 * I0.norm());
}

TEST(MassProperties, StayAccurateFarFromTheOrigin) {
  // A unit-size box 3.7e4 away: its transformed vertices are only known to ε|t| ≈ 4e-12 of its size,
  // which bounds what any method can attain. Integrating from the origin would lose another factor of
  // about |t|²/ℓ² in the cancelling tetrahedra; integrating about the vertex mean does not.
  const Vec3 size(0.6, 1.4, 2.2), t(1e4, -2e4, 3e4);
  const double V = size.prod();
  const Mat3 S0 = (V / 12.0 * size.cwiseProduct(size)).asDiagonal();
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1.0, -2.0, 0.5).normalized()).toRotationMatrix();
  const MassProperties m = mass_properties(transformed(make_box(size, 2), R, t));
  const Mat3 expected = R * S0 * R.transpose() + V * t * t.transpose();
  const double rounding = 1e-11;  // a few times ε|t|/ℓ
  EXPECT_NEAR(m.volume, V, rounding * V);
  EXPECT_LT((m.first_moment - V * t).norm(), rounding * (V * t).norm());
  EXPECT_LT((m.second_moment - expected).norm(), rounding * expected.norm());
}

TEST(MassProperties, RegularTetrahedronIsExact) {
  // Alternate corners of the cube [−1, 1]³: edge a = 2√2, volume a³/(6√2) = 8/3, and inertia about
  // the centroid m a²/20 about every axis (isotropic).
  TriangleMesh tet;
  tet.vertices = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  tet.faces = {{0, 2, 3}, {0, 3, 1}, {0, 1, 2}, {1, 3, 2}};
  const MassProperties m = mass_properties(tet);
  EXPECT_NEAR(m.volume, 8.0 / 3.0, 1e-14);
  EXPECT_LT(m.first_moment.norm(), 1e-14);
  const double rho = 2.5, mass = rho * 8.0 / 3.0, a2 = 8.0;
  EXPECT_LT((inertia_tensor(m, rho) - mass * a2 / 20.0 * Mat3::Identity()).norm(), 1e-13);
}

TEST(MassProperties, InwardMeshNegatesTheMomentsAndHasNoCentreOfMass) {
  TriangleMesh box = make_box({1.0, 1.0, 1.0}, 1);
  for (auto& f : box.faces) std::swap(f[1], f[2]);
  const MassProperties m = mass_properties(box);
  EXPECT_NEAR(m.volume, -1.0, 1e-14);
  EXPECT_THROW(center_of_mass(m), std::invalid_argument);
  EXPECT_THROW(inertia_tensor(m, 1000.0), std::invalid_argument);
}

// ---------------------------------------------------------------- curved primitives

/// Closed-form volume and principal second moments ∫x², ∫z² (∫y² = ∫x² by symmetry) of a smooth shape.
struct Smooth {
  double volume, xx, zz;
};

struct CurvedCase {
  std::string name;
  std::function<TriangleMesh(int)> make;
  Smooth exact;
  double tolerance_at_128;  ///< relative; measured errors are about 0.6–0.9 of it
};

Smooth sphere_moments(double r) {
  const double V = 4.0 / 3.0 * kPi * r * r * r;
  return {V, V * r * r / 5.0, V * r * r / 5.0};
}

Smooth cylinder_moments(double r, double L) {
  const double V = kPi * r * r * L;
  return {V, V * r * r / 4.0, V * L * L / 12.0};
}

Smooth capsule_moments(double r, double L) {
  // Cylinder plus a sphere split at z = 0 and its halves moved to ±L/2. For the hemispheres,
  // z = L/2 + z' with ∫z' = V_s/2 · 3r/8 per half and ∫z'² = V_s r²/10 per half, so together
  // ∫z² = V_s L²/4 + (3/8) L r V_s + V_s r²/5, and ∫x² is unchanged by the shift.
  const Smooth c = cylinder_moments(r, L), s = sphere_moments(r);
  return {c.volume + s.volume, c.xx + s.xx,
          c.zz + s.volume * (L * L / 4.0 + 3.0 / 8.0 * L * r) + s.zz};
}

Smooth torus_moments(double R, double a) {
  // Pappus: V = 2πR · πa². ∫ρ² dV = 2π ∫_disc ρ³ dA = 2π (R³ πa² + 3R πa⁴/4) = V (R² + 3a²/4),
  // and ∫x² = ½ ∫ρ²; ∫z² = 2πR ∫_disc z² dA = V a²/4.
  const double V = 2.0 * kPi * kPi * R * a * a;
  return {V, V * (R * R + 0.75 * a * a) / 2.0, V * a * a / 4.0};
}

/// The largest relative error of the volume and the principal second moments.
double relative_error(const TriangleMesh& mesh, const Smooth& exact) {
  const MassProperties m = mass_properties(mesh);
  const double errors[] = {std::abs(m.volume / exact.volume - 1.0),
                           std::abs(m.second_moment(0, 0) / exact.xx - 1.0),
                           std::abs(m.second_moment(1, 1) / exact.xx - 1.0),
                           std::abs(m.second_moment(2, 2) / exact.zz - 1.0)};
  return *std::max_element(std::begin(errors), std::end(errors));
}

const std::vector<CurvedCase>& curved_cases() {
  static const std::vector<CurvedCase> all = {
      {"sphere", [](int n) { return make_sphere(0.7, n); }, sphere_moments(0.7), 2e-3},
      {"cylinder", [](int n) { return make_cylinder(0.7, 1.3, n); }, cylinder_moments(0.7, 1.3), 1e-3},
      {"capsule", [](int n) { return make_capsule(0.7, 1.3, n); }, capsule_moments(0.7, 1.3), 1.5e-3},
      {"torus", [](int n) { return make_torus(1.1, 0.3, n); }, torus_moments(1.1, 0.3), 4e-3},
  };
  return all;
}

TEST(MassProperties, CurvedPrimitivesMatchTheSmoothShapeAtHighResolution) {
  for (const CurvedCase& c : curved_cases()) {
    SCOPED_TRACE(c.name);
    const TriangleMesh mesh = c.make(128);
    EXPECT_LT(relative_error(mesh, c.exact), c.tolerance_at_128);
    const MassProperties m = mass_properties(mesh);
    EXPECT_LT(m.first_moment.norm(), 1e-12 * m.volume);  // centred on the origin
    // Symmetric about the coordinate planes: no products of inertia.
    const Mat3 off_diagonal = m.second_moment - Mat3(m.second_moment.diagonal().asDiagonal());
    EXPECT_LT(off_diagonal.cwiseAbs().maxCoeff(), 1e-12 * m.second_moment.norm());
  }
}

TEST(MassProperties, CurvedPrimitivesConvergeAsResolutionDoubles) {
  for (const CurvedCase& c : curved_cases()) {
    SCOPED_TRACE(c.name);
    // From 16 segments on (8 leaves the torus only 4 around its tube, not yet asymptotic).
    double previous = relative_error(c.make(16), c.exact);
    for (int n = 32; n <= 256; n *= 2) {
      const double error = relative_error(c.make(n), c.exact);
      // Inscribed polygons converge at second order: the error shrinks about fourfold per doubling.
      EXPECT_LT(error, 0.3 * previous) << "at " << n << " segments";
      previous = error;
    }
  }
}

TEST(MassDefect, UsableMassAndInertiaPass) {
  EXPECT_EQ(find_mass_defect(1.0, Mat3::Identity()), std::nullopt);
  EXPECT_EQ(find_mass_defect(1e300, 1e299 * Mat3::Identity()), std::nullopt);
  EXPECT_EQ(find_mass_defect(1e-300, Vec3(1e-301, 1e-301, 1e-301 * 0.5e12).asDiagonal().toDenseMatrix()),
            std::nullopt);  // ratio 2e-12
}

TEST(MassDefect, MassMustBeFiniteNormalAndPositive) {
  for (const double mass : {0.0, -1.0, 5e-324, 1e-310, std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_EQ(find_mass_defect(mass, Mat3::Identity()), "a finite, normal, positive mass") << mass;
  }
}

TEST(MassDefect, InertiaMustBeFinitePositiveAndWellConditioned) {
  const auto diagonal = [](double a, double b, double c) { return Vec3(a, b, c).asDiagonal().toDenseMatrix(); };
  EXPECT_EQ(find_mass_defect(1.0, diagonal(1.0, std::numeric_limits<double>::infinity(), 1.0)),
            "finite moments of inertia");
  EXPECT_EQ(find_mass_defect(1.0, diagonal(1.0, std::numeric_limits<double>::quiet_NaN(), 1.0)),
            "finite moments of inertia");
  for (const Mat3& bad : {diagonal(0.0, 1.0, 1.0), diagonal(-1e-3, 1.0, 1.0), diagonal(1.0, 1.0, 1e13)}) {
    const auto defect = find_mass_defect(1.0, bad);
    ASSERT_TRUE(defect);
    EXPECT_NE(defect->find("smallest/largest ≥ 1e-12"), std::string::npos) << *defect;
  }
  EXPECT_EQ(kMinInertiaRatio, 1e-12);
}

}  // namespace
}  // namespace affix
