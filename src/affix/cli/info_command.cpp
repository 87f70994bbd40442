// `affix info`: what a scene file amounts to once every default is filled in and every body is built.
#include <cstdio>
#include <iostream>
#include <string>
#include <variant>

#include "affix/model/model.hpp"
#include "affix/cli/commands.hpp"
#include "affix/cli/exit_codes.hpp"
#include "affix/geometry/mass_properties.hpp"
#include "affix/io/number_format.hpp"
#include "affix/import/load_scene_file.hpp"
#include "affix/scene/time_steps.hpp"
#include "affix/solvers/compliant/compliant_settings.hpp"
#include "affix/solvers/impulse/impulse_settings.hpp"
#include "affix/solvers/ipc/ipc_settings.hpp"
#include "affix/solvers/mabd/mabd_settings.hpp"
#include "affix/solvers/linear/blas_info.hpp"

namespace affix::cli {

namespace {

std::string num(double value) { return format_shortest(value); }

std::string vec(const Vec3& v) { return num(v.x()) + " " + num(v.y()) + " " + num(v.z()); }

/// Six significant digits: derived quantities (volumes, moments) for reading, not for reuse.
std::string approx(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string approx(const Vec3& v) { return approx(v.x()) + " " + approx(v.y()) + " " + approx(v.z()); }

// The scene file's key for each alternative of Shape, in variant order.
constexpr const char* kShapeKinds[] = {"box", "sphere", "capsule", "cylinder", "torus", "mesh", "compound"};
static_assert(std::size(kShapeKinds) == std::variant_size_v<Shape>);

/// Principal moments of inertia about the centre of mass, ascending (the model computes the inertia
/// about the mesh's own centre, which stays accurate for a mesh far from its origin).
Vec3 body_principal_moments(const ModelBody& body) { return principal_moments(body.inertia); }

/// Every solver's settings block, read (and so validated) with its defaults filled in: what a scene
/// runs with on any solver it is switched to (hostile pass D14: settings.mabd was never shown).
struct AllSolverSettings {
  IpcSettings ipc;
  MabdSettings mabd;
  CompliantSettings compliant;
  ImpulseSettings impulse;

  explicit AllSolverSettings(const Scene& scene)
      : ipc(read_ipc_settings(scene.settings, scene.file)),
        mabd(read_mabd_settings(scene.settings, scene.file)),
        compliant(read_compliant_settings(scene.settings, scene.file)),
        impulse(read_impulse_settings(scene.settings, scene.file)) {}
};

const char* yes_no(bool value) { return value ? "true" : "false"; }

void print_solver_settings(std::ostream& out, const AllSolverSettings& all) {
  const IpcSettings& ipc = all.ipc;
  out << "ipc            dhat " << num(ipc.dhat) << " m, epsv " << num(ipc.epsv) << " m/s, kappa "
      << (ipc.kappa ? num(*ipc.kappa) : "auto") << ", tolerance " << num(ipc.tolerance)
      << ", max_iterations " << ipc.max_iterations << ", friction_iterations " << ipc.friction_iterations
      << ", linear_solver " << joint_solver_name(ipc.linear_solver) << '\n';
  const MabdSettings& m = all.mabd;
  out << "mabd           youngs_modulus "
      << (m.youngs_modulus ? num(*m.youngs_modulus) + " Pa" : "8 x each body's stiffness") << ", poisson_ratio "
      << num(m.poisson_ratio) << ", iterations " << m.iterations << ", tolerance " << num(m.tolerance)
      << " 1/s, rotation " << to_string(m.rotation) << ", dual_solver " << dual_solver_name(m.dual_solver)
      << ", gauss_seidel_tolerance " << num(m.gauss_seidel_tolerance) << ", gauss_seidel_iterations "
      << m.gauss_seidel_iterations << ", contact_stiffness "
      << (m.contact_stiffness ? num(*m.contact_stiffness) + " N/m" : "100 m/h^2") << ", contact_thickness "
      << num(m.contact_thickness) << " m, body_contact " << yes_no(m.body_contact) << '\n';
  const CompliantSettings& c = all.compliant;
  out << "compliant      stabilization " << to_string(c.stabilization) << ", inverse " << to_string(c.inverse)
      << ", alpha " << num(c.alpha) << ", translational_damping " << yes_no(c.translational_damping)
      << ", anchored_damping " << yes_no(c.anchored_damping) << ", compliance " << num(c.compliance)
      << ", dense_rows " << c.dense_rows << ", projection_iterations " << c.projection_iterations
      << ", pgs_iterations " << c.pgs_iterations << ", pgs_tolerance " << num(c.pgs_tolerance) << ", restitution "
      << num(c.restitution) << ", slack_cables " << yes_no(c.slack_cables) << ", curvature " << yes_no(c.curvature)
      << '\n';
  const ImpulseSettings& i = all.impulse;
  out << "impulse        position_tolerance " << num(i.position_tolerance) << " m, max_iterations "
      << i.max_iterations << ", tikhonov " << num(i.tikhonov) << ", integration " << to_string(i.integration)
      << ", restitution " << num(i.restitution) << ", split_parts " << i.split_parts << '\n';
}

void print_settings(std::ostream& out, const Scene& scene, const AllSolverSettings& solvers) {
  const Settings& s = scene.settings;
  out << "scene          " << scene.name << " (" << scene.file.string() << ")\n";
  out << "solver         " << s.solver << '\n';
  out << "integrator     " << to_string(s.integrator) << '\n';
  out << "dt             " << num(s.dt) << " s\n";
  out << "duration       " << num(s.duration) << " s (" << step_count(s.duration, s.dt) << " steps)\n";
  out << "output_fps     " << (s.output_fps ? num(*s.output_fps) : "every step") << '\n';
  out << "gravity        " << vec(s.gravity) << " m/s^2\n";
  print_solver_settings(out, solvers);
  if (scene.ground) {
    out << "ground         z >= " << num(scene.ground->height) << ", friction " << num(scene.ground->friction)
        << '\n';
  } else {
    out << "ground         none\n";
  }
  out << "bodies         " << scene.bodies.size() << '\n';
  out << "joints         " << scene.joints.size() << '\n';
  for (const JointDef& joint : scene.joints) {
    out << "  " << joint.name << ": " << to_string(joint.type) << ", " << joint.body1 << " - " << joint.body2
        << '\n';
  }
  out << "forces         " << scene.forces.size() << '\n';
  out << "blas           " << blas_description() << '\n';
}

void print_body(std::ostream& out, const BodyDef& def, const ModelBody& body) {
  out << "\nbody " << def.name << '\n';
  out << "  shape              " << kShapeKinds[def.shape.index()];
  if (def.fixed) out << " (fixed)";
  if (def.kinematic) out << " (kinematic)";
  out << '\n';
  out << "  mesh               " << body.mesh->vertices.size() << " vertices, " << body.mesh->faces.size()
      << " triangles\n";
  out << "  volume             " << approx(body.volume) << " m^3\n";
  out << "  mass               " << approx(body.mass) << " kg\n";
  out << "  centre of mass     " << approx(body.center_of_mass) << " m (rest frame)\n";
  out << "  principal moments  " << approx(body_principal_moments(body)) << " kg m^2 (about the centre of mass)\n";
}

}  // namespace

int info_command(const std::filesystem::path& scene_file) {
  const Scene scene = load_scene_file(scene_file);
  const AllSolverSettings solvers(scene);  // validated before any output
  const std::vector<ModelBody> bodies = compile_bodies(scene);
  print_settings(std::cout, scene, solvers);
  for (std::size_t b = 0; b < bodies.size(); ++b) print_body(std::cout, scene.bodies[b], bodies[b]);
  return kExitOk;
}

}  // namespace affix::cli
