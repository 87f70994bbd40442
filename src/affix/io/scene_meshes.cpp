#include "affix/io/scene_meshes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <utility>

#include "affix/error.hpp"
#include "affix/io/number_format.hpp"

namespace affix {

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
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const ModelBody& body = bodies[b];
    // A name is a JSON string; bytes that are not UTF-8 become U+FFFD rather than an exception.
    out << (b > 0 ? "," : "") << "{\"name\":"
        << nlohmann::json(body.name).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
        << ",\"vertices\":[";
    const char* separator = "";
    for (const Vec3& v : body.mesh->vertices) {
      for (int k = 0; k < 3; ++k) out << std::exchange(separator, ",") << format_shortest(v[k]);
    }
    out << "],\"triangles\":[";
    separator = "";
    for (const auto& f : body.mesh->faces) {
      for (int index : f) out << std::exchange(separator, ",") << index;
    }
    out << "]}";
  }
  out << "]}\n";
  out.flush();
  if (!out) {
    throw OutputError(file.string() + ": writing failed (" +
                      (errno != 0 ? std::strerror(errno) : "unknown reason") + ")");
  }
}

}  // namespace affix
