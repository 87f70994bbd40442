// affix.generate(kind, **options): the scene families of `affix generate`, parsed by the command's own
// option table (app/generate_options.cpp) so that every kind and option of the command line is here,
// under its Python name (--end-mass-ratio → end_mass_ratio), with the same checks and messages.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <string>
#include <vector>

#include "affix/app/generate_options.hpp"
#include "affix/error.hpp"
#include "affix/math/number_text.hpp"
#include "affix/python/bindings.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"

namespace py = pybind11;

namespace affix::python {
namespace {

/// One keyword argument as the command line would have it: links=100 → "--links=100",
/// free_ball=True → "--free-ball=true" (CLI11 takes a flag's value after '=').
std::string option(const std::string& kind, const std::string& name, const py::handle& value) {
  std::string flag = "--" + name;
  std::replace(flag.begin(), flag.end(), '_', '-');
  if (py::isinstance<py::bool_>(value)) return flag + (value.cast<bool>() ? "=true" : "=false");
  if (PyIndex_Check(value.ptr()))  // int, numpy integers
    return flag + "=" + py::str(py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()))).cast<std::string>();
  if (py::isinstance<py::float_>(value)) return flag + "=" + number_text(value.cast<double>());
  if (py::isinstance<py::str>(value)) return flag + "=" + value.cast<std::string>();
  throw InputError("generate " + kind + ": " + name + ": expected a number, a str or a bool, got " +
                   py::repr(value).cast<std::string>());
}

Scene generate_scene(const std::string& kind, const py::kwargs& kwargs) {
  std::vector<std::string> args;
  for (const auto& [key, value] : kwargs) args.push_back(option(kind, key.cast<std::string>(), value));
  const Scene scene = affix::generate_scene(kind, args);
  // Read back through the scene file's validation, which checks dt, duration and solver as a file's.
  Scene checked = parse_scene(scene_to_json(scene, "."), "generate " + kind);
  checked.name = kind;
  checked.file.clear();
  return checked;
}

}  // namespace

void bind_generate(py::module_& m) {
  m.def("generate", &generate_scene, py::arg("kind"),
        "A scene of one family, as `affix generate KIND` writes it, with that command's options as keyword "
        "arguments under their Python names (`affix generate KIND --help` lists them: --end-mass-ratio is "
        "end_mass_ratio, a flag such as --free-ball is free_ball=True); every kind also takes dt, duration and "
        "solver. Raises affix.InputError for an unknown kind or option, or a value out of range.");
}

}  // namespace affix::python
