#include "measures.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include <Eigen/Geometry>

#include "affix/io/joints_writer.hpp"
#include "affix/model/records.hpp"
#include "penetration.hpp"

namespace affix::peers {

namespace {

Vec3 centre_of_mass(const ModelBody& body, const BodyPose& pose) { return pose.A * body.center_of_mass + pose.p; }

bool finite(const BodyPose& pose) { return pose.p.allFinite() && pose.A.allFinite(); }

}  // namespace

double blow_up_radius(const Model& model) {
  Vec3 centre = Vec3::Zero();
  for (const ModelBody& body : model.bodies) centre += body.position;
  if (!model.bodies.empty()) centre /= static_cast<double>(model.bodies.size());
  double reach = 0.0;
  for (const ModelBody& body : model.bodies) {
    reach = std::max(reach, (body.position - centre).norm() + body.bounding_radius);
  }
  return 3.0 * reach + 10.0;
}

MeasureRecorder::MeasureRecorder(const Model& model, std::vector<std::optional<Primitive>> shapes)
    : model_(model), shapes_(std::move(shapes)), radius_(blow_up_radius(model)) {
  const std::size_t n = model.bodies.size();
  previous_.resize(n);
  v_.resize(n);
  w_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const ModelBody& body = model.bodies[i];
    previous_[i] = {body.position, body.rotation};
    centre_ += body.position;
    // The scene's velocity is the origin's; the centre of mass moves at v + ω × (R c̄).
    w_[i] = body.angular_velocity;
    v_[i] = body.velocity + body.angular_velocity.cross(body.rotation * body.center_of_mass);
  }
  if (n > 0) centre_ /= static_cast<double>(n);
  double kinetic = 0.0;
  energy_start_ = energy(previous_, v_, w_, &kinetic);
  potential_start_ = energy_start_ - kinetic;
  m_.energy_moved = kinetic;
}

double MeasureRecorder::energy(const std::vector<BodyPose>& poses, const std::vector<Vec3>& v,
                               const std::vector<Vec3>& w, double* kinetic) const {
  double potential = 0.0, motion = 0.0;
  for (std::size_t i = 0; i < model_.bodies.size(); ++i) {
    const ModelBody& body = model_.bodies[i];
    if (body.is_dirichlet()) continue;
    const Mat3 inertia = poses[i].A * body.inertia * poses[i].A.transpose();  // world axes
    motion += 0.5 * body.mass * v[i].squaredNorm() + 0.5 * w[i].dot(inertia * w[i]);
    potential -= body.mass * model_.settings.gravity.dot(centre_of_mass(body, poses[i]));
  }
  if (kinetic) *kinetic = motion;
  return motion + potential;
}

bool MeasureRecorder::record(const std::vector<BodyPose>& poses, double step_ms) {
  const double h = model_.settings.dt;
  const int step = ++m_.steps;
  step_ms_.push_back(step_ms);
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const double away = (poses[i].p - centre_).norm();
    if (!finite(poses[i]) || !(away <= radius_)) {
      m_.blew_up = true;
      std::ostringstream why;
      why << model_.bodies[i].name << " at step " << step << ": "
          << (finite(poses[i]) ? "farther than the blow-up radius" : "not finite");
      m_.blow_up_reason = why.str();
      return false;
    }
  }
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const ModelBody& body = model_.bodies[i];
    v_[i] = (centre_of_mass(body, poses[i]) - centre_of_mass(body, previous_[i])) / h;
    const Eigen::AngleAxisd turn(Mat3(poses[i].A * previous_[i].A.transpose()));
    w_[i] = turn.axis() * (turn.angle() / h);
  }
  double kinetic = 0.0;
  const double e = energy(poses, v_, w_, &kinetic);
  m_.energy_moved = std::max({m_.energy_moved, kinetic, std::abs(e - kinetic - potential_start_)});
  m_.energy_drift = m_.energy_moved > 0.0 ? (e - energy_start_) / m_.energy_moved : 0.0;

  for (const JointRecord& record : joint_records(model_, poses)) {
    m_.max_joint_gap = std::max(m_.max_joint_gap, joint_gap(model_.joints[record.joint].def, record));
  }
  measure_contact(poses);
  previous_ = poses;
  return true;
}

void MeasureRecorder::measure_contact(const std::vector<BodyPose>& poses) {
  const int n = static_cast<int>(poses.size());
  order_.resize(static_cast<std::size_t>(n));
  lo_x_.resize(static_cast<std::size_t>(n));
  half_.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto& shape = shapes_[i];
    // Bodies without a primitive get their bounding sphere, so that their near pairs can be counted.
    half_[i] = shape ? world_half_extents(*shape, poses[i]) : Vec3::Constant(model_.bodies[i].bounding_radius);
    lo_x_[i] = poses[i].p.x() - half_[i].x();
    if (model_.ground && shape && !model_.bodies[i].is_dirichlet()) {
      m_.max_ground_penetration =
          std::max(m_.max_ground_penetration, ground_penetration(*shape, poses[i], model_.ground->height));
    }
  }
  // Sweep and prune along x: pairs whose world boxes overlap on all three axes are measured exactly.
  std::iota(order_.begin(), order_.end(), 0);
  std::sort(order_.begin(), order_.end(), [&](int a, int b) { return lo_x_[a] < lo_x_[b]; });
  for (int s = 0; s < n; ++s) {
    const int i = order_[s];
    const double hi_x = poses[i].p.x() + half_[i].x();
    for (int t = s + 1; t < n && lo_x_[order_[t]] <= hi_x; ++t) {
      const int j = order_[t];
      const Vec3 gap = (poses[i].p - poses[j].p).cwiseAbs() - half_[i] - half_[j];
      if (gap.y() > 0.0 || gap.z() > 0.0) continue;
      if (!model_.may_collide(std::min(i, j), std::max(i, j))) continue;
      if (!shapes_[i] || !shapes_[j]) {
        ++m_.unmeasured_pairs;
        continue;
      }
      m_.max_body_penetration =
          std::max(m_.max_body_penetration, penetration_depth(*shapes_[i], poses[i], *shapes_[j], poses[j]));
    }
  }
}

Measures MeasureRecorder::result() const {
  Measures m = m_;
  if (!step_ms_.empty()) {
    std::vector<double> sorted = step_ms_;
    const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
    std::nth_element(sorted.begin(), middle, sorted.end());
    m.median_ms = *middle;
  }
  return m;
}

}  // namespace affix::peers
