// affix.run(scene, out_dir): the whole pipeline of `affix run` (app/run_scene.hpp), writing the files of
// the run output contract (DESIGN §4), and the summary back as a dict (summary.json's keys).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "affix/import/load_scene_file.hpp"
#include "affix/app/run_scene.hpp"
#include "affix/error.hpp"
#include "affix/io/interrupt.hpp"
#include "affix/python/bindings.hpp"
#include "affix/scene/scene_loader.hpp"

namespace py = pybind11;

namespace affix::python {
namespace {

py::dict run(const py::handle& scene_or_path, const std::optional<std::filesystem::path>& out_dir, bool contacts,
             const std::optional<std::string>& format, const std::optional<std::string>& solver) {
  Scene scene = py::isinstance<Scene>(scene_or_path) ? scene_or_path.cast<Scene>()
                                                     : load_scene_file(scene_or_path.cast<std::filesystem::path>());
  if (solver) scene.settings.solver = *solver;  // checked with the scene, as settings.solver
  RunOptions options;
  options.out_dir = out_dir.value_or(std::filesystem::path("out") / scene.name);
  options.quiet = true;
  options.contacts = contacts;
  if (format) options.format = parse_trajectory_format(*format);
  RunResult result;
  int signal = 0;
  {
    py::gil_scoped_release unlocked;
    // Ctrl-C stops the run after the step in progress, with an honest summary, as in the CLI.
    const InterruptGuard interrupt_guard;
    result = run_scene(std::move(scene), options);
    signal = InterruptGuard::signal_received();
  }
  if (signal != 0) {  // Python's way to say so; the files and summary.json are written
    PyErr_SetString(PyExc_KeyboardInterrupt, result.error.c_str());
    throw py::error_already_set();
  }
  if (!result.completed) throw SimulationError(result.error + " (the run's files are in " + result.out_dir.string() + ")");
  return py::module_::import("json").attr("loads")(summary_json(result));
}

}  // namespace

void bind_run(py::module_& m) {
  m.def("run", &run, py::arg("scene"), py::arg("out_dir") = py::none(), py::kw_only(), py::arg("contacts") = false,
        py::arg("format") = py::none(), py::arg("solver") = py::none(),
        "Runs a scene (an affix.Scene or a path) for its duration, as `affix run` does, writing trajectory, "
        "stats.csv, summary.json (and joints.csv, contacts.csv) into out_dir (default out/<scene name>). "
        "Returns the summary as a dict. Raises affix.InputError for bad input and affix.SimulationError when "
        "the run fails (its files are kept).");
}

}  // namespace affix::python
