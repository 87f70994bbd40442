// The model compiled from the fields imported scenes use: a compound shape's surface and volume, the
// affine moments derived from given `inertial` properties, and `exclusions` as excluded pairs.
#include <gtest/gtest.h>

#include <cmath>

#include "affix/error.hpp"
#include "affix/geometry/mass_properties.hpp"
#include "affix/geometry/primitives.hpp"
#include "affix/model/model.hpp"

namespace affix {
namespace {

BodyDef body(const std::string& name, Shape shape, const Vec3& position) {
  BodyDef b;
  b.name = name;
  b.shape = std::move(shape);
  b.position = position;
  return b;
}

Scene scene_of(std::vector<BodyDef> bodies) {
  Scene s;
  s.name = "import_fields";
  s.bodies = std::move(bodies);
  return s;
}

TEST(CompileImportFields, CompoundIsThePartsPlacedAndScaled) {
  const Quat R(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  CompoundShape compound;
  compound.parts.push_back({BoxShape{Vec3(0.2, 0.3, 0.4), 1}, Vec3(1, 0, 0), R, Vec3::Ones()});
  compound.parts.push_back({SphereShape{1.0, 12}, Vec3(-1, 0, 0), Quat::Identity(), Vec3(0.3, 0.2, 0.1)});
  const std::vector<ModelBody> bodies = compile_bodies(scene_of({body("c", compound, Vec3::Zero())}));
  const TriangleMesh& mesh = *bodies[0].mesh;
  const TriangleMesh box = make_box(Vec3(0.2, 0.3, 0.4), 1);
  const TriangleMesh sphere = make_sphere(1.0, 12);
  ASSERT_EQ(mesh.vertices.size(), box.vertices.size() + sphere.vertices.size());
  ASSERT_EQ(mesh.faces.size(), box.faces.size() + sphere.faces.size());
  for (std::size_t i = 0; i < box.vertices.size(); ++i)
    EXPECT_LT((mesh.vertices[i] - (Vec3(1, 0, 0) + R * box.vertices[i])).norm(), 1e-15);
  // A linear map scales volume by its determinant: the ellipsoid part has 0.3·0.2·0.1 of the sphere's.
  const double expected = 0.2 * 0.3 * 0.4 + 0.3 * 0.2 * 0.1 * mass_properties(sphere).volume;
  EXPECT_NEAR(bodies[0].volume, expected, 1e-12 * expected);
}

TEST(CompileImportFields, GivenInertialMatchesTheIntegratedMoments) {
  // A box placed off the origin and rotated inside a compound, once with its mass from density (the
  // moments integrated over the mesh) and once with the closed-form mass, centre and inertia given:
  // the affine moments about the origin, S = ½ tr(I) 𝟙 − I + m c cᵀ, must be the integrated ones.
  const Vec3 size(0.2, 0.3, 0.5), c(0.3, -0.2, 0.5);
  const Quat q(Eigen::AngleAxisd(0.4, Vec3(0, 1, 1).normalized()));
  CompoundShape compound;
  compound.parts.push_back({BoxShape{size, 1}, c, q, Vec3::Ones()});
  BodyDef integrated = body("integrated", compound, Vec3::Zero());
  integrated.density = 800.0;
  const double m = 800.0 * size.prod();
  const Vec3 principal = m / 12.0 * Vec3(size.y() * size.y() + size.z() * size.z(), size.x() * size.x() + size.z() * size.z(),
                                          size.x() * size.x() + size.y() * size.y());
  const Mat3 R = q.toRotationMatrix();
  BodyDef given = body("given", compound, Vec3(5, 0, 0));
  given.inertial = Inertial{m, c, R * principal.asDiagonal() * R.transpose()};
  const std::vector<ModelBody> bodies = compile_bodies(scene_of({integrated, given}));
  const ModelBody &a = bodies[0], &b = bodies[1];
  EXPECT_NEAR(b.mass, a.mass, 1e-12 * a.mass);
  EXPECT_LT((b.center_of_mass - a.center_of_mass).norm(), 1e-12);
  EXPECT_LT((b.first_moment - a.first_moment).norm(), 1e-12 * a.first_moment.norm());
  EXPECT_LT((b.second_moment - a.second_moment).norm(), 1e-10 * a.second_moment.norm());
  EXPECT_LT((b.inertia - a.inertia).norm(), 1e-10 * a.inertia.norm());
  EXPECT_EQ(b.volume, a.volume);  // the orthogonality stiffness still scales with the shape's volume
}

TEST(CompileImportFields, ExclusionsAreExcludedPairs) {
  Scene scene = scene_of({body("a", SphereShape{0.5, 12}, Vec3(0, 0, 1)), body("b", SphereShape{0.5, 12}, Vec3(0, 0, 3)),
                          body("c", SphereShape{0.5, 12}, Vec3(0, 0, 5))});
  scene.exclusions.push_back({"c", "a", 2, 0});
  const Model model = compile(scene);
  EXPECT_FALSE(model.may_collide(0, 2));
  EXPECT_FALSE(model.may_collide(2, 0));
  EXPECT_TRUE(model.may_collide(0, 1));
  EXPECT_TRUE(model.may_collide(1, 2));
}

TEST(CompileImportFields, ExcludedPairsMayStartIntersecting) {
  // An imported parent and child overlap where their joint is; excluded, that is no start error.
  Scene scene = scene_of({body("a", SphereShape{0.5, 12}, Vec3(0, 0, 1)), body("b", SphereShape{0.5, 12}, Vec3(0, 0, 1.5))});
  EXPECT_THROW(compile(scene), InputError);
  scene.exclusions.push_back({"a", "b", 0, 1});
  EXPECT_NO_THROW(compile(scene));
}

}  // namespace
}  // namespace affix
