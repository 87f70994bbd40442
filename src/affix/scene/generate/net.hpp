#pragma once
// `affix generate net`: a square net of small spheres held up by its four corners.
//
// size × size spheres (radius 0.03 m, density 1000 kg/m³) on a horizontal grid 0.1 m apart, centred
// on the z axis at height H = 0.1·(size − 1) + 0.1 m (the net cannot sag further than that). Each
// sphere is joined to its grid neighbours by ball joints halfway between them (so the net is a
// fishnet of rigid crosses, free to fold), and the four corner spheres are pinned to the world by
// ball joints at their centres. Non-neighbours start at least 0.1·√2 m apart (0.08 m gaps) and collide.
// No ground; dt 0.01 s, 2 s.
//
// --kind links is the net of He 2026 Fig. 14: the same grid of size × size knots, but its edges are
// the bodies — 2·size·(size − 1) capsule links (radius 0.01 m, 0.07 m tip to tip, density 1000 kg/m³)
// along x and y, each centred between two knots 0.1 m apart — and the knots are ball joints. At a knot
// where k links meet, the first of them (in the order −x, +x, −y, +y) is joined to each of the others
// at the knot's point: k − 1 joints, so every link is joined at both its ends and the joint graph has
// the grid's loops. The four corner knots are pinned to the world by a ball joint on one of their
// links (the x link at the first and last corner, the y link at the other two). Links stop 0.015 m short of the knot, so two links of one knot that are not joined start
// ≥ 0.015 m apart (their bounding boxes 5 mm). size 123 gives 30,012 links and 44,899 ball joints (134,697 rows).
#include <string_view>

#include "affix/scene/scene.hpp"

namespace affix::generate {

enum class NetKind { spheres, links };

struct NetOptions {
  long long size = 10;              ///< --size n: n × n knots, 2 … 1000 (n² ≤ kMaxBodies; links 2 … 707)
  NetKind kind = NetKind::spheres;  ///< --kind
};

/// "spheres" or "links": the spelling of --kind.
const char* to_string(NetKind kind);

/// --kind TEXT → NetKind; throws InputError naming the option and the accepted values.
NetKind parse_net_kind(std::string_view text);

/// Spheres: size² bodies, 2·size·(size − 1) + 4 joints. Links: 2·size·(size − 1) bodies,
/// 2·(2·size·(size − 1)) − size² + 4 joints. Throws InputError naming --size when out of range.
Scene net(const NetOptions& options);

}  // namespace affix::generate
