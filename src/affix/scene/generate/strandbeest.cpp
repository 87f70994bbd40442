#include "affix/scene/generate/strandbeest.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {
namespace {

// Jansen's holy numbers (m).
constexpr double a = 0.38, b = 0.415, c = 0.393, d = 0.401, e = 0.558, f = 0.394, g = 0.367, h = 0.657,
                 i = 0.49, j = 0.50, k = 0.619, l = 0.078, m = 0.15;
constexpr double kBarWidth = 0.02, kBarMassPerLength = 2.0;  // m, kg/m
constexpr double kLegSpacing = 0.05, kDrop = 0.4;            // m
constexpr double kFrameMassPerLeg = 2.0, kCrankMassPerLeg = 0.5;  // kg

/// The point at distance r0 from p0 and r1 from p1 on the left of p0 → p1 (side +1) or on its right
/// (side −1).
Vec2 circle_intersection(const Vec2& p0, double r0, const Vec2& p1, double r1, int side) {
  const Vec2 d01 = p1 - p0;
  const double D = d01.norm();
  const double along = (r0 * r0 - r1 * r1 + D * D) / (2.0 * D);
  const double across = std::sqrt(std::max(r0 * r0 - along * along, 0.0));
  const Vec2 u = d01 / D;
  return p0 + along * u + side * across * Vec2(-u.y(), u.x());
}

/// Body x along `from` → `to` in the xz-plane.
Quat along(const Vec3& from, const Vec3& to) {
  const Vec3 dir = to - from;
  return Quat(Eigen::AngleAxisd(-std::atan2(dir.z(), dir.x()), Vec3::UnitY()));
}

ShapePart bar_part(const Vec3& from, const Vec3& to, const Vec3& origin) {
  ShapePart part;
  part.shape = BoxShape{Vec3((to - from).norm(), kBarWidth, kBarWidth)};
  part.position = 0.5 * (from + to) - origin;
  part.rotation = along(from, to);
  return part;
}

struct Builder {
  Scene& scene;
  double mass = 0.0;  // the machine's own mass so far (kg)

  int bar(const std::string& name, const Vec3& from, const Vec3& to) {
    BodyDef body;
    body.name = name;
    body.shape = BoxShape{Vec3((to - from).norm(), kBarWidth, kBarWidth)};
    body.position = 0.5 * (from + to);
    body.rotation = along(from, to);
    return leg_body(std::move(body), (to - from).norm());
  }

  /// A rigid triangle of three bars, its origin at the centroid of its corners.
  int triangle(const std::string& name, const Vec3& p0, const Vec3& p1, const Vec3& p2) {
    BodyDef body;
    body.name = name;
    body.position = (p0 + p1 + p2) / 3.0;
    body.shape = CompoundShape{{bar_part(p0, p1, body.position), bar_part(p1, p2, body.position),
                                bar_part(p2, p0, body.position)}};
    return leg_body(std::move(body), (p1 - p0).norm() + (p2 - p1).norm() + (p0 - p2).norm());
  }

  int leg_body(BodyDef body, double length) {
    body.mass = kBarMassPerLength * length;
    body.collision = {2, 0};  // touches the ground only: a leg never rubs another
    mass += *body.mass;
    return add_body(scene, std::move(body));
  }

  void hinge(int body1, int body2, const Vec3& anchor) {
    JointDef& joint = add_joint(scene, JointType::hinge, body1, body2);
    joint.anchor = anchor;
    joint.axis = Vec3::UnitY();
  }
};

}  // namespace

JansenLeg jansen_leg(double theta) {
  JansenLeg leg;
  leg.pivot = Vec2(-a, -l);
  leg.pin = m * Vec2(std::cos(theta), std::sin(theta));
  leg.upper = circle_intersection(leg.pivot, b, leg.pin, j, +1);
  leg.lower = circle_intersection(leg.pivot, c, leg.pin, k, -1);
  leg.back = circle_intersection(leg.pivot, d, leg.upper, e, +1);
  leg.knee = circle_intersection(leg.lower, g, leg.back, f, +1);
  leg.foot = circle_intersection(leg.lower, i, leg.knee, h, +1);
  return leg;
}

Scene strandbeest(const StrandbeestOptions& options) {
  require_count("--legs", options.legs, 1, 200);
  require_number("--load", options.load, 0.0, 100.0);
  const long long n = options.legs;
  // Leg q: pair q/2 at y_q, its crank pin at φ = 120°·((q/2) mod 3); the odd leg of a pair mirrored
  // (world x = −u), so that its leg angle is π − φ for the same pin.
  std::vector<JansenLeg> legs;
  std::vector<double> sign, y;
  double lowest = 0.0;
  for (long long q = 0; q < n; ++q) {
    const double phi = 2.0 * std::numbers::pi / 3.0 * static_cast<double>((q / 2) % 3);
    const bool mirrored = q % 2 == 1;
    legs.push_back(jansen_leg(mirrored ? std::numbers::pi - phi : phi));
    sign.push_back(mirrored ? -1.0 : 1.0);
    y.push_back(kLegSpacing * (static_cast<double>(q / 2) - 0.5 * static_cast<double>((n - 1) / 2)));
    lowest = std::min(lowest, legs.back().foot.y());
  }
  const Vec3 axle(0.0, 0.0, kDrop - lowest);
  const double length = kLegSpacing * static_cast<double>((n - 1) / 2) + 0.1;

  Scene scene = make_scene("strandbeest");
  scene.settings.solver = "impulse";
  scene.settings.dt = 0.01;
  scene.settings.duration = 1.0;
  scene.ground = Ground{};
  Builder build{scene};
  BodyDef frame;
  frame.name = "frame";
  frame.shape = BoxShape{Vec3(2.0 * a + 0.1, length, 0.15)};
  frame.position = axle + Vec3(0.0, 0.0, -0.025);
  const int frame_index = add_body(scene, std::move(frame));
  BodyDef crank;
  crank.name = "crank";
  crank.shape = CylinderShape{m, length + 0.02, 24};
  crank.position = axle;
  crank.rotation = rotation_from_z_to(Vec3::UnitY());
  crank.mass = kCrankMassPerLeg * static_cast<double>(n);
  crank.collision = {2, 0};
  build.mass += *crank.mass;
  const int crank_index = add_body(scene, std::move(crank));
  build.hinge(frame_index, crank_index, axle);

  for (long long q = 0; q < n; ++q) {
    const JansenLeg& leg = legs[static_cast<std::size_t>(q)];
    const double s = sign[static_cast<std::size_t>(q)], yq = y[static_cast<std::size_t>(q)];
    const auto world = [&](const Vec2& p) -> Vec3 { return axle + Vec3(s * p.x(), yq, p.y()); };
    const Vec3 B = world(leg.pivot), C = world(leg.pin), P1 = world(leg.upper), P4 = world(leg.lower),
               P2 = world(leg.back), P3 = world(leg.knee), F = world(leg.foot);
    const std::string name = "leg" + std::to_string(q) + "_";
    const int bde = build.triangle(name + "bde", B, P1, P2);
    const int bar_j = build.bar(name + "j", C, P1);
    const int bar_k = build.bar(name + "k", C, P4);
    const int bar_c = build.bar(name + "c", B, P4);
    const int bar_f = build.bar(name + "f", P2, P3);
    const int ghi = build.triangle(name + "ghi", P4, P3, F);
    build.hinge(frame_index, bde, B);  // the fixed pivot
    build.hinge(frame_index, bar_c, B);
    build.hinge(crank_index, bar_j, C);  // the crank pin
    build.hinge(crank_index, bar_k, C);
    build.hinge(bde, bar_j, P1);
    build.hinge(bar_k, bar_c, P4);
    build.hinge(bar_c, ghi, P4);
    build.hinge(bde, bar_f, P2);
    build.hinge(bar_f, ghi, P3);
  }
  const double own_mass = build.mass + kFrameMassPerLeg * static_cast<double>(n);
  scene.bodies[static_cast<std::size_t>(frame_index)].mass =
      kFrameMassPerLeg * static_cast<double>(n) + options.load * own_mass;  // Tomcin 2014 §7's table
  return scene;
}

}  // namespace affix::generate
