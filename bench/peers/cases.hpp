#pragma once
// The scenes of the comparison (issue 13), each the scene `affix generate` writes with the options
// shown, at the time step and duration given: a hanging chain of box links with a 1000× end mass,
// the ball-joint net with its corners pinned, a pile of boxes, and Lan 2022 Table 1's free-ball
// wrecking scenes (affix against Bullet, as the paper compared); and one showcase per affix solver
// (family "showcase"): the Peaucellier linkage (impulse), the crane (compliant), the 30K-link net (mabd).
#include <functional>
#include <string>
#include <vector>

#include "affix/scene/scene.hpp"

namespace affix::peers {

struct BenchCase {
  std::string family;    ///< "chain", "net", "pile", "wrecking-ball"
  std::string size;      ///< "N = 10", "light, h = 1/240", …
  std::string command;   ///< the `affix generate` line that writes the same scene
  std::function<Scene()> make;
  bool affix_and_bullet_only = false;  ///< Lan 2022 Table 1 compared ABD with Bullet alone
  /// The scene is about contact (a pile, a wall hit by a ball): an affix solver whose capabilities have
  /// no body–body or no ground contact cannot run it, and its row says so instead of showing bodies
  /// falling through each other. Joint scenes (chains, nets, linkages) run in every solver whose
  /// joints fit, their incidental contacts noted where the solver has none.
  bool contact = false;
};

/// Every case; `quick`: the smallest of each family, for the `bench` ctest (the showcases: the
/// Peaucellier linkage alone).
std::vector<BenchCase> bench_cases(bool quick);

}  // namespace affix::peers
