#include "affix/io/contact_depth.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <variant>

#include "affix/io/short_number.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {
namespace {

constexpr double kNone = std::numeric_limits<double>::infinity();

/// The shape's smallest half-extent in its own axes (header); infinite where that needs a file read.
double smallest_half_extent(const Shape& shape) {
  struct Extent {
    double operator()(const BoxShape& s) const { return 0.5 * s.size.minCoeff(); }
    double operator()(const SphereShape& s) const { return s.radius; }
    double operator()(const CapsuleShape& s) const { return s.radius; }
    double operator()(const CylinderShape& s) const { return std::min(s.radius, 0.5 * s.length); }
    double operator()(const TorusShape& s) const { return s.minor; }
    double operator()(const MeshShape& s) const {
      if (s.vertices.empty()) return kNone;
      Vec3 lo = Vec3::Constant(kNone), hi = -lo;
      for (const Vec3& v : s.vertices) {
        lo = lo.cwiseMin(s.scale.cwiseProduct(v));
        hi = hi.cwiseMax(s.scale.cwiseProduct(v));
      }
      return 0.5 * (hi - lo).minCoeff();
    }
    double operator()(const CompoundShape& s) const {
      double e = kNone;
      for (const ShapePart& part : s.parts)
        e = std::min(e, part.scale.cwiseAbs().minCoeff() * smallest_half_extent(part.shape));
      return e;
    }
  };
  return std::visit(Extent{}, shape);
}

}  // namespace

ContactDepth::ContactDepth(const Scene& scene) {
  extent_.reserve(scene.bodies.size());
  for (const BodyDef& body : scene.bodies) extent_.push_back(smallest_half_extent(body.shape));
}

double ContactDepth::limit(int body1, int body2) const {
  const auto extent = [&](int b) { return b >= 0 && b < static_cast<int>(extent_.size()) ? extent_[b] : kNone; };
  return kFraction * std::min(extent(body1), extent(body2));
}

std::optional<ContactDepth::Sunk> ContactDepth::find(const StepStats& stats) const {
  if (stats.overlap_body1 < 0) return std::nullopt;
  const double bound = limit(stats.overlap_body1, stats.overlap_body2);
  // !(depth <= bound): an overlap that is not a number has sunk too.
  if (stats.overlap_depth <= bound) return std::nullopt;
  return Sunk{stats.overlap_body1, stats.overlap_body2, stats.overlap_depth, bound};
}

std::string ContactDepth::message(const std::vector<std::string>& names, const Sunk& sunk) const {
  const auto name = [&](int b) {
    return b < 0 ? std::string("the ground")
                 : b < static_cast<int>(names.size()) ? "body '" + excerpt(names[b]) + "'" : "body " + std::to_string(b);
  };
  return name(sunk.body1) + " sank " + short_number(sunk.depth) + " m into " + name(sunk.body2) +
         ", past the limit of " + short_number(sunk.limit) +
         " m (the smaller body's smallest half-extent): the simulation diverged (try a smaller dt, or see "
         "the solver's contact in the README)";
}

}  // namespace affix
