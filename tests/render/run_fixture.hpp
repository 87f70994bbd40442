#pragma once
// Test helpers for the renderer: a scratch directory per test, and a tiny run's output written the way
// `affix run` writes it (meshes.json via scene_meshes' format, trajectory.csv via TrajectoryWriter).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/geometry/triangle_mesh.hpp"
#include "affix/io/trajectory_writer.hpp"

namespace affix::test {

namespace fs = std::filesystem;

/// A fresh directory named after the running test, removed when the object goes.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("affix_render_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct TestBody {
  std::string name;
  TriangleMesh mesh;
  std::vector<BodyPose> poses;  ///< one per frame
};

/// Writes `dir`/meshes.json and `dir`/trajectory.csv for `bodies`, frame k at time k·dt.
inline void write_run(const fs::path& dir, const std::vector<TestBody>& bodies, std::optional<double> ground,
                      double dt = 0.02) {
  nlohmann::json root = {{"version", 1}, {"bodies", nlohmann::json::array()}};
  root["ground"] = ground ? nlohmann::json{{"height", *ground}} : nlohmann::json(nullptr);
  std::vector<std::string> names;
  for (const TestBody& body : bodies) {
    std::vector<double> vertices;
    std::vector<int> triangles;
    for (const Vec3& v : body.mesh.vertices) vertices.insert(vertices.end(), {v.x(), v.y(), v.z()});
    for (const auto& f : body.mesh.faces) triangles.insert(triangles.end(), f.begin(), f.end());
    root["bodies"].push_back({{"name", body.name}, {"vertices", vertices}, {"triangles", triangles}});
    names.push_back(body.name);
  }
  std::ofstream(dir / "meshes.json") << root.dump() << '\n';
  TrajectoryWriter writer(dir / "trajectory.csv", names);
  const std::size_t frames = bodies.empty() ? 0 : bodies.front().poses.size();
  for (std::size_t k = 0; k < frames; ++k) {
    std::vector<BodyPose> poses;
    for (const TestBody& body : bodies) poses.push_back(body.poses[k]);
    writer.write_frame(static_cast<int>(k), static_cast<double>(k) * dt, poses);
  }
}

/// Width and height from a PNG file's IHDR chunk (bytes 16–23, big-endian), or nothing when the file
/// does not start with the PNG signature.
inline std::optional<std::pair<int, int>> png_size(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  unsigned char head[24] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (!in || !std::equal(signature, signature + 8, head)) return std::nullopt;
  const auto be32 = [&](int at) { return (head[at] << 24) | (head[at + 1] << 16) | (head[at + 2] << 8) | head[at + 3]; };
  return std::pair{be32(16), be32(20)};
}

}  // namespace affix::test
