#pragma once
// `affix generate wrecking-ball`: a heavy ball on a rope of capsule links swings into a wall of blocks
// (after examples/wrecking_ball.json and Lan 2022 Fig. 3, with joints instead of interlocked rings).
//
// The wall: `blocks` wooden cubes (0.2 m, density 600 kg/m³) in the plane x = 0, c = ⌈√blocks⌉ to a
// row, rows filled from the ground up (the last one centred), 5 mm apart and the bottom row 5 mm above
// the ground, so the blocks settle onto each other. The ball: a steel sphere (radius 0.12 m, density
// 7800 kg/m³, about 56 kg) hanging from a rope of capsules (radius 0.012 m, 0.124 m tip to tip, steel) joined
// end to end by ball joints, the first to the world at a pivot over the wall's front face, the ball to
// the last at its top. The rope has at least 6 links, and enough for the pivot to be 0.3 m above the
// wall, so that hanging straight the ball's centre is at 0.6 of the wall's height (at least 0.22 m).
// It starts straight, 60° from the vertical on the −x side, and hits the wall just before the bottom
// of its swing. Ground (friction 0.5); dt 0.01 s, 2 s.
//
// --free-ball is the comparison of Lan 2022 §5.2 (Fig. 8, Table 1), where the ball "is no longer
// attached to the chain": no rope; the ball starts 0.1 m in front of the wall's face at the same hit
// height, thrown at 4 m/s along +x (about the speed the roped ball reaches: √(g·L) for a 1.6 m rope
// released at 60°). --variant light|medium|full sets the block count of Table 1: medium and full have
// 142 and 562 bodies with the ball (141 and 561 blocks); light's count was lost from the text, and 15
// blocks with the ball give its 1.2K triangles (a block is 12, the ball 32 × 16 segments ≈ 1K).
#include <optional>
#include <string_view>

#include "affix/scene/scene.hpp"

namespace affix::generate {

enum class WreckingBallVariant { light, medium, full };

struct WreckingBallOptions {
  long long blocks = 20;  ///< --blocks, 1 … kMaxContactBodies − 1000 (the rope and ball take the rest)
  bool free_ball = false;  ///< --free-ball: no rope, the ball thrown at the wall (Lan 2022 §5.2)
};

/// "light", "medium" or "full".
const char* to_string(WreckingBallVariant variant);

/// --variant TEXT → the variant; throws InputError naming the option and the accepted values.
WreckingBallVariant parse_wrecking_ball_variant(std::string_view text);

/// The blocks of a Lan 2022 Table 1 variant: 15, 141, 561.
long long variant_blocks(WreckingBallVariant variant);

/// The ball's initial speed with --free-ball (m/s, along +x).
inline constexpr double kThrowSpeed = 4.0;

Scene wrecking_ball(const WreckingBallOptions& options);

}  // namespace affix::generate
