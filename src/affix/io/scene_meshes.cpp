#include "affix/io/scene_meshes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <utility>

#include "affix/error.hpp"
#include "affix/io/number_format.hpp"

namespace affix {

namespace {

/// `{"vertices":[…],"triangles":[…]}` of one mesh.
std::string mesh_text(const TriangleMesh& mesh) {
  std::string text = "{\"vertices\":[";
  const char* separator = "";
  for (const Vec3& v : mesh.vertices) {
    for (int k = 0; k < 3; ++k) (text += std::exchange(separator, ",")) += format_shortest(v[k]);
  }
  text += "],\"triangles\":[";
  separator = "";
  for (const auto& f : mesh.faces) {
    for (int index : f) (text += std::exchange(separator, ",")) += std::to_string(index);
  }
  text += "]}";
  return text;
}

}  // namespace

// Streamed as text, never built as one JSON document: a scene of millions of triangles would need
// gigabytes of nlohmann values, and running out of memory while destroying them aborts the process.
// Each distinct mesh is written once (compile shares one per distinct shape): a 10⁶-link chain is one
// capsule and a million references, not 4.9 GB of copies.
void write_scene_meshes(const std::filesystem::path& file, const Model& model) {
  const std::vector<ModelBody>& bodies = model.bodies;
  errno = 0;
  std::ofstream out(file, std::ios::out | std::ios::trunc | std::ios::binary);
  out << "{\"version\":2,\"ground\":";
  if (model.ground) {
    out << "{\"height\":" << format_shortest(model.ground->height) << '}';
  } else {
    out << "null";
  }
  out << ",\"meshes\":[";
  std::unordered_map<const TriangleMesh*, std::size_t> index;  // mesh → its place in "meshes"
  std::vector<std::size_t> mesh_of(bodies.size());
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const auto [it, inserted] = index.emplace(bodies[b].mesh.get(), index.size());
    if (inserted) out << (it->second > 0 ? "," : "") << mesh_text(*bodies[b].mesh);
    mesh_of[b] = it->second;
  }
  out << "],\"bodies\":[";
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    // A name is a JSON string; bytes that are not UTF-8 become U+FFFD rather than an exception.
    out << (b > 0 ? "," : "") << "{\"name\":"
        << nlohmann::json(bodies[b].name).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
        << ",\"mesh\":" << mesh_of[b] << '}';
  }
  out << "]}\n";
  out.flush();
  if (!out) {
    throw OutputError(file.string() + ": writing failed (" +
                      (errno != 0 ? std::strerror(errno) : "unknown reason") + ")");
  }
}

}  // namespace affix
