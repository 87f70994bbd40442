#include "affix/joints/joint_model.hpp"

#include <stdexcept>
#include <Eigen/Geometry>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

#include "affix/math/rotation.hpp"

namespace affix {
namespace {

constexpr double kLinkMassFraction = 0.01;  // a virtual link weighs 1% of the lighter dynamic body

/// Compiles one scene joint at a time into the model (the cases of the header comment).
class Builder {
 public:
  Builder(std::vector<AffineBody>& bodies, DofLayout& layout, double chat, JointModel& model)
      : bodies_(bodies), layout_(layout), chat_(chat), model_(model) {}

  void add(const JointDef& def, int index) {
    joint_ = index;
    def_ = &def;
    const int b1 = def.body1_index, b2 = def.body2_index;
    length_ = std::max(bodies_[b1].bounding_radius, 1e-3);
    damping_ = def.damping.value_or(0.0);
    model_.names.push_back(def.name);
    switch (def.type) {
      case JointType::ball: connect(b1, b2, def.anchor); break;
      case JointType::hinge: hinge(b1, b2, def.anchor, def.axis, def.angle_limits); break;
      case JointType::fixed:
        connect(b1, b2, def.anchor);
        for (int k = 0; k < 3; ++k) connect(b1, b2, def.anchor + length_ * Vec3::Unit(k));
        break;
      case JointType::universal: {
        const int link = add_link(b1, b2, "link");
        hinge(link, b2, def.anchor, def.axes[1], std::nullopt);
        hinge(b1, link, def.anchor, def.axes[0], std::nullopt);
        break;
      }
      case JointType::cone_twist: {
        const int link1 = add_link(b1, b2, "link1"), link2 = add_link(b1, b2, "link2");
        hinge(link1, b2, def.anchor, def.frame.col(2), def.swing2_limits);
        hinge(link2, link1, def.anchor, def.frame.col(1), def.swing1_limits);
        hinge(b1, link2, def.anchor, def.frame.col(0), def.twist_limits);
        break;
      }
      case JointType::prismatic:
        lock_rotation(b1, b2);
        stay_on_line(b1, b2, def.anchor, def.axis);
        if (def.limits) sliding_range(b1, b2, def.anchor, def.axis, (*def.limits)[0], (*def.limits)[1]);
        break;
      case JointType::slider:
        if (def.normal) {
          stay_on_plane(b1, b2, def.point, *def.normal);
        } else {
          stay_on_line(b1, b2, def.point, *def.direction);
          if (def.limits) sliding_range(b1, b2, def.point, *def.direction, (*def.limits)[0], (*def.limits)[1]);
        }
        break;
      case JointType::distance: distance(b1, b2); break;
      case JointType::cable:
        throw std::logic_error("joint model: a cable joint reached a solver that refuses it (solvers/registry.cpp)");
    }
  }

 private:
  // ------------------------------------------------------------ points and rows

  BodyPoint point_of(int body, const Vec3& world) const {
    if (body < 0) return {-1, world};
    const Vec12& q0 = bodies_[body].q0;
    return {body, state_matrix(q0).inverse() * (world - state_translation(q0))};
  }

  /// Adds sign·x_coord(q) of a body point to a row: x_i = p_i + Σ_j A_ij x̄_j (q = p, rows of A).
  void add_point_terms(JointRow& row, const BodyPoint& point, int coord, double sign) const {
    if (point.body < 0) {
      row.rhs -= sign * point.x_bar[coord];
      return;
    }
    const int base = layout_.offset(point.body);
    row.terms.emplace_back(base + coord, sign);
    for (int j = 0; j < 3; ++j) row.terms.emplace_back(base + 3 + 3 * coord + j, sign * point.x_bar[j]);
  }

  void couple(int a, int b) {
    if (a < 0 || b < 0) return;
    model_.body_pairs.push_back({std::min(a, b), std::max(a, b)});
  }

  /// Point connection (Eq. 6; Eq. 7 against the world): x_a(world) = x_b(world), 3 rows.
  void connect(int a, int b, const Vec3& world) {
    const BodyPoint pa = point_of(a, world), pb = point_of(b, world);
    for (int i = 0; i < 3; ++i) {
      JointRow row;
      row.joint = joint_;
      add_point_terms(row, pa, i, 1.0);
      add_point_terms(row, pb, i, -1.0);
      model_.rows.push_back(std::move(row));
    }
    model_.gaps.push_back({pa, pb, joint_});
    couple(a, b);
  }

  /// Sliding on a plane fixed in space (Eq. 9): n·x_a = n·world, one row.
  void plane_row(int a, const Vec3& world, const Vec3& n) {
    JointRow row;
    row.joint = joint_;
    row.error_scale = 1.0;
    const BodyPoint pa = point_of(a, world);
    for (int i = 0; i < 3; ++i) {
      JointRow coord;
      add_point_terms(coord, pa, i, n[i]);
      row.terms.insert(row.terms.end(), coord.terms.begin(), coord.terms.end());
    }
    row.rhs = n.dot(world);
    model_.rows.push_back(std::move(row));
  }

  /// Planes and lines of the world or of a fixed body stay put, so sliding on them is linear; on a
  /// moving body they turn with it and sliding is a penalty (Eq. 12).
  bool moves(int body) const { return body >= 0 && !bodies_[body].fixed; }

  void stay_on_plane(int a, int b, const Vec3& point, const Vec3& n) {
    if (!moves(b)) return plane_row(a, point, n);
    const Vec3 t1 = any_perpendicular(n), t2 = n.cross(t1);
    add_penalty(PenaltyKind::plane, {point_of(a, point), point_of(b, point), point_of(b, point + length_ * t1),
                                     point_of(b, point + length_ * t2)}, a, b);
  }

  void stay_on_line(int a, int b, const Vec3& point, const Vec3& direction) {
    if (!moves(b)) {
      const Vec3 n1 = any_perpendicular(direction);
      plane_row(a, point, n1);
      plane_row(a, point, direction.cross(n1));
      return;
    }
    add_penalty(PenaltyKind::line,
                {point_of(a, point), point_of(b, point), point_of(b, point + length_ * direction), BodyPoint{}},
                a, b);
  }

  /// A₁ = A₂·M with M = A₂⁰⁻¹A₁⁰ (A₂ = I for the world): 9 rows, entry (i, j) of each side.
  void lock_rotation(int a, int b) {
    const Mat3 A1 = state_matrix(bodies_[a].q0);
    const Mat3 M = b < 0 ? A1 : Mat3(state_matrix(bodies_[b].q0).inverse() * A1);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        JointRow row;
        row.joint = joint_;
        row.error_scale = length_;
        row.terms.emplace_back(layout_.offset(a) + 3 + 3 * i + j, 1.0);
        if (b < 0) {
          row.rhs = M(i, j);
        } else {
          for (int k = 0; k < 3; ++k) row.terms.emplace_back(layout_.offset(b) + 3 + 3 * i + k, -M(k, j));
        }
        model_.rows.push_back(std::move(row));
      }
    }
    couple(a, b);
  }

  // ------------------------------------------------------------ penalties and limits

  double reduced_mass(int a, int b) const {
    const auto dynamic_mass = [&](int i) { return i < 0 || bodies_[i].is_dirichlet() ? 0.0 : bodies_[i].mass; };
    const double ma = dynamic_mass(a), mb = dynamic_mass(b);
    if (ma == 0.0 || mb == 0.0) return std::max(ma, mb);
    return ma * mb / (ma + mb);
  }

  void add_penalty(PenaltyKind kind, std::array<BodyPoint, 4> points, int a, int b, double length = -1.0) {
    JointPenalty p;
    p.kind = kind;
    p.points = points;
    p.length = length > 0.0 ? length : length_;
    p.stiffness = def_->stiffness.value_or(kPenaltyStiffnessPerMass * reduced_mass(a, b));
    p.joint = joint_;
    model_.penalties.push_back(p);
    couple(a, b);
  }

  /// A bounded distance between two points, widened if the start already touches it (header).
  void limit(const BodyPoint& a, const BodyPoint& b, double bound, BoundSide side) {
    const double d0 = (initial_position(a) - initial_position(b)).norm();
    const double c0 = side == BoundSide::upper ? bound - d0 : d0 - bound;
    if (c0 < chat_) bound = side == BoundSide::upper ? d0 + chat_ : d0 - chat_;
    if (bound <= 0.0) return;  // a lower bound at or below 0 bounds nothing
    model_.limits.push_back({a, b, bound, side, damping_, joint_});
    couple(a.body, b.body);
  }

  Vec3 initial_position(const BodyPoint& p) const {
    return p.body < 0 ? p.x_bar : world_point(bodies_[p.body].q0, p.x_bar);
  }

  /// Hinge (Eq. 8) of `child` about `axis` relative to `parent`, with its range (Eq. 18): a probe
  /// point of the child at distance ℓ from the axis must stay within the chord 2ℓ sin(α/2) of the
  /// parent's point at the range's middle angle, α = half the range.
  void hinge(int child, int parent, const Vec3& anchor, const Vec3& axis, const std::optional<AngleRange>& range) {
    connect(child, parent, anchor);
    connect(child, parent, anchor + length_ * axis);
    if (range && range->max - range->min >= 2.0 * std::numbers::pi) return turn_limit(child, parent, anchor, axis, *range);
    if (!range) return;
    const AngleRange r = opened_at_start(*range);
    if (r.max - r.min >= 2.0 * std::numbers::pi) return;
    const Vec3 u = any_perpendicular(axis);
    const double middle = 0.5 * (r.max + r.min), half = 0.5 * (r.max - r.min);
    const Vec3 probe = anchor + length_ * u;
    const Vec3 middle_point = anchor + length_ * (Eigen::AngleAxisd(middle, axis) * u);
    limit(point_of(child, probe), point_of(parent, middle_point), 2.0 * length_ * std::sin(0.5 * half),
          BoundSide::upper);
  }

  /// A range a turn wide or more (header: TurnLimit): its chord limit, aimed at t = 0 (θ = 0); an end the
  /// start touches is opened as opened_at_start() opens the aimed arc's.
  void turn_limit(int child, int parent, const Vec3& anchor, const Vec3& axis, const AngleRange& range) {
    constexpr double kArc = 1.5 * std::numbers::pi;
    TurnLimit t;
    t.parent = parent;
    t.anchor = anchor;
    t.axis = axis.normalized();
    t.u = any_perpendicular(t.axis);
    t.length = length_;
    t.probe = point_of(child, anchor + length_ * t.u);
    t.centre = point_of(parent, anchor);
    t.axis_point = point_of(parent, anchor + length_ * t.axis);
    t.zero = point_of(parent, anchor + length_ * t.u);
    t.min = range.min;
    t.max = range.max;
    if (t.max == 0.0) t.max = opened_at_start({-kArc, 0.0}).max;
    if (t.min == 0.0) t.min = opened_at_start({0.0, kArc}).min;
    t.limit = static_cast<int>(model_.limits.size());
    model_.limits.push_back({t.probe, t.zero, 4.0 * length_, BoundSide::upper, damping_, joint_});
    model_.turn_limits.push_back(t);
    couple(child, parent);
  }

  /// A range whose end the start (angle 0) touches, opened at that end only, so that the start's
  /// limit function c = 2ℓ sin(half/2) − 2ℓ sin(|middle|/2) is ĉ: the one chord limit about the middle
  /// would otherwise widen both ends (limit()). dc/dθ at the end is ℓ cos(half/2).
  AngleRange opened_at_start(AngleRange range) const {
    const auto c0 = [&](const AngleRange& r) {
      return 2.0 * length_ * (std::sin(0.25 * (r.max - r.min)) - std::sin(0.25 * std::abs(r.max + r.min)));
    };
    for (int k = 0; k < 50 && c0(range) < chat_; ++k) {
      const double step = 1.01 * (chat_ - c0(range)) / (length_ * std::cos(0.25 * (range.max - range.min)));
      (std::abs(range.max) < std::abs(range.min) ? range.max : range.min) +=
          std::abs(range.max) < std::abs(range.min) ? step : -step;
    }
    return range;
  }

  /// Sliding range [lo, hi] along `direction` (Eq. 17): with p₁, p₂ the parent's points at lo and hi
  /// and p₃ = 2p₂ − p₁, the child's point keeps ‖p − p₃‖ between ‖p₂ − p₃‖ and ‖p₁ − p₃‖.
  void sliding_range(int child, int parent, const Vec3& point, const Vec3& direction, double lo, double hi) {
    const BodyPoint p = point_of(child, point), p3 = point_of(parent, point + (2.0 * hi - lo) * direction);
    limit(p, p3, hi - lo, BoundSide::lower);
    limit(p, p3, 2.0 * (hi - lo), BoundSide::upper);
  }

  void distance(int b1, int b2) {
    const BodyPoint p1 = point_of(b1, def_->anchor1), p2 = point_of(b2, def_->anchor2);
    const bool bounded_only = !def_->length && (def_->min_length || def_->max_length);
    if (!bounded_only) {
      const double l = def_->length.value_or((def_->anchor1 - def_->anchor2).norm());
      add_penalty(PenaltyKind::distance, {p1, p2, BodyPoint{}, BodyPoint{}}, b1, b2, l);
    }
    if (def_->min_length) limit(p1, p2, *def_->min_length, BoundSide::lower);
    if (def_->max_length) limit(p1, p2, *def_->max_length, BoundSide::upper);
    couple(b1, b2);
  }

  // ------------------------------------------------------------ virtual links

  /// A massless-looking body at the anchor (rest frame: origin at the anchor, A = I) that hinges
  /// chain through. It weighs 1% of the lighter dynamic body (rotational inertia of a ball of radius
  /// ℓ) and resists deformation like the stiffer body with the smaller volume, so it neither changes
  /// the dynamics visibly nor lets the chain of hinges stretch. It moves with body2 at t = 0.
  int add_link(int b1, int b2, const std::string& suffix) {
    AffineBody link;
    link.name = def_->name + "/" + suffix;
    link.mesh = std::make_shared<const TriangleMesh>();
    double mass = 0.0, volume = 0.0, stiffness = 0.0;
    for (int b : {b1, b2}) {
      if (b < 0) continue;
      stiffness = std::max(stiffness, bodies_[b].stiffness);
      if (bodies_[b].is_dirichlet()) continue;
      mass = mass == 0.0 ? bodies_[b].mass : std::min(mass, bodies_[b].mass);
      volume = volume == 0.0 ? bodies_[b].volume : std::min(volume, bodies_[b].volume);
    }
    link.mass = kLinkMassFraction * mass;
    link.volume = volume;
    link.stiffness = stiffness;
    link.second_moment = link.mass * length_ * length_ / 5.0 * Mat3::Identity();
    link.mass_matrix = {link.mass, Vec3::Zero(), link.second_moment};
    link.collision = {0, 0};
    link.bounding_radius = length_;
    link.q0 = affine_state(def_->anchor, Mat3::Identity());
    if (b2 >= 0) {  // body2's rigid velocity field: ẋ = ṗ + Ȧ x̄, and Ȧ A⁻¹ = [ω]ₓ
      const AffineBody& parent = bodies_[b2];
      const Mat3 A = state_matrix(parent.q0), A_dot = state_matrix(parent.qdot0);
      const Vec3 x_bar = A.inverse() * (def_->anchor - state_translation(parent.q0));
      link.qdot0 = affine_state(state_translation(parent.qdot0) + A_dot * x_bar, A_dot * A.inverse());
    }
    bodies_.push_back(std::move(link));
    layout_.append(kAffineDofs);
    ++model_.virtual_links;
    return static_cast<int>(bodies_.size()) - 1;
  }

  std::vector<AffineBody>& bodies_;
  DofLayout& layout_;
  double chat_;
  JointModel& model_;
  const JointDef* def_ = nullptr;
  int joint_ = -1;
  double length_ = 1.0;
  double damping_ = 0.0;
};

}  // namespace

JointModel build_joint_model(const Model& scene_model, std::vector<AffineBody>& bodies, DofLayout& layout,
                             double chat) {
  assert(layout.body_count() == static_cast<int>(bodies.size()));
  JointModel model;
  Builder builder(bodies, layout, chat, model);
  for (std::size_t k = 0; k < scene_model.joints.size(); ++k)
    builder.add(scene_model.joints[k].def, static_cast<int>(k));
  std::sort(model.body_pairs.begin(), model.body_pairs.end());
  model.body_pairs.erase(std::unique(model.body_pairs.begin(), model.body_pairs.end()), model.body_pairs.end());
  return model;
}

void aim_turn_limits(JointModel& model, const std::vector<AffineBody>& bodies, const DofLayout& layout, const VecX& q) {
  constexpr double kPi = std::numbers::pi, kHalfArc = 0.75 * kPi;
  for (TurnLimit& t : model.turn_limits) {
    // θ: the probe about the parent's axis from where it is at θ = 0, continued by the nearest turn.
    const Vec3 centre = body_point_position(layout, q, t.centre);
    const Vec3 n = (body_point_position(layout, q, t.axis_point) - centre).normalized();
    const Vec3 w0 = body_point_position(layout, q, t.zero) - centre, w = body_point_position(layout, q, t.probe) - centre;
    const double raw = std::atan2(n.dot(w0.cross(w)), w0.dot(w) - n.dot(w0) * n.dot(w));
    t.theta += std::remainder(raw - t.theta, 2.0 * kPi);
    JointLimit& l = model.limits[t.limit];
    double middle;
    if (t.max - t.theta <= kPi) {
      middle = t.max - kHalfArc;
    } else if (t.theta - t.min <= kPi) {
      middle = t.min + kHalfArc;
    } else {
      l.bound = 4.0 * t.length;  // beyond any chord of the circle (2ℓ): the barrier is 0
      continue;
    }
    // The parent's point at angle `middle` in its rest frame (as the builder's point_of at t = 0).
    const Vec3 world = t.anchor + t.length * (Eigen::AngleAxisd(middle, t.axis) * t.u);
    l.b = t.parent < 0 ? BodyPoint{-1, world}
                       : BodyPoint{t.parent, state_matrix(bodies[t.parent].q0).inverse() *
                                                 (world - state_translation(bodies[t.parent].q0))};
    l.bound = 2.0 * t.length * std::sin(0.5 * kHalfArc);
  }
}

Vec3 body_point_position(const DofLayout& layout, const VecX& q, const BodyPoint& point) {
  if (point.body < 0) return point.x_bar;
  return world_point(layout.segment<kAffineDofs>(q, point.body), point.x_bar);
}

double max_joint_error(const JointModel& model, const DofLayout& layout, const VecX& q) {
  double error = 0.0;
  for (const PointGap& g : model.gaps)
    error = std::max(error, (body_point_position(layout, q, g.a) - body_point_position(layout, q, g.b)).norm());
  for (const JointRow& row : model.rows) {
    if (row.error_scale == 0.0) continue;
    double residual = -row.rhs;
    for (const auto& [dof, coefficient] : row.terms) residual += coefficient * q[dof];
    error = std::max(error, std::abs(residual) * row.error_scale);
  }
  for (const JointPenalty& p : model.penalties) {
    Vec12 x = Vec12::Zero();
    for (int k = 0; k < 4; ++k) x.segment<3>(3 * k) = body_point_position(layout, q, p.points[k]);
    error = std::max(error, std::abs(penalty_constraint(p.kind, x, p.length)));
  }
  for (const JointLimit& l : model.limits) {
    Vec6 x;
    x << body_point_position(layout, q, l.a), body_point_position(layout, q, l.b);
    error = std::max(error, -limit_function(x, l.bound, l.side));
  }
  return error;
}

}  // namespace affix
