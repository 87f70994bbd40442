#include "affix/solvers/ipc/joint_energies.hpp"

#include <algorithm>
#include <limits>

#include "affix/ccd/norm_interval_ccd.hpp"
#include "affix/math/psd_projection.hpp"
#include "affix/solvers/assembly/stencil_assembly.hpp"

namespace affix {
namespace {

Vec12 penalty_positions(const DofLayout& layout, const VecX& q, const JointPenalty& p) {
  Vec12 x = Vec12::Zero();
  for (int k = 0; k < 4; ++k) x.segment<3>(3 * k) = body_point_position(layout, q, p.points[k]);
  return x;
}

Vec6 limit_positions(const DofLayout& layout, const VecX& q, const JointLimit& l) {
  Vec6 x;
  x << body_point_position(layout, q, l.a), body_point_position(layout, q, l.b);
  return x;
}

}  // namespace

JointEnergies::JointEnergies(const std::vector<AffineBody>& bodies, const JointModel& model, double chat)
    : bodies_(bodies), layout_(affine_layout(bodies)), model_(model), chat_(chat) {}

void JointEnergies::add_energies(const VecX& q, double kappa, double beta_h2, const std::vector<char>& include,
                                 std::vector<double>& per_body) const {
  const auto add = [&](int a, int b, double value) {
    const int owner = a >= 0 && include[a] ? a : b;
    if (owner >= 0 && include[owner]) per_body[owner] += beta_h2 * value;
  };
  for (const JointPenalty& p : model_.penalties) {
    const int a = p.points[0].body, b = p.points[1].body;
    add(a, b, joint_penalty(p.kind, penalty_positions(layout_, q, p), p.length, p.stiffness).value);
  }
  for (const JointLimit& l : model_.limits)
    add(l.a.body, l.b.body, joint_limit_barrier(limit_positions(layout_, q, l), l.bound, l.side, chat_, kappa).value);
}

void JointEnergies::add_derivatives(const VecX& q, double kappa, double beta_h2, VecX& gradient,
                                    BlockHessian& H) const {
  for (const JointPenalty& p : model_.penalties) {
    const StencilDerivatives d = joint_penalty(p.kind, penalty_positions(layout_, q, p), p.length, p.stiffness);
    const StencilBodyTerms t =
        stencil_to_bodies(p.points.data(), StencilSize<4>{}, d.value, d.gradient, project_to_psd<12>(d.hessian));
    add_stencil_gradient(t, beta_h2, layout_, gradient);
    add_stencil_hessian(t, beta_h2, H);
  }
  for (const JointLimit& l : model_.limits) {
    const PairDerivatives d = joint_limit_barrier(limit_positions(layout_, q, l), l.bound, l.side, chat_, kappa);
    if (d.value == 0.0) continue;
    const BodyPoint points[2] = {l.a, l.b};
    const StencilBodyTerms t =
        stencil_to_bodies(points, StencilSize<2>{}, d.value, d.gradient, project_to_psd<6>(d.hessian));
    add_stencil_gradient(t, beta_h2, layout_, gradient);
    add_stencil_hessian(t, beta_h2, H);
  }
}

void JointEnergies::add_barrier_gradient(const VecX& q, double beta_h2, VecX& gradient) const {
  for (const JointLimit& l : model_.limits) {
    const PairDerivatives d = joint_limit_barrier(limit_positions(layout_, q, l), l.bound, l.side, chat_, 1.0);
    if (d.value == 0.0) continue;
    const BodyPoint points[2] = {l.a, l.b};
    const Mat6 no_hessian = Mat6::Zero();
    add_stencil_gradient(stencil_to_bodies(points, StencilSize<2>{}, d.value, d.gradient, no_hessian), beta_h2,
                         layout_, gradient);
  }
}

void JointEnergies::add_damping_hessian(const VecX& q, double kappa, BlockHessian& H) const {
  for (const JointLimit& l : model_.limits) {
    if (l.damping == 0.0) continue;
    const PairDerivatives d = joint_limit_barrier(limit_positions(layout_, q, l), l.bound, l.side, chat_, kappa);
    if (d.value == 0.0) continue;
    const BodyPoint points[2] = {l.a, l.b};
    const Mat6 projected = project_to_psd<6>(d.hessian);
    const Vec6 no_gradient = Vec6::Zero();
    add_stencil_hessian(stencil_to_bodies(points, StencilSize<2>{}, d.value, no_gradient, projected), l.damping, H);
  }
}

std::vector<double> JointEnergies::max_steps(const VecX& q, const VecX& dq) const {
  std::vector<double> per_body(bodies_.size(), 1.0);
  const VecX q1 = q + dq;
  for (const JointLimit& l : model_.limits) {
    const Vec6 x0 = limit_positions(layout_, q, l), x1 = limit_positions(layout_, q1, l);
    const Vec3 d0 = x0.head<3>() - x0.tail<3>(), dd = (x1.head<3>() - x1.tail<3>()) - d0;
    const double c = limit_function(x0, l.bound, l.side);
    // Keep a tenth of the current c, as the contact CCD keeps a tenth of the distance.
    const double alpha = l.side == BoundSide::upper
                             ? norm_interval_max_step(d0, dd, 0.0, l.bound - 0.1 * c)
                             : norm_interval_max_step(d0, dd, l.bound + 0.1 * c,
                                                      std::numeric_limits<double>::infinity());
    for (int body : {l.a.body, l.b.body})
      if (body >= 0) per_body[body] = std::min(per_body[body], alpha);
  }
  return per_body;
}

double JointEnergies::potential_energy(const VecX& q, double kappa) const {
  std::vector<double> per_body(bodies_.size(), 0.0);
  add_energies(q, kappa, 1.0, std::vector<char>(bodies_.size(), 1), per_body);
  double total = 0.0;
  for (double e : per_body) total += e;
  return total;
}

double JointEnergies::min_limit_distance(const VecX& q) const {
  double least = std::numeric_limits<double>::infinity();
  for (const JointLimit& l : model_.limits)
    least = std::min(least, limit_function(limit_positions(layout_, q, l), l.bound, l.side));
  return least;
}

}  // namespace affix
