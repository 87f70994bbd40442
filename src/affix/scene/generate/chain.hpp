#pragma once
// `affix generate chain`: a chain of capsule links hanging from the world, released from horizontal.
//
// Link i (i = 0 … links−1) is a capsule of radius 0.01 m and cylinder length 0.08 m (0.1 m tip to
// tip) lying along +x from the pivot at (0, 0, H), H = 0.1·links + 0.1 m, so that the chain hanging
// straight down would still clear z = 0. Link 0 is jointed to the world at the pivot, link i to link
// i−1 at their shared tip (ball joints, or hinges about y so that the chain swings in the xz-plane).
// --link box makes each link a box of 0.1 × 0.02 × 0.02 m (x the long edge, no rotation) with the same
// tips and pitch: the shape the peer engines of bench/peers/ all have as a primitive.
// Neighbours do not collide (collide_connected false); any other two links start 0.1 m apart along
// the chain and do collide. Masses grow geometrically along the chain, m_i = m_0·R^(i/(links−1)) with
// m_0 = 1000 kg/m³ times the capsule's volume and R the end-mass ratio, the mass of the last link over
// that of the first. No ground; dt 0.01 s, 2 s.
#include <string>
#include <string_view>

#include "affix/scene/scene.hpp"

namespace affix::generate {

enum class ChainJoint { ball, hinge };
enum class ChainLink { capsule, box };

struct ChainOptions {
  long long links = 20;             ///< --links, 1 … kMaxBodies
  double end_mass_ratio = 1.0;      ///< --end-mass-ratio R = m_last / m_first, 1e-6 … 1e6
  ChainJoint joint = ChainJoint::ball;  ///< --joint
  ChainLink link = ChainLink::capsule;  ///< --link
};

/// "ball" or "hinge": the spelling of --joint.
const char* to_string(ChainJoint joint);

/// --joint TEXT → ChainJoint; throws InputError naming the option and the accepted values.
ChainJoint parse_chain_joint(std::string_view text);

/// "capsule" or "box": the spelling of --link.
const char* to_string(ChainLink link);

/// --link TEXT → ChainLink; throws InputError naming the option and the accepted values.
ChainLink parse_chain_link(std::string_view text);

/// The chain scene; throws InputError naming the option when one is out of range (a ratio other
/// than 1 needs two links or more).
Scene chain(const ChainOptions& options);

}  // namespace affix::generate
