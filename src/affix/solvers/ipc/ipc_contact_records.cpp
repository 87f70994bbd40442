// IpcSimulator::contact_records (ipc_simulator.hpp): the contacts the last step's solve acted on, at
// the current state, with the barrier stiffness κ it used.
#include "affix/solvers/ipc/ipc_simulator.hpp"

namespace affix {

/// Every vertex–ground pair and body–body stencil closer than d̂ at the current state
/// (IncrementalPotential::contact_records), with the κ of the last step — or, before the first step,
/// settings.ipc.kappa when the scene fixes it, else 0: the adaptive κ is chosen by the first step, so
/// no contact has pushed yet. Virtual links have no geometry and never appear.
std::vector<ContactRecord> IpcSimulator::contact_records() const {
  const int n = static_cast<int>(bodies_.size());
  VecX q(layout_.total());
  for (int i = 0; i < n; ++i) body_segment(layout_, q, i) = history_[i].q;
  const double kappa = kappa_ > 0.0 ? kappa_ : ipc_settings_.kappa.value_or(0.0);
  std::vector<ContactRecord> records = potential_.contact_records(q, kappa);
  std::erase_if(records, [&](const ContactRecord& r) {
    return r.body1 >= scene_body_count_ || r.body2 >= scene_body_count_;
  });
  return records;
}

}  // namespace affix
