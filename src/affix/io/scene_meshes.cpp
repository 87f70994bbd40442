#include "affix/io/scene_meshes.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "affix/error.hpp"

namespace affix {

void write_scene_meshes(const std::filesystem::path& file, const Scene& scene,
                        const std::vector<AffineBody>& bodies) {
  nlohmann::json root;
  root["version"] = 1;
  root["ground"] = scene.ground ? nlohmann::json{{"height", scene.ground->height}} : nlohmann::json(nullptr);
  root["bodies"] = nlohmann::json::array();
  for (const AffineBody& body : bodies) {
    std::vector<double> vertices;
    std::vector<int> triangles;
    for (const Vec3& v : body.mesh.vertices) vertices.insert(vertices.end(), {v.x(), v.y(), v.z()});
    for (const auto& f : body.mesh.faces) triangles.insert(triangles.end(), f.begin(), f.end());
    root["bodies"].push_back({{"name", body.name}, {"vertices", vertices}, {"triangles", triangles}});
  }
  std::ofstream out(file);
  out << root.dump() << '\n';
  if (!out) throw InputError(file.string() + ": cannot write the file");
}

SceneMeshes read_scene_meshes(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(file.string() + ": cannot read file (run `affix run` to make it)");
  SceneMeshes out;
  try {
    const nlohmann::json root = nlohmann::json::parse(in);
    if (!root.at("ground").is_null()) out.ground_height = root.at("ground").at("height").get<double>();
    for (const auto& body : root.at("bodies")) {
      out.names.push_back(body.at("name").get<std::string>());
      const auto v = body.at("vertices").get<std::vector<double>>();
      const auto t = body.at("triangles").get<std::vector<int>>();
      TriangleMesh mesh;
      for (std::size_t i = 0; i + 2 < v.size(); i += 3) mesh.vertices.emplace_back(v[i], v[i + 1], v[i + 2]);
      for (std::size_t i = 0; i + 2 < t.size(); i += 3) mesh.faces.push_back({t[i], t[i + 1], t[i + 2]});
      out.meshes.push_back(std::move(mesh));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file.string() + ": expected an affix meshes.json: " + e.what());
  }
  return out;
}

}  // namespace affix
