#pragma once
// Small mesh files written by tests, whose solids are known by hand: the unit cube as triangles, and
// writers for ASCII STL, binary STL and COLLADA (DAE) with a unit, an up axis and a node matrix.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "affix/math/types.hpp"

namespace affix::test {

/// The unit cube [0, 1]³ as 12 outward triangles (counter-clockwise seen from outside).
inline const std::vector<std::array<Vec3, 3>>& cube_triangles() {
  static const std::vector<std::array<Vec3, 3>> triangles = [] {
    const Vec3 c[8] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    const int quads[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}};
    std::vector<std::array<Vec3, 3>> out;
    for (const auto& q : quads) {
      out.push_back({c[q[0]], c[q[1]], c[q[2]]});
      out.push_back({c[q[0]], c[q[2]], c[q[3]]});
    }
    return out;
  }();
  return triangles;
}

/// An ASCII STL of `triangles`.
inline std::string ascii_stl(const std::vector<std::array<Vec3, 3>>& triangles) {
  std::string text = "solid cube\n";
  for (const auto& t : triangles) {
    text += " facet normal 0 0 0\n  outer loop\n";
    for (const Vec3& v : t) text += "   vertex " + std::to_string(v.x()) + " " + std::to_string(v.y()) + " " + std::to_string(v.z()) + "\n";
    text += "  endloop\n endfacet\n";
  }
  return text + "endsolid cube\n";
}

/// A binary STL of `triangles` (float32 corners).
inline std::string binary_stl(const std::vector<std::array<Vec3, 3>>& triangles) {
  std::string bytes(80, ' ');
  const auto put = [&bytes](const void* data, std::size_t n) { bytes.append(static_cast<const char*>(data), n); };
  const auto count = static_cast<std::uint32_t>(triangles.size());
  put(&count, 4);
  for (const auto& t : triangles) {
    const float normal[3] = {0, 0, 0};
    put(normal, sizeof normal);
    for (const Vec3& v : t) {
      const float xyz[3] = {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
      put(xyz, sizeof xyz);
    }
    const std::uint16_t attributes = 0;
    put(&attributes, 2);
  }
  return bytes;
}

/// A COLLADA file of `triangles` times `file_scale` (its numbers as written), declaring `unit_meter`
/// metres per unit and `up_axis`, under one node with the row-major 4×4 `node_matrix` (file units).
inline std::string collada(const std::vector<std::array<Vec3, 3>>& triangles, double file_scale, double unit_meter,
                           const std::string& up_axis, const std::string& node_matrix) {
  std::string positions, indices;
  int n = 0;
  for (const auto& t : triangles) {
    for (const Vec3& v : t) {
      const Vec3 p = file_scale * v;
      positions += std::to_string(p.x()) + " " + std::to_string(p.y()) + " " + std::to_string(p.z()) + " ";
      indices += std::to_string(n++) + " ";
    }
  }
  return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="unit" meter=")" + std::to_string(unit_meter) + R"("/><up_axis>)" + up_axis + R"(</up_axis></asset>
  <library_geometries>
    <geometry id="cube-mesh" name="cube"><mesh>
      <source id="cube-positions">
        <float_array id="cube-positions-array" count=")" + std::to_string(3 * n) + R"(">)" + positions + R"(</float_array>
        <technique_common><accessor source="#cube-positions-array" count=")" + std::to_string(n) + R"(" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common>
      </source>
      <vertices id="cube-vertices"><input semantic="POSITION" source="#cube-positions"/></vertices>
      <triangles count=")" + std::to_string(triangles.size()) + R"("><input semantic="VERTEX" source="#cube-vertices" offset="0"/><p>)" + indices + R"(</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene" name="scene">
      <node id="cube" name="cube"><matrix>)" + node_matrix + R"(</matrix><instance_geometry url="#cube-mesh"/></node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)";
}

}  // namespace affix::test
