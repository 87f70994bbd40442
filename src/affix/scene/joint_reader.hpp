#pragma once
// Reads one entry of `joints` (DESIGN §3 joint table) into a JointDef: per-type fields, normalised
// axes, limits in radians / metres, and body names resolved against the scene's bodies.
#include "affix/scene/body_names.hpp"
#include "affix/scene/json_reader.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// `index` is the joint's position in `joints` (for the default name "joint<index>"); `bodies` names
/// every body of the scene.
JointDef read_joint(const JsonReader& value, int index, const BodyNames& bodies);

}  // namespace affix
