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

}  // namespace affix
