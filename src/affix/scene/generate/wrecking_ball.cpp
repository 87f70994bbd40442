#include "affix/scene/generate/wrecking_ball.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {

namespace {

constexpr double kBlock = 0.2;            // m, cube edge
constexpr double kBlockDensity = 600.0;   // kg/m³
constexpr double kBallRadius = 0.12;      // m
constexpr double kSteel = 7800.0;         // kg/m³
constexpr double kRopeRadius = 0.012;     // m
constexpr double kRopeLength = 0.1;       // m, cylindrical part of a rope link
constexpr double kRopePitch = kRopeLength + 2.0 * kRopeRadius;
constexpr long long kMinRopeLinks = 6;
constexpr double kPivotAboveWall = 0.3;   // m
constexpr double kHitFraction = 0.6;      // of the wall's height, for the ball's centre
constexpr double kStartAngle = 60.0 * std::numbers::pi / 180.0;  // from the vertical
constexpr int kResolution = 16;
// The rope's length follows the wall's height, which grows as √blocks: 10⁵ blocks need about 300 links.
constexpr long long kRopeAllowance = 1000;
constexpr double kThrowGap = 0.1;         // m, free ball to the wall's face at the start

/// Appends the wall and returns its height (top of the highest row).
double add_wall(Scene& scene, long long blocks) {
  auto per_row = static_cast<long long>(std::sqrt(static_cast<double>(blocks)));
  while (per_row * per_row < blocks) ++per_row;
  const double pitch = kBlock + kClearance;
  long long row = 0;
  for (long long first = 0; first < blocks; first += per_row, ++row) {
    const long long in_row = std::min(per_row, blocks - first);
    for (long long j = 0; j < in_row; ++j) {
      BodyDef block;
      block.name = "block" + std::to_string(row) + "_" + std::to_string(j);
      block.shape = BoxShape{Vec3::Constant(kBlock)};
      block.density = kBlockDensity;
      block.position = {0.0, (static_cast<double>(j) - 0.5 * static_cast<double>(in_row - 1)) * pitch,
                        kClearance + 0.5 * kBlock + static_cast<double>(row) * pitch};
      add_body(scene, std::move(block));
    }
  }
  return static_cast<double>(row) * pitch;
}

/// The steel ball, centred at `centre`.
BodyDef make_ball(const Vec3& centre) {
  BodyDef ball;
  ball.name = "ball";
  ball.shape = SphereShape{kBallRadius, 2 * kResolution};
  ball.density = kSteel;
  ball.position = centre;
  return ball;
}

}  // namespace

const char* to_string(WreckingBallVariant variant) {
  switch (variant) {
    case WreckingBallVariant::light: return "light";
    case WreckingBallVariant::medium: return "medium";
    case WreckingBallVariant::full: break;
  }
  return "full";
}

WreckingBallVariant parse_wrecking_ball_variant(std::string_view text) {
  if (text == "light") return WreckingBallVariant::light;
  if (text == "medium") return WreckingBallVariant::medium;
  if (text == "full") return WreckingBallVariant::full;
  throw InputError("--variant " + excerpt(text) + ": unknown variant (expected light, medium or full)");
}

long long variant_blocks(WreckingBallVariant variant) {
  switch (variant) {
    case WreckingBallVariant::light: return 15;
    case WreckingBallVariant::medium: return 141;
    case WreckingBallVariant::full: break;
  }
  return 561;
}

Scene wrecking_ball(const WreckingBallOptions& options) {
  require_count("--blocks", options.blocks, 1, kMaxContactBodies - kRopeAllowance);
  Scene scene = make_scene("wrecking_ball");
  scene.ground = Ground{};
  const double wall_height = add_wall(scene, options.blocks);

  // Hanging straight, the ball's centre would be at hit_height, right on the wall's front face x = −kBlock/2.
  const double hit_height = std::max(kHitFraction * wall_height, kBallRadius + 0.1);
  if (options.free_ball) {
    BodyDef ball = make_ball({-0.5 * kBlock - kThrowGap - kBallRadius, 0.0, hit_height});
    ball.velocity = {kThrowSpeed, 0.0, 0.0};
    add_body(scene, std::move(ball));
    return scene;
  }
  const double rope_needed = wall_height + kPivotAboveWall - hit_height - kBallRadius;
  const long long rope_links = std::max(kMinRopeLinks, static_cast<long long>(std::ceil(rope_needed / kRopePitch)));
  const double rope = kRopePitch * static_cast<double>(rope_links);
  const Vec3 pivot(-0.5 * kBlock, 0.0, hit_height + kBallRadius + rope);
  const Vec3 down(-std::sin(kStartAngle), 0.0, -std::cos(kStartAngle));  // along the rope, pivot to ball
  const Quat along_rope = rotation_from_z_to(down);

  int previous = -1;  // the world
  for (long long i = 0; i < rope_links; ++i) {
    BodyDef link;
    link.name = "rope" + std::to_string(i);
    link.shape = CapsuleShape{kRopeRadius, kRopeLength, kResolution};
    link.density = kSteel;
    link.position = pivot + down * (kRopePitch * (static_cast<double>(i) + 0.5));
    link.rotation = along_rope;
    const int index = add_body(scene, std::move(link));
    add_joint(scene, JointType::ball, index, previous).anchor = pivot + down * (kRopePitch * static_cast<double>(i));
    previous = index;
  }
  const int index = add_body(scene, make_ball(pivot + down * (rope + kBallRadius)));
  add_joint(scene, JointType::ball, index, previous).anchor = pivot + down * rope;
  return scene;
}

}  // namespace affix::generate
