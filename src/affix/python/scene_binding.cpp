// affix.Scene and affix.load: a scene is read by the same loader as `affix run` uses (scene_loader.hpp,
// which picks the reader by the file's extension), or from a Python dict through the same validation
// (parse_scene), so a dict with a mistake gets the message a file with it would get.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

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

Scene from_dict(const py::handle& data, const std::optional<std::filesystem::path>& file) {
  const std::filesystem::path name = file.value_or(kDictFile);
  if (!py::isinstance<py::dict>(data))
    throw InputError(name.string() + ": expected a dict (a scene file's top-level object)");
  std::string text;
  try {
    // JSON has no NaN or infinity: refused here rather than passed on as a token the parser rejects.
    text = py::str(py::module_::import("json").attr("dumps")(data, py::arg("allow_nan") = false));
  } catch (const py::error_already_set& e) {
    throw InputError(name.string() + ": expected what a JSON file can hold (dicts, lists, str, finite numbers, "
                     "bool, None): " + e.what());
  }
  Scene scene = parse_scene(nlohmann::json::parse(text), name);
  // The solvers' own blocks (settings.compliant, …), which a scene file's reader leaves to them, are read
  // now, as `affix validate` reads a file's, so that a mistake is reported here and not by the Simulator.
  check_solver_settings(scene.settings, name);
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
          return scene;
        },
        py::arg("path"),
        "Reads and validates a scene file, as `affix run` does. Raises affix.InputError naming the file "
        "and the JSON path of a mistake.");
}

}  // namespace affix::python
