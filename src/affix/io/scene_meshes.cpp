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

/// `"vertices":[…],"triangles":[…]}` of one body's mesh. A mesh that bodies share (compile makes one
/// per distinct shape) is formatted once and kept in `cache`: a 10⁶-link chain has one capsule.
const std::string& mesh_text(const TriangleMesh& mesh, std::unordered_map<const TriangleMesh*, std::string>* cache) {
  thread_local std::string scratch;
  if (cache) {
    if (auto it = cache->find(&mesh); it != cache->end()) return it->second;
  }
  std::string text = "\"vertices\":[";
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
  if (cache) return cache->emplace(&mesh, std::move(text)).first->second;
  scratch = std::move(text);
  return scratch;
}

}  // namespace

// Streamed as text, never built as one JSON document: a scene of millions of triangles would need
// gigabytes of nlohmann values, and running out of memory while destroying them aborts the process.
void write_scene_meshes(const std::filesystem::path& file, const Model& model) {
  const std::vector<ModelBody>& bodies = model.bodies;
  errno = 0;
  std::ofstream out(file, std::ios::out | std::ios::trunc | std::ios::binary);
  out << "{\"version\":1,\"ground\":";
  if (model.ground) {
    out << "{\"height\":" << format_shortest(model.ground->height) << '}';
  } else {
    out << "null";
  }
  out << ",\"bodies\":[";
  std::unordered_map<const TriangleMesh*, std::string> shared;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const ModelBody& body = bodies[b];
    // A name is a JSON string; bytes that are not UTF-8 become U+FFFD rather than an exception.
    out << (b > 0 ? "," : "") << "{\"name\":"
        << nlohmann::json(body.name).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
        << ",";
    out << mesh_text(*body.mesh, body.mesh.use_count() > 1 ? &shared : nullptr);
  }
  out << "]}\n";
  out.flush();
  if (!out) {
    throw OutputError(file.string() + ": writing failed (" +
                      (errno != 0 ? std::strerror(errno) : "unknown reason") + ")");
  }
}

}  // namespace affix
