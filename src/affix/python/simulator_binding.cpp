// affix.Simulator: a scene compiled and handed to a back-end by name (solvers/registry.hpp), stepped
// from Python. The state comes out as numpy arrays in model (scene) order; edits between steps go
// through the Simulator interface (set_state, apply_force, set_kinematic_target) and, on a back-end with
// drives, its DriveControl (set_motor_speed, set_servo_target); their checks are the back-ends' own. A
// step that fails raises affix.SimulationError with the run loop's context ("step 12 (t = 0.12 s): …",
// io/run.cpp) and leaves the simulator refusing further steps: its state is the failed one. Like the
// run loop it stops at an inverted or collapsed body, at a joint that came apart (io/joint_tear.hpp),
// here after every step, and at a body sunk into another (io/contact_depth.hpp).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "affix/error.hpp"
#include "affix/io/contact_depth.hpp"
#include "affix/io/joint_table.hpp"
#include "affix/io/joint_tear.hpp"
#include "affix/io/number_format.hpp"
#include "affix/io/pose_check.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/rotation.hpp"
#include "affix/model/drive_control.hpp"
#include "affix/model/model.hpp"
#include "affix/python/arrays.hpp"
#include "affix/python/bindings.hpp"
#include "affix/solvers/registry.hpp"

namespace py = pybind11;

namespace affix::python {
namespace {

/// An index into `names` (a body's or a joint's) from Python: an int (negative counts from the end, as
/// Python's) or a name. `kind` ("body", "joint") and `request` (the call) word the InputError.
int index_of(const py::handle& which, const std::vector<std::string>& names, const std::string& kind,
             const std::string& request) {
  const int n = static_cast<int>(names.size());
  if (py::isinstance<py::str>(which)) {
    const std::string name = which.cast<std::string>();
    for (int i = 0; i < n; ++i)
      if (names[i] == name) return i;
    throw InputError(request + ": no " + kind + " named '" + excerpt(name) + "'");
  }
  if (!py::isinstance<py::int_>(which) || py::isinstance<py::bool_>(which))
    throw InputError(request + ": expected a " + kind + " index or name");
  long long i = which.cast<long long>();
  if (i < 0) i += n;
  if (i < 0 || i >= n)
    throw InputError(request + ": " + kind + " " + std::to_string(which.cast<long long>()) + ": expected an index from " +
                     std::to_string(-n) + " to " + std::to_string(n - 1));
  return static_cast<int>(i);
}

class PySimulator {
 public:
  PySimulator(Scene scene, const std::optional<std::string>& solver) {
    if (solver) {
      const std::vector<std::string> names = solver_names();
      if (std::find(names.begin(), names.end(), *solver) == names.end()) {
        std::string known;
        for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
        throw InputError("solver '" + excerpt(*solver) + "': expected one of: " + known);
      }
      scene.settings.solver = *solver;
    }
    joints_ = JointTable(scene);
    tear_ = JointTear(scene);
    depth_ = ContactDepth(scene);
    model_ = std::make_shared<const Model>(compile(scene));
    simulator_ = make_simulator(model_);
    for (const ModelBody& b : model_->bodies) names_.push_back(b.name);
    for (const ModelJoint& j : model_->joints) joint_names_.push_back(j.def.name);
  }

  StepStats step() {
    if (!failure_.empty()) throw SimulationError("the simulation failed earlier: " + failure_);
    const int n = simulator_->step_count() + 1;
    const double t = n * model_->settings.dt;
    const auto start = std::chrono::steady_clock::now();
    StepStats stats;
    try {
      py::gil_scoped_release unlocked;
      stats = simulator_->step();
      // As the run loop: an inverted or flattened body ends the simulation (io/pose_check.hpp).
      const PoseCheck check = check_poses(simulator_->poses(), names_);
      if (!check.failure.empty()) throw SimulationError(check.failure);
      stats.warnings += check.strained_bodies;
      // And a joint that came apart (io/joint_tear.hpp), checked every step here: there are no frames.
      if (joints_.size() > 0)
        if (const auto tear = tear_.find(joints_, simulator_->joint_records()))
          throw SimulationError(tear_.message(joints_, *tear));
      if (const auto sunk = depth_.find(stats)) throw SimulationError(depth_.message(names_, *sunk));
    } catch (const SimulationError& e) {
      failure_ = "step " + std::to_string(n) + " (t = " + format_shortest(t) + " s): " + e.what();
      throw SimulationError(failure_);
    }
    stats.step = n;  // the loop's own count and clock, as io/run.cpp sets them
    stats.time = t;
    stats.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return stats;
  }

  py::object step_n(const std::optional<long long>& count) {
    if (!count) return py::cast(step());
    if (*count < 0) throw InputError("step: count " + std::to_string(*count) + ": expected a number ≥ 0");
    std::vector<StepStats> all;
    all.reserve(static_cast<std::size_t>(*count));
    for (long long k = 0; k < *count; ++k) all.push_back(step());
    return py::cast(all);
  }

  int body_count() const { return static_cast<int>(model_->bodies.size()); }

  /// A body by index (negative counts from the end, as Python's) or by name.
  int body(const py::handle& which, const std::string& request) const { return index_of(which, names_, "body", request); }

  /// A joint by index (negative counts from the end) or by name.
  int joint(const py::handle& which, const std::string& request) const {
    return index_of(which, joint_names_, "joint", request);
  }

  /// The back-end's drive control (model/drive_control.hpp), or InputError for one without drives.
  DriveControl& drives(const char* request) {
    if (auto* control = dynamic_cast<DriveControl*>(simulator_.get())) return *control;
    throw InputError(std::string(request) + " is not supported by the " + simulator_->name() +
                     " solver (only the compliant solver has motors and servos)");
  }

  // The value is read here, not by pybind11's `double` conversion, whose TypeError ("incompatible function
  // arguments") is not the InputError every other bad argument raises (README, Python, Errors).
  void set_motor_speed(const py::handle& which, const py::handle& speed) {
    DriveControl& control = drives("set_motor_speed");
    control.set_motor_speed(joint(which, "set_motor_speed"), as_number(speed, "set_motor_speed: speed"));
  }

  void set_servo_target(const py::handle& which, const py::handle& target) {
    DriveControl& control = drives("set_servo_target");
    control.set_servo_target(joint(which, "set_servo_target"), as_number(target, "set_servo_target: position"));
  }

  Array positions() const {
    const std::vector<BodyPose> poses = simulator_->poses();
    Array a = new_array({body_count(), 3});
    double* out = a.mutable_data();
    for (const BodyPose& x : poses) out[0] = x.p.x(), out[1] = x.p.y(), out[2] = x.p.z(), out += 3;
    return read_only(a);
  }

  Array rotations() const {
    const std::vector<BodyPose> poses = simulator_->poses();
    Array a = new_array({body_count(), 3, 3});
    double* out = a.mutable_data();
    for (const BodyPose& x : poses)
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) *out++ = x.A(r, c);
    return read_only(a);
  }

  Array velocities() const {
    const std::vector<BodyVelocity> v = simulator_->velocities();
    Array a = new_array({body_count(), 6});
    double* out = a.mutable_data();
    for (const BodyVelocity& b : v) {
      for (int k = 0; k < 3; ++k) out[k] = b.linear[k], out[3 + k] = b.angular[k];
      out += 6;
    }
    return read_only(a);
  }

  void set_state(const py::object& positions, const py::object& rotations, const py::object& velocities) {
    std::vector<BodyPose> poses = simulator_->poses();
    std::vector<BodyVelocity> v = simulator_->velocities();
    const py::ssize_t n = body_count();
    if (!positions.is_none()) {
      const Array p = as_array(positions, {n, 3}, "set_state: positions");
      for (py::ssize_t i = 0; i < n; ++i) poses[i].p = Vec3(p.at(i, 0), p.at(i, 1), p.at(i, 2));
    }
    if (!rotations.is_none()) {
      const Array r = as_array(rotations, {n, 3, 3}, "set_state: rotations");
      for (py::ssize_t i = 0; i < n; ++i)
        for (int row = 0; row < 3; ++row)
          for (int c = 0; c < 3; ++c) poses[i].A(row, c) = r.at(i, row, c);
    }
    if (!velocities.is_none()) {
      const Array w = as_array(velocities, {n, 6}, "set_state: velocities");
      for (py::ssize_t i = 0; i < n; ++i) {
        v[i].linear = Vec3(w.at(i, 0), w.at(i, 1), w.at(i, 2));
        v[i].angular = Vec3(w.at(i, 3), w.at(i, 4), w.at(i, 5));
      }
    }
    // Given a new rotation or velocity, a body moves rigidly: Ȧ = [ω]ₓA (an affine body's rate of
    // deformation is dropped); otherwise its velocity is kept exactly.
    if (!rotations.is_none() || !velocities.is_none())
      for (py::ssize_t i = 0; i < n; ++i) v[i].A_dot = skew(v[i].angular) * poses[i].A;
    simulator_->set_state(poses, v);
  }

  void apply_force(const py::handle& which, const py::handle& force, const py::object& point) {
    const int i = body(which, "apply_force");
    const Vec3 f = as_vec3(force, "apply_force: force");
    const Vec3 x = point.is_none() ? simulator_->poses()[i].p : as_vec3(point, "apply_force: point");
    simulator_->apply_force(i, f, x);
  }

  void set_kinematic_target(const py::handle& which, const py::handle& position, const py::object& rotation) {
    const int i = body(which, "set_kinematic_target");
    BodyPose target{as_vec3(position, "set_kinematic_target: position"), simulator_->poses()[i].A};
    if (!rotation.is_none()) {
      const Array r = Array::ensure(rotation);
      if (r && r.ndim() == 1 && r.shape(0) == 4) {  // a quaternion [w, x, y, z], as in scene files
        Quat q(r.at(0), r.at(1), r.at(2), r.at(3));
        if (!(q.norm() > 0.0) || !std::isfinite(q.norm()))
          throw InputError("set_kinematic_target: rotation: expected a non-zero, finite quaternion [w, x, y, z]");
        target.A = q.normalized().toRotationMatrix();
      } else {
        target.A = as_mat3(rotation, "set_kinematic_target: rotation (a 3×3 matrix or a quaternion [w, x, y, z])");
      }
    }
    simulator_->set_kinematic_target(i, target);
  }

  const Simulator& simulator() const { return *simulator_; }
  const Model& model() const { return *model_; }
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<std::string>& joint_names() const { return joint_names_; }

 private:
  std::shared_ptr<const Model> model_;
  std::unique_ptr<Simulator> simulator_;
  std::vector<std::string> names_;
  std::vector<std::string> joint_names_;
  JointTable joints_;  // the gap rules of the scene's joints, for the tear check
  JointTear tear_;
  ContactDepth depth_;
  std::string failure_;  // the SimulationError that ended it, with its step
};

}  // namespace

void bind_simulator(py::module_& m) {
  py::class_<PySimulator>(m, "Simulator",
                          "A scene compiled for one solver back-end and stepped from Python (README, Python).")
      .def(py::init<Scene, const std::optional<std::string>&>(), py::arg("scene"), py::arg("solver") = py::none(),
           "Compiles the scene and builds the solver (default: the scene's settings.solver). Raises "
           "affix.InputError for a scene the solver cannot run, naming the JSON path.")
      .def("step", &PySimulator::step_n, py::arg("n") = py::none(),
           "Advances one step and returns its StepStats, or n steps and returns their list. Raises "
           "affix.SimulationError (with the step and its time) when the simulation fails.")
      .def_property_readonly("time", [](const PySimulator& s) { return s.simulator().time(); }, "simulated time (s)")
      .def_property_readonly("step_count", [](const PySimulator& s) { return s.simulator().step_count(); })
      .def_property_readonly("dt", [](const PySimulator& s) { return s.model().settings.dt; }, "time step (s)")
      .def_property_readonly("solver", [](const PySimulator& s) { return std::string(s.simulator().name()); })
      .def_property_readonly("body_names", &PySimulator::names)
      .def_property_readonly("positions", &PySimulator::positions,
                             "(n, 3) body origins p (m), world; a read-only copy")
      .def_property_readonly("rotations", &PySimulator::rotations,
                             "(n, 3, 3) body maps A (a rest point x̄ is at A x̄ + p): rotations up to the bodies' "
                             "strain; a read-only copy")
      .def_property_readonly("velocities", &PySimulator::velocities,
                             "(n, 6) [ṗ (m/s), ω (rad/s)] per body, world; a read-only copy")
      .def("set_state", &PySimulator::set_state, py::arg("positions") = py::none(),
           py::arg("rotations") = py::none(), py::arg("velocities") = py::none(),
           "Replaces the bodies' state: positions (n, 3), rotations (n, 3, 3), velocities (n, 6) [ṗ, ω]; one "
           "left out keeps its current value. Fixed and kinematic bodies must keep their pose. Raises "
           "affix.InputError for a bad shape or a state that intersects.")
      .def("apply_force", &PySimulator::apply_force, py::arg("body"), py::arg("force"), py::arg("point") = py::none(),
           "A world force (N) on a body (index or name) at a world point (m; default its origin), during the next "
           "step only.")
      .def("set_kinematic_target", &PySimulator::set_kinematic_target, py::arg("body"), py::arg("position"),
           py::arg("rotation") = py::none(),
           "The pose a kinematic body reaches at the end of the next step and holds: position (3,), rotation a "
           "3×3 matrix or a quaternion [w, x, y, z] (default: its current one). Replaces its scene motion.")
      .def("set_motor_speed", &PySimulator::set_motor_speed, py::arg("joint"), py::arg("speed"),
           "A motor's target rate ṡ* (rad/s for a hinge, m/s for a slide) on a joint (index or name) that has a "
           "`motor`, from the next step on (the scene's motor.velocity). Compliant solver.")
      .def("set_servo_target", &PySimulator::set_servo_target, py::arg("joint"), py::arg("position"),
           "A servo's set point s* (rad or m from the initial configuration) on a joint (index or name) that has a "
           "`servo`, from the next step on (the scene's servo.position). Compliant solver.")
      .def_property_readonly("joint_names", &PySimulator::joint_names)
      .def_property_readonly("joints", [](const PySimulator& s) { return s.simulator().joint_records(); },
                             "list of JointRecord, one per joint")
      .def_property_readonly("contacts", [](const PySimulator& s) { return s.simulator().contact_records(); },
                             "list of ContactRecord: the contacts the solver acts on now")
      .def("__repr__", [](const PySimulator& s) {
        return "<affix.Simulator " + std::string(s.simulator().name()) + ", " + std::to_string(s.body_count()) +
               " bodies, t = " + format_shortest(s.simulator().time()) + " s>";
      });
}

}  // namespace affix::python
