#pragma once
// The measures of bench/peers, computed by this one piece of code for every engine (affix's solvers
// and the peers alike) from nothing but the bodies' poses after each step and the wall time of the
// step itself — never from an engine's own statistics (README of bench/peers: the measures).
//
// - median ms per step: of the engine's step call alone (poses are read and measured outside it);
// - largest joint gap: the distance between a joint's two anchors as its two bodies carry them
//   (affix::joint_records of the model's joint frames, the gap joints.csv writes), over every step;
// - largest penetration depth between bodies that may touch (Model::may_collide) and into the ground,
//   exact for boxes and spheres (penetration.hpp); pairs of other shapes are counted, not measured;
// - energy drift: (E_end − E_0) / E_moved, with E = Σ ½ m|v|² + ½ ωᵀ I ω − m g·c and E_moved the most
//   energy that was in motion or released, max over the steps of KE(t) and |PE(t) − PE_0|: −1 is all of it
//   dissipated, 0 conserved, > 0 energy made. Velocities are
//   backward differences of the poses, v_k = (c_k − c_{k−1}) / h and ω_k = log(R_k R_{k−1}ᵀ) / h, which is
//   exactly the step's velocity for every engine here (all of them update x_{k+1} = x_k + h v_{k+1});
//   E_0 takes the scene's initial velocities. Negative: energy lost (friction, inelastic contact,
//   numerical damping); positive: energy made;
// - blew up: a pose that is not finite, or a body origin farther than blow_up_radius from the centre
//   of the bodies' start positions.
#include <string>
#include <vector>

#include "affix/model/body_state.hpp"
#include "affix/model/model.hpp"
#include "primitives.hpp"

namespace affix::peers {

struct Measures {
  int steps = 0;                      ///< steps recorded
  double median_ms = 0.0;             ///< median wall time of one step
  double max_joint_gap = 0.0;         ///< m
  double max_body_penetration = 0.0;  ///< m, between bodies (0: none overlapped)
  double max_ground_penetration = 0.0;///< m, into the ground
  long long unmeasured_pairs = 0;     ///< near pairs whose shapes have no exact depth here
  double energy_drift = 0.0;          ///< (E_end − E_0) / E_moved, see above
  double energy_moved = 0.0;          ///< J, E_moved
  bool blew_up = false;
  std::string blow_up_reason;         ///< which body, at which step, why
};

/// The stated blow-up radius of a scene: three times the radius of the bodies' start positions about
/// their centre (each body's bounding radius added), plus 10 m.
double blow_up_radius(const Model& model);

class MeasureRecorder {
 public:
  /// `shapes[i]`: body i's primitive, if it has one. The model gives masses, inertias, joints, the
  /// ground, the step h and the initial state.
  MeasureRecorder(const Model& model, std::vector<std::optional<Primitive>> shapes);

  /// The poses (model order) after one more step, which took `step_ms`. Returns false when the state
  /// blew up (then the run should stop).
  bool record(const std::vector<BodyPose>& poses, double step_ms);

  Measures result() const;

  /// Total mechanical energy of the bodies at `poses` moving at `velocities` (world linear velocity of
  /// the centre of mass and world angular velocity, per body): what the drift is made of.
  double energy(const std::vector<BodyPose>& poses, const std::vector<Vec3>& com_velocities,
                const std::vector<Vec3>& angular_velocities, double* kinetic = nullptr) const;

 private:
  void measure_contact(const std::vector<BodyPose>& poses);

  const Model& model_;
  std::vector<std::optional<Primitive>> shapes_;
  double radius_;
  Vec3 centre_ = Vec3::Zero();
  std::vector<BodyPose> previous_;
  std::vector<double> step_ms_;
  double energy_start_ = 0.0, potential_start_ = 0.0;
  // Scratch, kept between steps (no allocation per step once sized).
  std::vector<Vec3> v_, w_;
  std::vector<int> order_;
  std::vector<double> lo_x_;
  std::vector<Vec3> half_;
  Measures m_;
};

}  // namespace affix::peers
