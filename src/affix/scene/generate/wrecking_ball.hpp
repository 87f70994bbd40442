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
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct WreckingBallOptions {
  long long blocks = 20;  ///< --blocks, 1 … kMaxContactBodies − 1000 (the rope and ball take the rest)
};

Scene wrecking_ball(const WreckingBallOptions& options);

}  // namespace affix::generate
