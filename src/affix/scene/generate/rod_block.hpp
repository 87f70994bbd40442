#pragma once
// `affix generate rod-block`: Tomcin 2014 Fig. 1d, a heavy block held by a long light rod: the rod
// (4 m, 5 cm square, --rod-mass kg) is hinged to the world about y at its end at the origin and lies
// along +x; a 1 m cube of --block-mass kg is fixed to the rod's other end (a fixed joint), its centre
// 0.5 m beyond it. Released horizontal, it swings down under gravity. The impulse solver at dt 0.25 s,
// the paper's largest step for this scene, with "velocity_verlet" integration, for 20 s; no ground.
// A ball joint at the block's face instead lets the block swing about it at about 6 rad/s while the rod
// whirls it, 1.5 rad per 0.25 s step: the joint correction then converges to solutions in which the
// block spins several turns a step, and the energy grows (README, The impulse solver).
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct RodBlockOptions {
  double rod_mass = 50.0;      ///< --rod-mass (kg)
  double block_mass = 7500.0;  ///< --block-mass (kg)
};

Scene rod_block(const RodBlockOptions& options);

}  // namespace affix::generate
