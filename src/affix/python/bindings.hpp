#pragma once
// The Python module `affix` (README, Python): each part of its API is bound by its own file, and
// module.cpp puts them together. Errors cross as Python exceptions carrying the C++ message unchanged
// (InputError → affix.InputError, a ValueError; SimulationError → affix.SimulationError, a
// RuntimeError; OutputError → affix.OutputError, an OSError), so Python users read what the CLI prints.
#include <pybind11/pybind11.h>

namespace affix::python {

void bind_errors(pybind11::module_& m);     // module.cpp
void bind_scene(pybind11::module_& m);      // scene_binding.cpp: Scene, load
void bind_generate(pybind11::module_& m);   // generate_binding.cpp: generate
void bind_records(pybind11::module_& m);    // records_binding.cpp: StepStats, JointRecord, ContactRecord
void bind_simulator(pybind11::module_& m);  // simulator_binding.cpp: Simulator
void bind_run(pybind11::module_& m);        // run_binding.cpp: run

}  // namespace affix::python
