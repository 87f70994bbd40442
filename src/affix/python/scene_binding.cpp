// affix.Scene and affix.load: a scene is read by the same loader as `affix run` uses (scene_loader.hpp,
// which picks the reader by the file's extension), or from a Python dict through the same validation
// (parse_scene), so a dict with a mistake gets the message a file with it would get.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>

#include "affix/import/load_scene_file.hpp"
#include "affix/error.hpp"
#include "affix/python/bindings.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"
#include "affix/solvers/registry.hpp"

namespace py = pybind11;

namespace affix::python {
namespace {

/// The name a dict's scene goes by in messages when no file is given.
constexpr const char* kDictFile = "<dict>";

/// The JSON path of the first value in `v` that a JSON file cannot hold (NaN, ±inf, a set, an object),
/// and what was expected there: json.dumps names neither (hostile16 #14), a scene file's reader names both.
std::optional<std::string> first_unjsonable(const py::handle& v, const std::string& path) {
  const auto at = [&](const std::string& what) { return (path.empty() ? std::string() : path + ": ") + what; };
  if (v.is_none() || py::isinstance<py::bool_>(v) || py::isinstance<py::int_>(v) || py::isinstance<py::str>(v))
    return std::nullopt;
  if (py::isinstance<py::float_>(v)) {
    const double x = v.cast<double>();
    if (std::isfinite(x)) return std::nullopt;
    return at(std::string("expected a finite number, got ") + (std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf"));
  }
  if (py::isinstance<py::dict>(v)) {
    for (const auto& [key, value] : v.cast<py::dict>()) {
      const std::string k = py::str(key);
      if (auto bad = first_unjsonable(value, path.empty() ? k : path + "." + k)) return bad;
    }
    return std::nullopt;
  }
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    std::size_t i = 0;
    for (const py::handle item : v) {
      if (auto bad = first_unjsonable(item, path + "[" + std::to_string(i++) + "]")) return bad;
    }
    return std::nullopt;
  }
  return at("expected a dict, list, str, finite number, bool or None, got a " +
            std::string(py::str(py::type::handle_of(v).attr("__name__"))));
}

Scene from_dict(const py::handle& data, const std::optional<std::filesystem::path>& file) {
  const std::filesystem::path name = file.value_or(kDictFile);
  if (!py::isinstance<py::dict>(data))
    throw InputError(name.string() + ": expected a dict (a scene file's top-level object)");
  std::string text;
  try {
    // JSON has no NaN or infinity: refused here rather than passed on as a token the parser rejects.
    text = py::str(py::module_::import("json").attr("dumps")(data, py::arg("allow_nan") = false));
  } catch (const py::error_already_set& e) {
    if (auto bad = first_unjsonable(data, "")) throw InputError(name.string() + ": " + *bad);
    throw InputError(name.string() + ": expected what a JSON file can hold (dicts, lists, str, finite numbers, "
                     "bool, None): " + std::string(py::str(e.value())));
  }
  Scene scene = parse_scene(nlohmann::json::parse(text), name);
  // The solvers' own blocks (settings.compliant, …), which a scene file's reader leaves to them, are read
  // now, as `affix validate` reads a file's, so that a mistake is reported here and not by the Simulator.
  check_solver_settings(scene.settings, name);
  canonical_solver_settings(scene.settings);  // 3.0 for an integer field is read back as 3
  // A dict keeps '<dict>' as its file: every later message (compile, the solvers) starts with it.
  if (!file) scene.name = "scene";
  return scene;
}

py::object to_dict(const Scene& scene) {
  return py::module_::import("json").attr("loads")(scene_to_json(scene).dump());
}

std::string repr(const Scene& s) {
  return "<affix.Scene '" + s.name + "': " + std::to_string(s.bodies.size()) + " bodies, " +
         std::to_string(s.joints.size()) + " joints, solver " + s.settings.solver + ">";
}

}  // namespace

void bind_scene(py::module_& m) {
  py::class_<Scene>(m, "Scene", "A validated scene (README, Scene files): affix.load(path), Scene.from_dict(d).")
      .def_static("from_dict", &from_dict, py::arg("data"), py::arg("file") = py::none(),
                  "A scene from a dict shaped like a scene file. `file` names it in messages and anchors "
                  "relative mesh paths (default: '<dict>', paths relative to the working directory). "
                  "Raises affix.InputError naming the JSON path of a mistake.")
      .def("to_dict", &to_dict, "The scene as a scene file's dict, every default written out.")
      .def("save", [](const Scene& s, const std::filesystem::path& file) { save_scene(s, file); }, py::arg("file"),
           "Writes the scene as a JSON scene file.")
      .def_property_readonly("name", [](const Scene& s) { return s.name; })
      .def_property_readonly("file", [](const Scene& s) { return s.file; })
      .def_property_readonly("body_names", [](const Scene& s) {
        py::list names;
        for (const BodyDef& b : s.bodies) names.append(b.name);
        return names;
      })
      .def_property_readonly("joint_names", [](const Scene& s) {
        py::list names;
        for (const JointDef& j : s.joints) names.append(j.name);
        return names;
      })
      .def_property_readonly("solver", [](const Scene& s) { return s.settings.solver; })
      .def_property_readonly("dt", [](const Scene& s) { return s.settings.dt; })
      .def_property_readonly("duration", [](const Scene& s) { return s.settings.duration; })
      .def("__repr__", &repr);

  m.def("load",
        [](const std::filesystem::path& file) {
          Scene scene = load_scene_file(file);
          check_solver_settings(scene.settings, scene.file);  // as from_dict does
          canonical_solver_settings(scene.settings);
          return scene;
        },
        py::arg("path"),
        "Reads and validates a scene file, as `affix run` does. Raises affix.InputError naming the file "
        "and the JSON path of a mistake.");
}

}  // namespace affix::python
