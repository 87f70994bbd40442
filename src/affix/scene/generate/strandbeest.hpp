#pragma once
// `affix generate strandbeest`: Tomcin 2014 Fig. 6b, Theo Jansen's walking machine with --legs legs for
// the impulse solver. Each leg is Jansen's linkage with his eleven "holy numbers" (cm, here ×0.01 m):
// a 38 and l 7.8 place the leg's fixed pivot B on the frame at (−a, −l) from the crank axle O; crank
// m 15; j 50 (crank pin–upper joint) and b 41.5 (B–upper joint); k 61.9 (crank pin–lower joint) and
// c 39.3 (B–lower joint); the triangle B, upper joint, back joint with d 40.1 (B–back) and e 55.8
// (upper–back); f 39.4 (back–knee); the foot triangle lower joint, knee, foot with g 36.7
// (lower–knee), i 49 (lower–foot) and h 65.7 (knee–foot). Six bodies per leg (the two triangles and
// the bars j, k, c, f, bars 2 cm square at 2 kg/m) on nine hinges about y (45 rows, its loops
// redundant out of plane, Tomcin §4). Legs come in mirrored pairs (the second's pivot at +a) sharing a
// crank pin, 5 cm apart along the axle (y); pair p's pin is at crank angle 120°·(p mod 3), so three
// groups of legs are phase-shifted on one crank, the crank a single body hinged to the frame at O.
// The frame (2 kg per leg, plus --load × the machine's own mass: the paper's table) carries every
// pivot B and the axle, so it and the crank each carry about 2 joints per leg: the bodies that body
// splitting (§5) is for. The crank turns freely (no motor). Released at rest with its lowest foot
// 0.4 m above the ground (about a third of its height, as in the paper); the legs touch only the
// ground (collision mask 0). The impulse solver at dt 0.01 s for 1 s.
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct StrandbeestOptions {
  long long legs = 50;  ///< --legs, 1 … 200 (the paper's largest has 100)
  double load = 0.0;    ///< --load k, 0 … 100: k × the machine's own mass added to the frame
};

Scene strandbeest(const StrandbeestOptions& options);

/// Jansen's leg for crank angle θ (rad, from the +u axis towards +v), in the leg's plane with the
/// crank axle at the origin, u forward (away from the pivot) and v up: the fixed pivot, the crank pin,
/// the upper, lower, back joints, the knee and the foot (m). The circle intersections take the branch
/// of Jansen's machine (the foot is the lowest point and draws his flat-bottomed path).
struct JansenLeg {
  Vec2 pivot, pin, upper, lower, back, knee, foot;
};
JansenLeg jansen_leg(double theta);

}  // namespace affix::generate
