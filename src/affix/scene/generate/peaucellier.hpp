#pragma once
// `affix generate peaucellier`: a Peaucellier–Lipkin linkage (Tomcin 2014 Fig. 3), the straight-line
// mechanism of 7 bars and 10 hinges whose loops leave 9 redundant rows of the 50 (a planar hinge pins
// 2 DOFs, 5 rows in 3D: 10·5 rows against 7·6 − 1 DOFs).
//
// In the vertical xz-plane, every hinge about y: fixed pivots O = 0 and C = (0, 0, −r); long bars OA,
// OB of length ℓ = 2 m; a rhombus A–D–B–P of side s = 1 m; the crank CD of length r = |OC| = 1 m. O, D
// and P stay collinear with |OD|·|OP| = ℓ² − s², and D stays on the circle through O about C, so P
// (inversion of that circle) stays on the horizontal line z = −(ℓ² − s²)/(2r) = −1.5 m. With θ the angle
// of OD from straight down: |OD| = 2r cos θ, |OP| = (ℓ² − s²)/(2r cos θ), P at x = 1.5 tan θ; the rhombus
// folds flat (a singular configuration) where |OD| = |OP|, θ = ±30°. Released at rest at θ = --angle
// it swings under gravity through θ = 0 like a pendulum. The bars are 5 cm square boxes of density
// 1000 kg/m³, named OA, OB, AD, DB, BP, PA, CD (P is bar PA's end at local z = −length/2), in collision
// group 2 with mask 1, so that bars crossing at a shared pivot never collide. No ground; the
// impulse solver at dt 0.03 s (the paper's), ε_P = 1e-9 m and 500 iterations (Fig. 3), 10 s.
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct PeaucellierOptions {
  double angle_deg = 20.0;  ///< --angle: θ at release (degrees), within (−30, 30)
};

/// The line that P traces, z = line_z in the plane y = 0.
inline constexpr double kPeaucellierLineZ = -1.5;

Scene peaucellier(const PeaucellierOptions& options);

}  // namespace affix::generate
