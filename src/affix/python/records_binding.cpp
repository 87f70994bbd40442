// What a step reports (StepStats: the columns of stats.csv, DESIGN §4) and the joint and contact
// records (model/records.hpp: the rows of joints.csv and contacts.csv), as read-only Python objects.
#include <pybind11/pybind11.h>

#include <cmath>
#include <string>

#include "affix/model/records.hpp"
#include "affix/model/step_stats.hpp"
#include "affix/python/arrays.hpp"
#include "affix/python/bindings.hpp"

namespace py = pybind11;

namespace affix::python {

void bind_records(py::module_& m) {
  py::class_<StepStats>(m, "StepStats", "One step's statistics: the columns of stats.csv (README, Run output).")
      .def_readonly("step", &StepStats::step, "1-based index of the step")
      .def_readonly("time", &StepStats::time, "simulated time after the step (s)")
      .def_readonly("iterations", &StepStats::iterations, "solver (Newton) iterations")
      .def_readonly("residual", &StepStats::residual, "final convergence measure (solver-specific)")
      .def_readonly("min_distance", &StepStats::min_distance, "smallest contact distance (m); inf if none near")
      .def_readonly("active_contacts", &StepStats::active_contacts)
      .def_readonly("max_joint_error", &StepStats::max_joint_error, "largest joint violation (m)")
      .def_readonly("kinetic_energy", &StepStats::kinetic_energy, "J")
      .def_readonly("potential_energy", &StepStats::potential_energy, "J")
      .def_readonly("wall_ms", &StepStats::wall_ms, "wall-clock time of the step (ms)")
      .def_readonly("hit_iteration_cap", &StepStats::hit_iteration_cap)
      .def_readonly("line_search_evaluations", &StepStats::line_search_evaluations)
      .def_readonly("barrier_stiffness", &StepStats::barrier_stiffness)
      .def_readonly("warnings", &StepStats::warnings)
      .def_readonly("max_penetration", &StepStats::max_penetration, "m")
      .def("__repr__", [](const StepStats& s) {
        return "<affix.StepStats step " + std::to_string(s.step) + ", t = " + std::to_string(s.time) + " s, " +
               std::to_string(s.iterations) + " iterations>";
      });

  py::class_<JointRecord>(m, "JointRecord",
                          "A joint's frame as each of its two bodies carries it now (world coordinates): the "
                          "row of joints.csv. For an exact ball, hinge, universal, fixed or cone-twist joint "
                          "anchor1 == anchor2.")
      .def_readonly("joint", &JointRecord::joint, "index into Scene.joint_names")
      .def_property_readonly("anchor1", [](const JointRecord& r) { return to_array(r.anchor1); })
      .def_property_readonly("anchor2", [](const JointRecord& r) { return to_array(r.anchor2); })
      .def_property_readonly("axis1", [](const JointRecord& r) { return to_array(r.axis1); })
      .def_property_readonly("axis2", [](const JointRecord& r) { return to_array(r.axis2); })
      .def("__repr__", [](const JointRecord& r) {
        return "<affix.JointRecord joint " + std::to_string(r.joint) + ", gap " +
               std::to_string((r.anchor1 - r.anchor2).norm()) + " m>";
      });

  py::class_<ContactRecord>(m, "ContactRecord",
                            "A contact the solver acts on now: the row of contacts.csv. body2 == -1 is the "
                            "ground; the normal points from body2 to body1.")
      .def_readonly("body1", &ContactRecord::body1)
      .def_readonly("body2", &ContactRecord::body2)
      .def_property_readonly("point", [](const ContactRecord& r) { return to_array(r.point); })
      .def_property_readonly("normal", [](const ContactRecord& r) { return to_array(r.normal); })
      .def_readonly("distance", &ContactRecord::distance, "gap (m); negative: penetration depth")
      .def_readonly("force", &ContactRecord::force, "normal force (N)")
      .def("__repr__", [](const ContactRecord& r) {
        return "<affix.ContactRecord bodies " + std::to_string(r.body1) + ", " + std::to_string(r.body2) +
               ", distance " + std::to_string(r.distance) + " m>";
      });
}

}  // namespace affix::python
