#include "affix/solvers/ipc/ipc_simulator.hpp"

namespace affix {

// TODO(issue 10): the active contact stencils as ContactRecords (being written).
std::vector<ContactRecord> IpcSimulator::contact_records() const { return {}; }

}  // namespace affix
