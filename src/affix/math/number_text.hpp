#pragma once
// A number in an error message: the shortest text that reads back as the same double (`0.1`, `1e+308`),
// never the 300-digit expansion that `%f` or std::to_string gives a huge value, so that a message stays
// one short line (DESIGN §4). Like excerpt.hpp this is text, not maths; it lives in math/ because math
// is the layer below every reader (scene, geometry, body) that quotes numbers, and io/'s
// format_shortest is above them.
#include <string>

namespace affix {

/// `value` as the shortest round-trip text, locale-independent; `inf`, `-inf` and `nan` for the
/// non-finite values.
std::string number_text(double value);

}  // namespace affix
