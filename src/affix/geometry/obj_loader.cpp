#include "affix/geometry/obj_loader.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include <tiny_obj_loader.h>

#include "affix/geometry/obj_syntax.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {

namespace {

/// The first line of tinyobjloader's error text, for a one-line reason.
std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "unknown parse error" : line;
}

std::string read_text(const std::filesystem::path& file) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    throw std::runtime_error(std::filesystem::exists(file, error) ? "not a regular file" : "no such file");
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw std::runtime_error(std::string("cannot read the OBJ file: ") + std::strerror(errno));
  return text.str();
}

tinyobj::ObjReader parse(const std::filesystem::path& file) {
  const std::string text = read_text(file);
  // The strict check first: tinyobjloader would turn what it cannot read into zeros.
  if (auto error = find_obj_syntax_error(text)) throw std::runtime_error(file.string() + " " + *error);
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromString(strip_obj_comments(text), "", config)) {
    // The syntax check above refuses whatever tinyobjloader is known to fail on, in affix's words;
    // this is the net for anything else, still one line that names the file.
    throw std::runtime_error(file.string() + ": cannot read the OBJ file (the OBJ reader says: " +
                             excerpt(first_line(reader.Error())) + ")");
  }
  return reader;
}

/// Triangles of every shape, as indices into the file's vertex list. Polygons that the reader left
/// untriangulated become fans.
std::vector<std::array<int, 3>> collect_triangles(const tinyobj::ObjReader& reader, int vertex_count) {
  std::vector<std::array<int, 3>> triangles;
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    std::size_t offset = 0;
    for (const auto corners : shape.mesh.num_face_vertices) {
      if (corners < 3) {
        throw std::runtime_error("a face has fewer than 3 vertices");
      }
      auto corner = [&](std::size_t k) {
        const int v = shape.mesh.indices[offset + k].vertex_index;
        if (v < 0 || v >= vertex_count) {
          throw std::runtime_error("a face refers to vertex " + std::to_string(v + 1) + " of " +
                                   std::to_string(vertex_count));
        }
        return v;
      };
      for (std::size_t k = 1; k + 1 < corners; ++k) {
        triangles.push_back({corner(0), corner(k), corner(k + 1)});
      }
      offset += corners;
    }
  }
  return triangles;
}

/// Maps each file vertex that some triangle uses to one output vertex per distinct position, in file
/// order; appends those positions (scaled) to `vertices`. Unused file vertices map to −1.
std::vector<int> weld(const std::vector<tinyobj::real_t>& xyz,
                      const std::vector<std::array<int, 3>>& triangles, const Vec3& scale,
                      std::vector<Vec3>& vertices) {
  std::vector<char> used(xyz.size() / 3, 0);
  for (const auto& t : triangles) {
    for (int v : t) used[v] = 1;
  }
  // Exact comparison on the file's values: only true duplicates are merged (−0 and +0 compare equal).
  std::map<std::array<double, 3>, int> index_of_position;
  std::vector<int> remap(used.size(), -1);
  for (std::size_t v = 0; v < used.size(); ++v) {
    if (!used[v]) continue;
    const std::array<double, 3> p{xyz[3 * v], xyz[3 * v + 1], xyz[3 * v + 2]};
    const auto [it, inserted] = index_of_position.try_emplace(p, static_cast<int>(vertices.size()));
    if (inserted) {
      vertices.push_back(Vec3(p[0], p[1], p[2]).cwiseProduct(scale));
    }
    remap[v] = it->second;
  }
  return remap;
}

}  // namespace

TriangleMesh load_obj(const std::filesystem::path& file, const Vec3& scale) {
  if (!scale.allFinite() || (scale.array() == 0.0).any()) {
    throw std::invalid_argument("a mesh scale must be finite and non-zero");
  }
  const tinyobj::ObjReader reader = parse(file);
  const std::vector<tinyobj::real_t>& xyz = reader.GetAttrib().vertices;
  const auto triangles = collect_triangles(reader, static_cast<int>(xyz.size() / 3));
  if (triangles.empty()) {
    throw std::runtime_error("the file has no faces");
  }

  TriangleMesh mesh;
  const std::vector<int> remap = weld(xyz, triangles, scale, mesh.vertices);
  // A mirror (det of the scale < 0) turns counter-clockwise faces clockwise: swap two corners back.
  const bool mirrored = scale.prod() < 0.0;
  mesh.faces.reserve(triangles.size());
  for (const auto& [a, b, c] : triangles) {
    mesh.faces.push_back(mirrored ? std::array<int, 3>{remap[a], remap[c], remap[b]}
                                  : std::array<int, 3>{remap[a], remap[b], remap[c]});
  }
  return mesh;
}

}  // namespace affix
