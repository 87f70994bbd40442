#include "affix/viewer/view_page.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

#include "affix/error.hpp"
#include "affix/io/scene_meshes.hpp"
#include "affix/io/trajectory_format.hpp"
#include "affix/scene/replace_file.hpp"
#include "affix/viewer/assets.hpp"
#include "affix/viewer/base64.hpp"
#include "affix/viewer/joint_layer_h5.hpp"
#include "affix/viewer/records_reader.hpp"
#include "affix/viewer/stats_reader.hpp"
#include "affix/viewer/summary_reader.hpp"
#include "affix/viewer/trajectory_reader.hpp"

namespace affix::viewer {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// `value` to 7 significant digits, what float32 keeps: short JSON for bounds and the ground.
double short_number(double value) {
  if (!std::isfinite(value)) return value;
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", value);
  return std::strtod(text, nullptr);
}

json meshes_json(const SceneMeshes& scene, const MeshGroups& grouping) {
  json groups = json::array();
  for (const MeshGroup& g : grouping.groups) {
    json entry = {{"bodies", g.bodies}, {"first_body", g.first_body}};
    json bounds = json::array();
    for (double v : g.bounds) bounds.push_back(short_number(v));
    entry["bounds"] = bounds;
    if (g.embedded) {
      const TriangleMesh& mesh = scene.meshes[g.first_body];
      std::vector<float> vertices;
      vertices.reserve(mesh.vertices.size() * 3);
      for (const Vec3& v : mesh.vertices)
        for (int i = 0; i < 3; ++i) vertices.push_back(static_cast<float>(v[i]));
      std::vector<std::uint32_t> triangles;
      triangles.reserve(mesh.faces.size() * 3);
      for (const auto& f : mesh.faces)
        for (int i : f) triangles.push_back(static_cast<std::uint32_t>(i));
      entry["vertices"] = base64_encode(vertices);
      entry["triangles"] = base64_encode(triangles);
    } else {
      entry["vertices"] = nullptr;
      entry["triangles"] = nullptr;
    }
    groups.push_back(std::move(entry));
  }
  return groups;
}

json stats_json(const StatsSeries& stats) {
  json columns = json::object();
  for (std::size_t c = 0; c < stats.names.size(); ++c) columns[stats.names[c]] = base64_encode(stats.columns[c]);
  const std::size_t points = stats.columns.empty() ? 0 : stats.columns.front().size();
  return {{"points", points}, {"source_rows", stats.source_rows}, {"stride", stats.stride},
          {"element", "float64"}, {"columns", columns}};
}

json vector_json(const Vec3& v) { return {short_number(v.x()), short_number(v.y()), short_number(v.z())}; }

json joints_json(const JointLayer& layer) {
  json joints = json::array();
  for (const JointAnchors& j : layer.joints) {
    joints.push_back({{"name", j.name}, {"body1", j.body1}, {"body2", j.body2}, {"anchor1", vector_json(j.anchor1)},
                      {"anchor2", vector_json(j.anchor2)}});
  }
  return joints;
}

json contacts_json(const std::optional<ContactLayer>& layer) {
  if (!layer) return nullptr;
  return {{"frames", layer->frames},         {"offsets", layer->offsets},
          {"points", base64_encode(layer->points)}, {"normals", base64_encode(layer->normals)},
          {"forces", base64_encode(layer->forces)}, {"element", "float32"},
          {"rows", layer->rows},             {"per_frame_cap", layer->per_frame_cap},
          {"capped", layer->capped}};
}

/// JSON text that is safe inside <script>: '<' occurs only inside strings, where \u003c means the same.
std::string script_safe(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') out += "\\u003c";
    else out += c;
  }
  return out;
}

std::string assemble(const std::string& data_json, const std::string& poses_base64) {
  const std::string_view page = page_template();
  const std::size_t data_at = page.find(kDataMarker);
  const std::size_t bundle_at = page.find(kBundleMarker);
  if (data_at == std::string_view::npos || bundle_at == std::string_view::npos || bundle_at < data_at)
    throw std::logic_error("viewer page template lacks its data and bundle markers");
  const std::string_view bundle = script_bundle();
  std::string html;
  html.reserve(page.size() + data_json.size() + poses_base64.size() + bundle.size() + 256);
  html += page.substr(0, data_at);
  html += "<script type=\"application/json\" id=\"";
  html += kDataElementId;
  html += "\">";
  html += data_json;
  html += "</script>\n<script type=\"text/plain\" id=\"";
  html += kPosesElementId;
  html += "\">";
  html += poses_base64;
  html += "</script>";
  const std::size_t data_end = data_at + kDataMarker.size();
  html += page.substr(data_end, bundle_at - data_end);
  html += "<script>";
  html += bundle;
  html += "</script>";
  html += page.substr(bundle_at + kBundleMarker.size());
  return html;
}

}  // namespace

ViewPage build_view_page(const fs::path& out_dir, const ViewOptions& options) {
  std::error_code error;
  if (!fs::is_directory(out_dir, error))
    throw InputError(out_dir.string() + ": not a directory (expected a run's output directory, `affix run --out`)");
  // meshes.json first: the other files are read against its bodies.
  const SceneMeshes scene = read_scene_meshes(out_dir / "meshes.json");
  const fs::path trajectory = trajectory_file(out_dir);  // trajectory.csv, or trajectory.h5 alone
  const PoseFrames frames = read_trajectory(trajectory, scene.names, options.pose_budget_bytes);
  const StatsSeries stats = read_stats(out_dir / "stats.csv", options.max_stats_points);
  const json summary = read_summary(out_dir / "summary.json");
  const MeshGroups grouping = group_meshes(scene.meshes, options.mesh_limits);
  // The layers' files exist only for runs that record them (a jointed run, `affix run --contacts`).
  std::error_code missing;
  JointLayer joints;
  if (fs::exists(out_dir / "joints.csv", missing))
    joints = read_joint_layer(out_dir / "joints.csv", scene.names, frames, options.max_joints);
  else if (is_hdf5_trajectory(trajectory))  // its joint records, when the run had joints
    joints = read_joint_layer_h5(trajectory, scene.names, frames, options.max_joints);
  std::optional<ContactLayer> contacts;
  if (fs::exists(out_dir / "contacts.csv", missing))
    contacts = read_contact_layer(out_dir / "contacts.csv", scene.names, frames, options.max_contact_points);

  ViewPage page;
  page.trajectory = trajectory.filename();
  page.bodies = static_cast<int>(scene.names.size());
  page.source_frames = frames.selection.source_frames;
  page.frames = static_cast<int>(frames.selection.frames.size());
  page.stride = frames.selection.stride;
  page.pose_bytes = frames.poses.size() * sizeof(float);
  for (const MeshGroup& g : grouping.groups) {
    if (g.embedded) ++page.mesh_groups;
    else page.box_bodies += g.bodies;
  }
  page.joints = static_cast<int>(joints.joints.size());
  page.contacts_recorded = contacts.has_value();
  page.contact_points = contacts ? contacts->forces.size() : 0;

  const std::string scene_name =
      summary.contains("scene") && summary["scene"].is_string() ? summary["scene"].get<std::string>()
                                                                 : out_dir.filename().string();
  json data = {
      {"format", 1},
      {"scene", scene_name},
      {"summary", summary},
      {"ground", scene.ground_height ? json{{"height", short_number(*scene.ground_height)}} : json(nullptr)},
      {"bodies", {{"count", page.bodies}, {"names", scene.names}, {"group", grouping.body_group}}},
      {"meshes", meshes_json(scene, grouping)},
      {"frames",
       {{"count", page.frames},
        {"source_count", page.source_frames},
        {"stride", page.stride},
        {"index", frames.selection.frames},
        {"times", frames.times},
        {"budget_bytes", options.pose_budget_bytes}}},
      {"poses", {{"element", "float32"}, {"per_body", 12}, {"script_id", kPosesElementId}}},
      {"stats", stats_json(stats)},
      {"joints", joints_json(joints)},
      {"joint_count", joints.total},
      {"contacts", contacts_json(contacts)}};
  // Strings from the files are valid UTF-8 (the JSON parser checks), but the directory's name, the
  // scene's fallback name, need not be: replace what is not, rather than fail.
  page.html = assemble(script_safe(data.dump(-1, ' ', false, json::error_handler_t::replace)),
                       base64_encode(frames.poses));
  return page;
}

void write_view_page(const fs::path& file, const ViewPage& page) {
  // Whole or not at all: a failed write leaves no half page and an earlier page as it was.
  if (auto reason = replace_file(file, page.html))
    throw InputError(file.string() + ": cannot write the page (" + *reason + ")");
}

}  // namespace affix::viewer
