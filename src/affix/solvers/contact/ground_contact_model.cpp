#include "affix/solvers/contact/ground_contact_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "affix/ccd/point_plane_ccd.hpp"
#include "affix/energy/barrier.hpp"
#include "affix/energy/ground_contact.hpp"

namespace affix {

GroundContactModel::GroundContactModel(const std::vector<AffineBody>& bodies, const std::optional<Ground>& ground,
                                       double dhat)
    : bodies_(bodies), ground_(ground), dhat_(dhat) {}

void GroundContactModel::add_energy(int i, const Vec12& qi, double kappa,
                                    const std::vector<GroundFrictionContact>& friction, double friction_eps,
                                    double& P) const {
  const auto& vertices = bodies_[i].mesh->vertices;
  for (const Vec3& x_bar : vertices) {
    const double d = ground_distance(qi, x_bar, ground_->height);
    if (d < dhat_) P += kappa * barrier(d, dhat_);
  }
  for (const auto& f : friction)
    P += ground_friction(qi, vertices[f.vertex], f.x_start, f.mu_lambda, friction_eps).value;
}

void GroundContactModel::add_derivatives(int i, const Vec12& qi, double kappa,
                                         const std::vector<GroundFrictionContact>& friction, double friction_eps,
                                         Vec12& g, Mat12& h) const {
  const auto& vertices = bodies_[i].mesh->vertices;
  for (const Vec3& x_bar : vertices) {
    if (ground_distance(qi, x_bar, ground_->height) >= dhat_) continue;
    const GroundStencil s = ground_barrier(qi, x_bar, ground_->height, dhat_, kappa);
    g += s.gradient;
    h += s.hessian;
  }
  for (const auto& f : friction) {
    // The exact Hessian or the majorizer, as the contact's slip history says (friction.hpp).
    const FrictionHessian form =
        friction_newton_form(ground_slip(qi, vertices[f.vertex], f.x_start), friction_eps, f.history);
    const GroundStencil s = ground_friction(qi, vertices[f.vertex], f.x_start, f.mu_lambda, friction_eps, form);
    g += s.gradient;
    h += s.hessian;
  }
}

Vec12 GroundContactModel::barrier_gradient(int i, const Vec12& qi) const {
  Vec12 g = Vec12::Zero();
  for (const Vec3& x_bar : bodies_[i].mesh->vertices)
    g += ground_barrier(qi, x_bar, ground_->height, dhat_, 1.0).gradient;
  return g;
}

void GroundContactModel::add_barrier_energy(int i, const Vec12& qi, double kappa, double& total) const {
  for (const Vec3& x_bar : bodies_[i].mesh->vertices)
    total += kappa * barrier(ground_distance(qi, x_bar, ground_->height), dhat_);
}

Mat12 GroundContactModel::damping_hessian(int i, const Vec12& qi, double kappa) const {
  Mat12 K = Mat12::Zero();
  const double k_d = std::max(bodies_[i].damping, ground_->damping);
  if (k_d == 0.0) return K;
  for (const Vec3& x_bar : bodies_[i].mesh->vertices)
    if (ground_distance(qi, x_bar, ground_->height) < dhat_)
      K += k_d * ground_barrier(qi, x_bar, ground_->height, dhat_, kappa).hessian;
  return K;
}

std::vector<GroundFrictionContact> GroundContactModel::lag_friction(int i, const Vec12& qi_lag,
                                                                    const Vec12& qi_start, double kappa) const {
  std::vector<GroundFrictionContact> contacts;
  const AffineBody& body = bodies_[i];
  const double mu = std::sqrt(body.friction * ground_->friction);
  if (mu == 0.0) return contacts;
  for (int v = 0; v < static_cast<int>(body.mesh->vertices.size()); ++v) {
    const Vec3& x_bar = body.mesh->vertices[v];
    const double d = ground_distance(qi_lag, x_bar, ground_->height);
    if (d >= dhat_) continue;
    const double lambda = -kappa * barrier_first_derivative(d, dhat_);
    contacts.push_back({v, mu * lambda, world_point(qi_start, x_bar), {}});
  }
  return contacts;
}

double GroundContactModel::max_step(int i, const Vec12& qi, const Vec12& qi_end) const {
  double alpha = 1.0;
  for (const Vec3& x_bar : bodies_[i].mesh->vertices) {
    alpha = std::min(alpha, point_plane_max_step(ground_distance(qi, x_bar, ground_->height),
                                                 ground_distance(qi_end, x_bar, ground_->height)));
  }
  return alpha;
}

GroundContactModel::Proximity GroundContactModel::proximity(int i, const Vec12& qi) const {
  Proximity p{std::numeric_limits<double>::infinity(), 0};
  for (const Vec3& x_bar : bodies_[i].mesh->vertices) {
    const double d = ground_distance(qi, x_bar, ground_->height);
    p.min_distance = std::min(p.min_distance, d);
    if (d < dhat_) ++p.active;
  }
  return p;
}

void GroundContactModel::add_contact_records(int i, const Vec12& qi, double kappa,
                                             std::vector<ContactRecord>& out) const {
  for (const Vec3& x_bar : bodies_[i].mesh->vertices) {
    const double d = ground_distance(qi, x_bar, ground_->height);
    if (d >= dhat_) continue;
    ContactRecord r;
    r.body1 = i;
    r.body2 = -1;
    r.point = world_point(qi, x_bar) - Vec3(0.0, 0.0, 0.5 * d);
    r.normal = Vec3::UnitZ();
    r.distance = d;
    r.force = kappa * -barrier_first_derivative(d, dhat_);
    out.push_back(r);
  }
}

}  // namespace affix
