#include "affix/import/import_model.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <set>

#include "affix/import/map_bodies.hpp"
#include "affix/import/map_joints.hpp"
#include "affix/import/mujoco_model.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"

namespace affix {
namespace {

void map_settings(const mjModel& m, Settings& settings) {
  settings.dt = m.opt.timestep;
  settings.gravity = mj_vec(m.opt.gravity);
}

void count_unmapped_elements(const mjModel& m, Unmapped& unmapped) {
  unmapped.add("actuators", m.nu);
  unmapped.add("tendons", m.ntendon);
  unmapped.add("sensors", m.nsensor);
  unmapped.add("sites", m.nsite);
  unmapped.add("cameras", m.ncam);
  unmapped.add("lights", m.nlight);
  unmapped.add("keyframes", m.nkey);
  unmapped.add("explicit contact pairs", m.npair);
  unmapped.add("skins", m.nskin);
  if (m.opt.viscosity != 0.0 || m.opt.density != 0.0) unmapped.add("medium (density, viscosity) settings");
}

/// Joint names come from the file, virtual links and welds, and equalities; each must be unique.
void make_joint_names_unique(Scene& scene) {
  std::set<std::string> used;
  for (JointDef& def : scene.joints) {
    const std::string wanted = def.name;
    for (int k = 2; !used.insert(def.name).second; ++k) def.name = wanted + "_" + std::to_string(k);
  }
}

}  // namespace

ImportedModel import_model_report(const std::filesystem::path& file) {
  const MujocoModel mj(file);
  ImportedModel out;
  out.compiler_warnings = mj.compiler_warnings();
  Scene scene;
  scene.name = file.stem().string();
  scene.file = file;
  ImportContext ctx{mj, scene, out.unmapped, {}, {}};
  map_settings(mj.model(), scene.settings);
  map_bodies(ctx);
  map_joints(ctx);
  map_equalities(ctx);
  map_contact_filter(ctx);
  count_unmapped_elements(mj.model(), out.unmapped);
  make_joint_names_unique(scene);
  // The checks a scene file gets, on the scene this import would write: field ranges, names, the
  // joints' bodies, the inertias' triangle inequality. Messages name the model file and the path in
  // the scene `affix import` writes.
  out.scene = parse_scene(scene_to_json(scene, file.parent_path()), file);
  return out;
}

std::string unmapped_warning(const std::filesystem::path& file, const ImportedModel& imported) {
  if (imported.unmapped.empty()) return {};
  return "affix: warning: " + file.string() + ": not imported (no affix equivalent): " + imported.unmapped.text();
}

void print_import_warnings(std::ostream& out, const std::filesystem::path& file, const ImportedModel& imported) {
  for (std::string warning : imported.compiler_warnings) {
    std::replace(warning.begin(), warning.end(), '\n', ' ');
    out << "affix: warning: " << file.string() << ": MuJoCo: " << warning << '\n';
  }
  if (const std::string line = unmapped_warning(file, imported); !line.empty()) out << line << '\n';
}

Scene import_model(const std::filesystem::path& file) {
  ImportedModel imported = import_model_report(file);
  print_import_warnings(std::cerr, file, imported);
  return std::move(imported.scene);
}

bool is_importable_model(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".xml" || ext == ".mjcf" || ext == ".urdf";
}

}  // namespace affix
