#pragma once
// `affix generate scissor-lift`: Tomcin 2014 Fig. 6a, a scissor lift of --segments segments for the
// impulse solver. Each segment is an X of two bars (1 m, 4 cm square, 1.6 kg) crossing at their middles
// on a hinge about y, at --angle degrees from the horizontal: bar A rises to +x (at y = −3 cm), bar B to
// −x (at y = +3 cm); each bar's upper end is hinged to the lower end of the next segment's other bar.
// The lowest bars' lower ends are both hinged to a 50 kg base and the highest bars' upper ends both to
// a 20 kg platform, so the lift is locked open (as by its actuator) and its loops carry redundant rows
// (Tomcin §4). Released at rest with the base 0.4 m above the ground, it drops and lands; it must not
// fold. Bars are in collision group 2 with mask 1: they touch the ground, base and platform, not each
// other. The impulse solver at dt 0.01 s for 2 s.
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct ScissorLiftOptions {
  long long segments = 10;  ///< --segments, 1 … 220 (the paper's largest lift)
  double angle_deg = 30.0;  ///< --angle, degrees from the horizontal, 10 … 80
};

Scene scissor_lift(const ScissorLiftOptions& options);

}  // namespace affix::generate
