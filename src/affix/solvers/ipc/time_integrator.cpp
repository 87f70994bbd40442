#include "affix/solvers/ipc/time_integrator.hpp"

namespace affix {
namespace {

bool use_bdf2(Integrator integrator, const BodyHistory& history) {
  return integrator == Integrator::bdf2 && history.has_previous;
}

}  // namespace

Prediction predict(Integrator integrator, const BodyHistory& history, double h) {
  if (use_bdf2(integrator, history)) {
    return {(4.0 * history.q - history.q_prev) / 3.0 +
                (2.0 * h / 9.0) * (4.0 * history.qdot - history.qdot_prev),
            4.0 / 9.0};
  }
  return {history.q + h * history.qdot, 1.0};
}

VelocityMap velocity_map(Integrator integrator, const BodyHistory& history, double h) {
  if (use_bdf2(integrator, history)) return {1.5 / h, (4.0 * history.q - history.q_prev) / 3.0};
  return {1.0 / h, history.q};
}

void advance(Integrator integrator, BodyHistory& history, const Vec12& q_next, double h) {
  const Vec12 qdot_next = use_bdf2(integrator, history)
                              ? Vec12((3.0 * q_next - 4.0 * history.q + history.q_prev) / (2.0 * h))
                              : Vec12((q_next - history.q) / h);
  history.q_prev = history.q;
  history.qdot_prev = history.qdot;
  history.q = q_next;
  history.qdot = qdot_next;
  history.has_previous = true;
}

}  // namespace affix
