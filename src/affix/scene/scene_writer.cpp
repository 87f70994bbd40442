#include "affix/scene/scene_writer.hpp"

#include <cmath>
#include <numbers>

#include "affix/error.hpp"
#include "affix/scene/replace_file.hpp"

namespace affix {

namespace {

using nlohmann::json;

constexpr double kRadToDeg = 180.0 / std::numbers::pi;

json vec(const Vec3& v) { return json::array({v.x(), v.y(), v.z()}); }
json quat(const Quat& q) { return json::array({q.w(), q.x(), q.y(), q.z()}); }
json degrees(const AngleRange& r) { return json::array({r.min * kRadToDeg, r.max * kRadToDeg}); }

/// `file` relative to `dir` when one can be expressed relative to the other, else as it is.
std::filesystem::path relative_path(const std::filesystem::path& file, const std::filesystem::path& dir) {
  const auto normal = [](const std::filesystem::path& p) {
    std::filesystem::path n = std::filesystem::absolute(p.empty() ? "." : p).lexically_normal();
    return n.has_filename() ? n : n.parent_path();  // drop a trailing separator
  };
  const std::filesystem::path rel = normal(file).lexically_relative(normal(dir));
  return rel.empty() ? file : rel;
}

json shape_json(const Shape& shape, const std::filesystem::path& base_dir);

json inertial_json(const Inertial& inertial) {
  const Mat3& I = inertial.inertia;
  return {{"mass", inertial.mass},
          {"center_of_mass", vec(inertial.center_of_mass)},
          {"inertia", json::array({I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)})}};
}

json shape_json(const Shape& shape, const std::filesystem::path& base_dir) {
  struct Visitor {
    const std::filesystem::path& base_dir;
    json operator()(const BoxShape& s) const { return {{"box", vec(s.size)}, {"resolution", s.resolution}}; }
    json operator()(const SphereShape& s) const {
      return {{"sphere", s.radius}, {"resolution", s.resolution}};
    }
    json operator()(const CapsuleShape& s) const {
      return {{"capsule", {{"radius", s.radius}, {"length", s.length}}}, {"resolution", s.resolution}};
    }
    json operator()(const CylinderShape& s) const {
      return {{"cylinder", {{"radius", s.radius}, {"length", s.length}}}, {"resolution", s.resolution}};
    }
    json operator()(const TorusShape& s) const {
      return {{"torus", {{"major", s.major}, {"minor", s.minor}}}, {"resolution", s.resolution}};
    }
    json operator()(const MeshShape& s) const {
      if (s.file.empty()) {
        json vertices = json::array(), triangles = json::array();
        for (const Vec3& v : s.vertices) vertices.push_back(vec(v));
        for (const auto& t : s.triangles) triangles.push_back({t[0], t[1], t[2]});
        return {{"mesh", {{"vertices", vertices}, {"triangles", triangles}, {"scale", vec(s.scale)}}}};
      }
      return {
          {"mesh", {{"file", relative_path(s.file, base_dir).generic_string()}, {"scale", vec(s.scale)}}}};
    }
    json operator()(const CompoundShape& s) const {
      json parts = json::array();
      for (const ShapePart& part : s.parts) {
        parts.push_back({{"shape", shape_json(part.shape, base_dir)},
                         {"position", vec(part.position)},
                         {"rotation", quat(part.rotation)},
                         {"scale", vec(part.scale)}});
      }
      return {{"compound", parts}};
    }
  };
  return std::visit(Visitor{base_dir}, shape);
}

json kinematic_json(const Kinematic& k) {
  if (k.keyframes.empty()) {
    return {{"velocity", vec(k.velocity)}, {"angular_velocity", vec(k.angular_velocity)}};
  }
  json keys = json::array();
  for (const Keyframe& key : k.keyframes) {
    keys.push_back({{"time", key.time}, {"position", vec(key.position)}, {"rotation", quat(key.rotation)}});
  }
  return {{"keyframes", keys}};
}

json body_json(const BodyDef& b, const std::filesystem::path& base_dir) {
  json j{{"name", b.name},
         {"shape", shape_json(b.shape, base_dir)},
         {"position", vec(b.position)},
         {"rotation", quat(b.rotation)},
         {"velocity", vec(b.velocity)},
         {"angular_velocity", vec(b.angular_velocity)},
         {"friction", b.friction},
         {"damping", b.damping},
         {"stiffness", b.stiffness},
         {"fixed", b.fixed},
         {"collision", {{"group", b.collision.group}, {"mask", b.collision.mask}}}};
  if (b.inertial) {
    j["inertial"] = inertial_json(*b.inertial);
  } else if (b.mass) {
    j["mass"] = *b.mass;
  } else {
    j["density"] = b.density;
  }
  if (b.kinematic) j["kinematic"] = kinematic_json(*b.kinematic);
  return j;
}

/// The fields of the joint's row in the DESIGN §3 table.
void add_type_fields(const JointDef& d, json& j) {
  switch (d.type) {
    case JointType::ball:
    case JointType::fixed: j["anchor"] = vec(d.anchor); break;
    case JointType::hinge:
      j["anchor"] = vec(d.anchor);
      j["axis"] = vec(d.axis);
      if (d.angle_limits) j["limits_deg"] = degrees(*d.angle_limits);
      break;
    case JointType::prismatic:
      j["anchor"] = vec(d.anchor);
      j["axis"] = vec(d.axis);
      if (d.limits) j["limits"] = *d.limits;
      break;
    case JointType::universal:
      j["anchor"] = vec(d.anchor);
      j["axes"] = json::array({vec(d.axes[0]), vec(d.axes[1])});
      break;
    case JointType::cone_twist: {
      j["anchor"] = vec(d.anchor);
      j["frame"] = json::array({vec(d.frame.col(0)), vec(d.frame.col(1)), vec(d.frame.col(2))});
      json limits = json::object();
      if (d.twist_limits) limits["twist"] = degrees(*d.twist_limits);
      if (d.swing1_limits) limits["swing1"] = degrees(*d.swing1_limits);
      if (d.swing2_limits) limits["swing2"] = degrees(*d.swing2_limits);
      if (!limits.empty()) j["limits_deg"] = limits;
      break;
    }
    case JointType::distance:
      j["anchor1"] = vec(d.anchor1);
      j["anchor2"] = vec(d.anchor2);
      if (d.length) j["length"] = *d.length;
      if (d.min_length) j["min"] = *d.min_length;
      if (d.max_length) j["max"] = *d.max_length;
      break;
    case JointType::slider:
      j["point"] = vec(d.point);
      if (d.normal) j["normal"] = vec(*d.normal);
      if (d.direction) j["direction"] = vec(*d.direction);
      if (d.limits) j["limits"] = *d.limits;
      break;
    case JointType::cable:
      j["anchor"] = vec(d.anchor);
      j["axis"] = vec(d.axis);
      for (const auto& [key, dof] : {std::pair{"axial", d.axial}, std::pair{"shear", d.shear},
                                     std::pair{"bending", d.bending}, std::pair{"torsion", d.torsion}})
        j[key] = json{{"stiffness", dof.stiffness}, {"damping", dof.damping}};
      break;
  }
}

json joint_json(const JointDef& d) {
  json j{{"name", d.name},
         {"type", to_string(d.type)},
         {"body1", d.body1},
         {"body2", d.body2},
         {"collide_connected", d.collide_connected}};
  add_type_fields(d, j);
  if (d.stiffness) j["stiffness"] = *d.stiffness;
  if (d.damping) j["damping"] = *d.damping;
  if (d.motor) {
    j["motor"] = json{{"velocity", d.motor->velocity}};
    if (std::isfinite(d.motor->max_force)) j["motor"]["max_force"] = d.motor->max_force;  // absent: unbounded
  }
  if (d.servo) {
    j["servo"] = json{{"position", d.servo->position}, {"stiffness", d.servo->stiffness}, {"damping", d.servo->damping}};
    if (std::isfinite(d.servo->max_force)) j["servo"]["max_force"] = d.servo->max_force;
  }
  return j;
}

json force_json(const ForceDef& f) {
  json j{{"body", f.body}, {"force", vec(f.force)}, {"torque", vec(f.torque)}, {"start", f.start}};
  if (f.point) j["point"] = vec(*f.point);
  if (std::isfinite(f.end)) j["end"] = f.end;  // absent: forever
  return j;
}

json settings_json(const Settings& s) {
  json j{{"dt", s.dt},
         {"duration", s.duration},
         {"gravity", vec(s.gravity)},
         {"solver", s.solver},
         {"integrator", to_string(s.integrator)}};
  if (s.output_fps) j["output_fps"] = *s.output_fps;
  // A solver's block as the file had it: its fields and defaults are the solver's, which this layer
  // does not know (Settings::solver_settings).
  for (const auto& [solver, block] : s.solver_settings) j[solver] = block;
  return j;
}

}  // namespace

namespace {

/// Appends `value` as dump(2) writes it nested `indent` spaces deep: its own dump with every line
/// after the first moved right (a string's line breaks are escaped, so every '\n' is a line break).
void append_nested(std::string& out, const json& value, int indent) {
  const std::string text = value.dump(2);
  std::string line_break(static_cast<std::size_t>(indent) + 1, ' ');
  line_break[0] = '\n';
  std::size_t from = 0;
  for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', from)) {
    out.append(text, from, at - from);
    out += line_break;
    from = at + 1;
  }
  out.append(text, from, std::string::npos);
}

/// An array of the top-level object, one element built and written at a time, as dump(2) would.
template <typename Item, typename ToJson>
void append_array(std::string& out, const std::vector<Item>& items, const ToJson& to_json) {
  if (items.empty()) {
    out += "[]";
    return;
  }
  out += "[\n";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += i == 0 ? "    " : ",\n    ";
    append_nested(out, to_json(items[i]), 4);
  }
  out += "\n  ]";
}

}  // namespace

nlohmann::json scene_to_json(const Scene& scene, const std::filesystem::path& base_dir) {
  json root{{"version", 1}, {"settings", settings_json(scene.settings)}};
  if (scene.ground) root["ground"] = {{"height", scene.ground->height}, {"friction", scene.ground->friction},
                                    {"damping", scene.ground->damping}};
  root["bodies"] = json::array();
  for (const BodyDef& b : scene.bodies) root["bodies"].push_back(body_json(b, base_dir));
  root["joints"] = json::array();
  for (const JointDef& d : scene.joints) root["joints"].push_back(joint_json(d));
  root["forces"] = json::array();
  for (const ForceDef& f : scene.forces) root["forces"].push_back(force_json(f));
  // Absent when empty, so that a scene without exclusions is written as before they existed.
  for (const ExclusionDef& e : scene.exclusions) root["exclusions"].push_back({{"body1", e.body1}, {"body2", e.body2}});
  return root;
}

nlohmann::json scene_to_json(const Scene& scene) { return scene_to_json(scene, scene.file.parent_path()); }

std::string scene_text(const Scene& scene, const std::filesystem::path& base_dir) {
  // scene_to_json(...).dump(2) + "\n", byte for byte, without the whole document: a 10⁶-link chain as
  // one nlohmann document is ~16 GB. The top level is small; bodies and joints are made one at a time.
  Scene shell;
  shell.settings = scene.settings;
  shell.ground = scene.ground;
  shell.forces = scene.forces;
  shell.exclusions = scene.exclusions;
  const json top = scene_to_json(shell, base_dir);  // the top-level keys in dump()'s (sorted) order
  std::string out = "{\n";
  bool first = true;
  for (auto it = top.begin(); it != top.end(); ++it) {
    out += first ? "  " : ",\n  ";
    first = false;
    out += json(it.key()).dump();
    out += ": ";
    if (it.key() == "bodies") {
      append_array(out, scene.bodies, [&](const BodyDef& b) { return body_json(b, base_dir); });
    } else if (it.key() == "joints") {
      append_array(out, scene.joints, [](const JointDef& d) { return joint_json(d); });
    } else {
      append_nested(out, it.value(), 2);
    }
  }
  out += "\n}\n";
  return out;
}

void save_scene(const Scene& scene, const std::filesystem::path& file) {
  // Whole or not at all: a failed write leaves an earlier file as it was (replace_file.hpp).
  if (auto reason = replace_file(file, scene_text(scene, file.parent_path())))
    throw InputError(file.string() + ": cannot write file (" + *reason + ")");
}

}  // namespace affix
