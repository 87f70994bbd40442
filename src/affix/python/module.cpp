// PYBIND11_MODULE(affix): the Python face of affix (README, Python).
#include <pybind11/pybind11.h>

#include "affix/error.hpp"
#include "affix/python/bindings.hpp"

namespace affix::python {

void bind_errors(pybind11::module_& m) {
  // Subclasses of the built-in exceptions they are, so that `except ValueError` still catches bad input.
  pybind11::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  pybind11::register_exception<SimulationError>(m, "SimulationError", PyExc_RuntimeError);
  pybind11::register_exception<OutputError>(m, "OutputError", PyExc_OSError);
}

}  // namespace affix::python

PYBIND11_MODULE(affix, m) {
  m.doc() = "affix: stiff and rigid multibody dynamics with joints and contact (README, Python).";
  m.attr("__version__") = AFFIX_VERSION;
  affix::python::bind_errors(m);
  affix::python::bind_scene(m);
  affix::python::bind_generate(m);
  affix::python::bind_records(m);
  affix::python::bind_simulator(m);
  affix::python::bind_run(m);
}
