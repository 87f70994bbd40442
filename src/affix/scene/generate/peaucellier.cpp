#include "affix/scene/generate/peaucellier.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {
namespace {

constexpr double kLong = 2.0, kSide = 1.0, kCrank = 1.0;  // ℓ, s, r (m)
constexpr double kBarWidth = 0.05;                         // m

/// A bar from `from` to `to`: a box whose local z runs along it.
int add_bar(Scene& scene, const std::string& name, const Vec3& from, const Vec3& to) {
  BodyDef b;
  b.name = name;
  b.shape = BoxShape{Vec3(kBarWidth, kBarWidth, (to - from).norm())};
  b.position = 0.5 * (from + to);
  b.rotation = rotation_from_z_to(to - from);
  // Bars cross where three meet (A, B, D) and at O: none collides with another (group 2, mask 1).
  b.collision = {2, 1};
  return add_body(scene, std::move(b));
}

void add_hinge(Scene& scene, int body1, int body2, const Vec3& anchor) {
  JointDef& j = add_joint(scene, JointType::hinge, body1, body2);
  j.anchor = anchor;
  j.axis = Vec3::UnitY();
}

}  // namespace

Scene peaucellier(const PeaucellierOptions& options) {
  require_number("--angle", options.angle_deg, -29.0, 29.0);
  Scene scene = make_scene("peaucellier");
  scene.settings.solver = "impulse";
  scene.settings.dt = 0.03;
  scene.settings.duration = 10.0;
  scene.settings.solver_settings["impulse"] = {{"position_tolerance", 1e-9}, {"max_iterations", 500}};
  const double theta = options.angle_deg * std::numbers::pi / 180.0;
  const Vec3 e(std::sin(theta), 0, -std::cos(theta)), n(std::cos(theta), 0, std::sin(theta));
  const double k = kLong * kLong - kSide * kSide;
  const double od = 2 * kCrank * std::cos(theta), op = k / od, m = 0.5 * (od + op);
  const double y = std::sqrt(kLong * kLong - m * m);  // A and B off the line O–D–P
  const Vec3 O = Vec3::Zero(), C(0, 0, -kCrank), D = od * e, P = op * e, A = m * e + y * n, B = m * e - y * n;
  const int oa = add_bar(scene, "OA", O, A), ob = add_bar(scene, "OB", O, B);
  const int ad = add_bar(scene, "AD", A, D), db = add_bar(scene, "DB", D, B);
  const int bp = add_bar(scene, "BP", B, P), pa = add_bar(scene, "PA", P, A);
  const int cd = add_bar(scene, "CD", C, D);
  add_hinge(scene, oa, -1, O);
  add_hinge(scene, ob, -1, O);
  add_hinge(scene, cd, -1, C);
  add_hinge(scene, ad, oa, A);
  add_hinge(scene, pa, oa, A);
  add_hinge(scene, db, ob, B);
  add_hinge(scene, bp, ob, B);
  add_hinge(scene, db, ad, D);
  add_hinge(scene, cd, ad, D);
  add_hinge(scene, bp, pa, P);
  return scene;
}

}  // namespace affix::generate
