// `affix view`'s page (src/affix/viewer/): a fake run directory in, one HTML file out that carries the
// script bundle and the run's data; the embedded poses decode back to the trajectory's numbers, a
// long run keeps the pose budget, and a missing file is an InputError that names it.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/error.hpp"
#include "affix/viewer/assets.hpp"
#include "affix/viewer/base64.hpp"
#include "affix/viewer/decimation.hpp"
#include "affix/viewer/mesh_groups.hpp"
#include "affix/viewer/view_page.hpp"

namespace affix::viewer {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* const kTrajectoryHeader = "frame,time,body,x,y,z,a00,a01,a02,a10,a11,a12,a20,a21,a22";
const char* const kStatsHeader =
    "step,time,iterations,residual,min_distance,active_contacts,max_joint_error,kinetic_energy,"
    "potential_energy,wall_ms,hit_iteration_cap,line_search_evaluations,barrier_stiffness,warnings";

/// A tetrahedron: four vertices, four triangles.
json tetrahedron(double scale) {
  return {{"vertices", {0, 0, 0, scale, 0, 0, 0, scale, 0, 0, 0, scale}}, {"triangles", {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}}};
}

/// The pose number j (0…11) of body b in frame f, as the fake trajectory writes it.
double pose_value(int f, int b, int j) { return 0.25 * f + 10.0 * b + 0.125 * j - 1.0; }

/// A run directory with `bodies` bodies (body 0 named with a comma and `</script>`), `frames` frames,
/// `steps` stats rows, every file that `affix run` writes.
class FakeRun {
 public:
  FakeRun(int bodies, int frames, int steps = 4) {
    dir_ = fs::temp_directory_path() / ("affix_view_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    for (int b = 0; b < bodies; ++b) names_.push_back(b == 0 ? std::string("odd, </script> name") : std::string("body").append(std::to_string(b)));

    json meshes = {{"version", 1}, {"ground", {{"height", -0.5}}}, {"bodies", json::array()}};
    for (int b = 0; b < bodies; ++b) {
      json body = tetrahedron(b == bodies - 1 && bodies > 1 ? 2.0 : 1.0);  // the last one differs
      body["name"] = names_[b];
      meshes["bodies"].push_back(body);
    }
    write("meshes.json", meshes.dump());

    std::string csv = std::string(kTrajectoryHeader) + "\n";
    for (int f = 0; f < frames; ++f)
      for (int b = 0; b < bodies; ++b) {
        csv.append(std::to_string(f)).append(",").append(std::to_string(0.02 * f)).append(",");
        csv.append(b == 0 ? std::string("\"odd, </script> name\"") : names_[b]);
        for (int j = 0; j < 12; ++j) csv.append(",").append(std::to_string(pose_value(f, b, j)));
        csv.append("\n");
      }
    write("trajectory.csv", csv);

    std::string stats = std::string(kStatsHeader) + "\n";
    for (int s = 1; s <= steps; ++s)
      stats += std::to_string(s) + "," + std::to_string(0.01 * s) + "," + std::to_string(s + 2) +
               ",1e-6," + (s == 1 ? "inf" : "0.5") + ",0,0," + std::to_string(10.0 * s) + ",3.5,0.25,0,1,1000,0\n";
    write("stats.csv", stats);
    write("summary.json", R"({"scene": "fake", "solver": "ipc", "steps": 4, "completed": true, "min_distance": null})");
  }
  ~FakeRun() { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& text) const { std::ofstream(dir_ / name) << text; }
  const fs::path& dir() const { return dir_; }
  const std::vector<std::string>& names() const { return names_; }

 private:
  static inline int counter_ = 0;
  fs::path dir_;
  std::vector<std::string> names_;
};

/// The text of the element `<script ... id="ID">…</script>` in `html`.
std::string script_text(const std::string& html, std::string_view id) {
  const std::string open = "id=\"" + std::string(id) + "\">";
  const std::size_t begin = html.find(open);
  EXPECT_NE(begin, std::string::npos) << id;
  const std::size_t from = begin + open.size();
  return html.substr(from, html.find("</script>", from) - from);
}

template <typename T>
std::vector<T> decode(const std::string& base64) {
  const std::vector<unsigned char> bytes = base64_decode(base64);
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Base64, RoundTripsEveryLength) {
  for (std::size_t n = 0; n < 10; ++n) {
    std::vector<unsigned char> bytes;
    for (std::size_t i = 0; i < n; ++i) bytes.push_back(static_cast<unsigned char>(250 - 37 * i));
    EXPECT_EQ(base64_decode(base64_encode(bytes)), bytes) << n;
  }
  EXPECT_EQ(base64_encode(std::string_view("Man").data(), 3), "TWFu");
  EXPECT_EQ(base64_encode(std::string_view("Ma").data(), 2), "TWE=");
  EXPECT_THROW(base64_decode("TWE"), std::invalid_argument);
}

TEST(ViewPage, CarriesTheBundleAndTheRunData) {
  const FakeRun run(3, 3);
  const ViewPage page = build_view_page(run.dir());
  ASSERT_FALSE(script_bundle().empty());
  EXPECT_NE(page.html.find(script_bundle()), std::string::npos);
  EXPECT_EQ(page.html.find(kDataMarker), std::string::npos);
  EXPECT_EQ(page.html.find(kBundleMarker), std::string::npos);
  // The name with </script> inside stays inside its JSON string: three elements end, no more.
  EXPECT_EQ(count(page.html, "</script>"), 3u);
  EXPECT_EQ(page.bodies, 3);
  EXPECT_EQ(page.frames, 3);
  EXPECT_EQ(page.stride, 1);

  const json data = json::parse(script_text(page.html, kDataElementId));
  EXPECT_EQ(data["scene"], "fake");
  EXPECT_EQ(data["ground"]["height"], -0.5);
  EXPECT_EQ(data["bodies"]["names"], json(run.names()));
  EXPECT_EQ(data["frames"]["count"], 3);
  EXPECT_EQ(data["frames"]["index"], json({0, 1, 2}));
  EXPECT_DOUBLE_EQ(data["frames"]["times"][2].get<double>(), 0.04);
  EXPECT_EQ(data["joints"], json::array());  // no joints.csv
  EXPECT_EQ(data["joint_count"], 0);
  EXPECT_TRUE(data["contacts"].is_null());   // no contacts.csv

  // Bodies 0 and 1 share a mesh (one instanced group), body 2's differs.
  EXPECT_EQ(data["bodies"]["group"], json({0, 0, 1}));
  ASSERT_EQ(data["meshes"].size(), 2u);
  EXPECT_EQ(data["meshes"][0]["bodies"], 2);
  EXPECT_EQ(decode<float>(data["meshes"][1]["vertices"]), std::vector<float>({0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2}));
  EXPECT_EQ(decode<std::uint32_t>(data["meshes"][1]["triangles"]).size(), 12u);

  const std::vector<float> poses = decode<float>(script_text(page.html, kPosesElementId));
  ASSERT_EQ(poses.size(), 3u * 3u * 12u);
  for (int f = 0; f < 3; ++f)
    for (int b = 0; b < 3; ++b)
      for (int j = 0; j < 12; ++j)
        EXPECT_FLOAT_EQ(poses[(f * 3 + b) * 12 + j], static_cast<float>(pose_value(f, b, j))) << f << " " << b << " " << j;

  const json& stats = data["stats"];
  EXPECT_EQ(stats["points"], 4);
  EXPECT_EQ(decode<double>(stats["columns"]["iterations"]), std::vector<double>({3, 4, 5, 6}));
  EXPECT_EQ(decode<double>(stats["columns"]["min_distance"])[0], std::numeric_limits<double>::infinity());
}

TEST(ViewPage, WritesTheFile) {
  const FakeRun run(1, 2);
  const ViewPage page = build_view_page(run.dir());
  write_view_page(run.dir() / "view.html", page);
  std::ifstream in(run.dir() / "view.html", std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), page.html);
}

TEST(Decimation, KeepsEveryFrameWithinBudget) {
  const FrameSelection s = select_frames(100, 10, kDefaultPoseBudgetBytes);
  EXPECT_EQ(s.stride, 1);
  EXPECT_EQ(s.frames.size(), 100u);
}

TEST(Decimation, SmallestStrideThatFitsAndTheLastFrame) {
  for (const auto& [frames, bodies] : {std::pair{10'000, 100'000}, {5'001, 1'000}, {1'000'000, 1}, {7, 3}}) {
    const std::size_t budget = frames == 7 ? 3 * 3 * kPoseBytesPerBody : kDefaultPoseBudgetBytes;
    const FrameSelection s = select_frames(frames, bodies, budget);
    ASSERT_FALSE(s.frames.empty());
    EXPECT_LE(s.frames.size() * bodies * kPoseBytesPerBody, budget) << frames << " x " << bodies;
    EXPECT_EQ(s.frames.front(), 0);
    EXPECT_EQ(s.frames.back(), frames - 1);
    for (std::size_t i = 1; i + 1 < s.frames.size(); ++i) EXPECT_EQ(s.frames[i], static_cast<int>(i) * s.stride);
    if (s.stride > 1) {  // one less would not fit
      const std::size_t kept = (frames - 1) / (s.stride - 1) + 1 + ((frames - 1) % (s.stride - 1) != 0);
      EXPECT_GT(kept * bodies * kPoseBytesPerBody, budget);
    }
  }
}

TEST(Decimation, OneFrameWhenEvenOneIsOverBudget) {
  const FrameSelection s = select_frames(50, 1'000'000, kDefaultPoseBudgetBytes);
  EXPECT_EQ(s.frames, std::vector<int>({0}));
}

TEST(ViewPage, ALongRunKeepsThePoseBudget) {
  constexpr int kBodies = 40;
  constexpr int kFrames = 500;
  const FakeRun run(kBodies, kFrames);
  ViewOptions options;
  options.pose_budget_bytes = 100'000;  // 52 frames of 40 bodies
  const ViewPage page = build_view_page(run.dir(), options);
  EXPECT_EQ(page.source_frames, kFrames);
  EXPECT_GT(page.stride, 1);
  EXPECT_LE(page.pose_bytes, options.pose_budget_bytes);
  EXPECT_EQ(page.pose_bytes, static_cast<std::size_t>(page.frames) * kBodies * kPoseBytesPerBody);

  const json data = json::parse(script_text(page.html, kDataElementId));
  const std::vector<int> index = data["frames"]["index"].get<std::vector<int>>();
  ASSERT_EQ(index.size(), static_cast<std::size_t>(page.frames));
  EXPECT_EQ(index.back(), kFrames - 1);
  const std::vector<float> poses = decode<float>(script_text(page.html, kPosesElementId));
  ASSERT_EQ(poses.size(), index.size() * kBodies * 12);
  for (std::size_t k : {std::size_t{0}, std::size_t{1}, index.size() - 1})
    for (int b : {0, kBodies - 1})
      for (int j : {0, 11})
        EXPECT_FLOAT_EQ(poses[(k * kBodies + b) * 12 + j], static_cast<float>(pose_value(index[k], b, j)));
}

TEST(ViewPage, ManyStatsRowsBecomeFewPointsKeepingExtremes) {
  const FakeRun run(1, 2, 1000);
  ViewOptions options;
  options.max_stats_points = 100;
  const json data = json::parse(script_text(build_view_page(run.dir(), options).html, kDataElementId));
  EXPECT_EQ(data["stats"]["stride"], 10);
  const auto iterations = decode<double>(data["stats"]["columns"]["iterations"]);
  ASSERT_EQ(iterations.size(), 100u);
  EXPECT_EQ(iterations[0], 12);  // the largest of steps 1…10 (s + 2)
  EXPECT_EQ(decode<double>(data["stats"]["columns"]["min_distance"])[0], 0.5);  // inf is not the smallest
}

TEST(MeshGroups, TooManyDistinctMeshesBecomeBoxes) {
  std::vector<TriangleMesh> meshes(6);
  for (int b = 0; b < 6; ++b) {
    meshes[b].vertices = {Vec3(0, 0, 0), Vec3(1.0 + (b < 3 ? 0 : b), 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
    meshes[b].faces = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  }
  const MeshGroups g = group_meshes(meshes, {.max_groups = 2, .max_bytes = 1'000'000});
  ASSERT_EQ(g.groups.size(), 4u);  // bodies 0–2 share one mesh, 3, 4 and 5 have their own
  EXPECT_EQ(g.groups[0].bodies, 3);
  EXPECT_TRUE(g.groups[0].embedded);
  EXPECT_TRUE(g.groups[1].embedded);
  EXPECT_FALSE(g.groups[2].embedded);
  EXPECT_FALSE(g.groups[3].embedded);
  EXPECT_EQ(g.body_group, std::vector<int>({0, 0, 0, 1, 2, 3}));
  EXPECT_DOUBLE_EQ(g.groups[3].bounds[3], 6.0);
}

void expect_input_error_naming(const fs::path& dir, const std::string& file) {
  try {
    build_view_page(dir);
    ADD_FAILURE() << "no error for a missing " << file;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
  }
}

TEST(ViewPage, AMissingFileIsAnInputErrorNamingIt) {
  for (const char* file : {"meshes.json", "trajectory.csv", "stats.csv", "summary.json"}) {
    const FakeRun run(1, 2);
    fs::remove(run.dir() / file);
    expect_input_error_naming(run.dir(), file);
  }
  expect_input_error_naming(fs::temp_directory_path() / "affix_no_such_run", "affix_no_such_run");
}

TEST(ViewPage, AMalformedTrajectoryNamesTheFileAndLine) {
  const FakeRun run(2, 2);
  run.write("trajectory.csv", std::string(kTrajectoryHeader) + "\n0,0,body1,0,0,0,1,0,0,0,1,0,0,0,1\n0,0,body1,0,0,0,1,0,0,0,1,0,0,0,1\n");
  try {
    build_view_page(run.dir());
    ADD_FAILURE() << "no error for a body out of order";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("trajectory.csv: line 2:"), std::string::npos) << e.what();
  }
  run.write("trajectory.csv", "frame,time\n");
  EXPECT_THROW(build_view_page(run.dir()), InputError);
}

}  // namespace
}  // namespace affix::viewer
