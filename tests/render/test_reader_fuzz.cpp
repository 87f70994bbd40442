// `affix render` reads a run's output directory as untrusted input: a thousand seeded mutations of a
// real run's files (support/run_output_fuzz.hpp) each go through the reading and the CPU side of
// drawing — recording, camera framing, ground grid, posed meshes — or end in an InputError naming the
// file, never another exception or a crash; a handful go through the `affix` executable, drawing
// 16×16 pictures: exit 0 or 2, one line on stderr. The mesh mistakes of issue 9 (triangle indices out
// of range, a vertex array that is not a multiple of 3) are refused by name, not drawn.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>

#include "affix/error.hpp"
#include "affix/render/camera_framing.hpp"
#include "affix/render/draw_mesh.hpp"
#include "affix/render/recording.hpp"
#include "affix/render/render_scene.hpp"
#include "support/run_output_fuzz.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

constexpr int kCases = 1000;
constexpr std::uint64_t kFirstSeed = 9'200'000;  // case i mutates with seed kFirstSeed + i

/// What `affix render` does before OpenGL: read, frame the camera, build the scene, pose every body.
void read_and_prepare(const fs::path& dir, int every) {
  const Recording recording = read_recording(dir, every);
  const std::vector<Vec3> points = framing_points(recording);
  const Camera camera = frame_points(points, 16.0 / 9.0, 35.0);
  EXPECT_TRUE(camera.position.allFinite() && camera.target.allFinite());
  const RenderScene scene = make_render_scene(recording.scene, aabb_of(points), RenderStyle{});
  std::vector<float> positions, normals;
  for (const TrajectoryFrame& frame : recording.frames)
    for (std::size_t b = 0; b < frame.poses.size(); ++b)
      if (drawable(frame.poses[b])) append_posed(scene.meshes[b], frame.poses[b], positions, normals);
}

class RenderReaderFuzz : public test::RunOutputFuzzTest<RenderReaderFuzz> {
 public:
  static constexpr const char* kScratchName = "affix_render_fuzz_";
};

TEST_F(RenderReaderFuzz, ThePristineRunIsRead) {
  const Recording recording = read_recording(root_ / "pristine", 2);
  EXPECT_EQ(recording.frame_count, 6);
  EXPECT_EQ(recording.frames.size(), 3u);  // frames 0, 2, 4
  read_and_prepare(root_ / "pristine", 1);
}

TEST_F(RenderReaderFuzz, MutatedRunsAreReadOrRefusedNamingTheFile) {
  for (int i = 0; i < test::fuzz_cases(kCases); ++i) {
    const std::uint64_t seed = kFirstSeed + static_cast<std::uint64_t>(i);
    std::string what;
    const fs::path dir = mutated(seed, what);
    if (test::fuzz_trace()) std::cerr << "seed " << seed << ": " << what << std::endl;
    test::expect_input_error_at_worst([&] { read_and_prepare(dir, 1 + i % 3); }, dir, seed, what);
    if (HasFailure()) {
      test::keep_failed_case(dir, seed);
      return;
    }
    fs::remove_all(dir);
  }
}

/// The InputError message of reading `dir` for drawing, or "" when it succeeds.
std::string render_error(const fs::path& dir) {
  try {
    read_and_prepare(dir, 1);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_F(RenderReaderFuzz, TriangleIndicesOutOfRangeAndOddArraysAreRefusedByName) {
  const auto triangle = [](nlohmann::json value) {
    return [value](nlohmann::json& m) { m["meshes"][0]["triangles"][4] = value; };
  };
  // The box (meshes[0], body 0's) has 8 vertices: -1 and 8 are out of range, 2.5 is no index.
  EXPECT_NE(render_error(with_meshes("minus_one", triangle(-1))).find("meshes.json: meshes[0].triangles[4]: expected a vertex index, a whole number in [0, 8), got -1"),
            std::string::npos);
  EXPECT_NE(render_error(with_meshes("eight", triangle(8))).find("meshes[0].triangles[4]: expected a vertex index"), std::string::npos);
  EXPECT_NE(render_error(with_meshes("fraction", triangle(2.5))).find("meshes[0].triangles[4]"), std::string::npos);
  const std::string odd = render_error(with_meshes("odd", [](nlohmann::json& m) { m["meshes"][1]["vertices"].erase(0); }));
  EXPECT_NE(odd.find("meshes.json: meshes[1].vertices: expected a multiple of 3 numbers"), std::string::npos) << odd;
}

/// Field `field` of the first line of `csv` that starts with `line_start` set to `value` (no quoted
/// fields before it).
void set_field(std::string& csv, const std::string& line_start, std::size_t field, const std::string& value) {
  std::size_t begin = csv.find("\n" + line_start) + 1;
  for (std::size_t f = 0; f < field; ++f) begin = csv.find(',', begin) + 1;
  csv.replace(begin, csv.find(',', begin) - begin, value);
}

TEST_F(RenderReaderFuzz, TheExecutableDrawsOrExitsCleanly) {
  const auto render = [](const fs::path& dir) {
    return std::vector<std::string>{"render", dir.string(), "--width", "16", "--height", "16", "--quiet"};
  };
  test::expect_clean_exit(render(root_ / "pristine"), "the pristine run");
  const fs::path bad = with_meshes("exe_minus_one", [](nlohmann::json& m) { m["meshes"][0]["triangles"][0] = -1; });
  test::expect_clean_exit(render(bad), "triangle index -1");

  // A diverging run's poses are numbers the reader takes; drawing leaves such a body out.
  test::RunFiles files = *pristine_;
  set_field(files["trajectory.csv"], "2,", 3, "nan");     // frame 2: the box's x
  set_field(files["trajectory.csv"], "3,", 6, "1e300");   // frame 3: the box's a00
  set_field(files["trajectory.csv"], "4,", 5, "-1e-300"); // frame 4: the box's z
  const fs::path diverged = root_ / "diverged";
  test::save_run_files(diverged, files);
  ASSERT_EQ(render_error(diverged), "");
  test::expect_clean_exit(render(diverged), "non-finite and huge poses");

  // Mutated runs, both kinds: three that read, three that are refused (the first of each by seed).
  int readable = 0, refused = 0;
  for (std::uint64_t seed = kFirstSeed; readable + refused < 6 && seed < kFirstSeed + kCases; ++seed) {
    std::string what;
    const fs::path dir = mutated(seed, what);
    int& count = render_error(dir).empty() ? readable : refused;
    if (count < 3) {
      ++count;
      test::expect_clean_exit(render(dir), "seed " + std::to_string(seed) + " (" + what + ")");
    }
    fs::remove_all(dir);
  }
  EXPECT_EQ(readable, 3);
  EXPECT_EQ(refused, 3);
}

}  // namespace
}  // namespace affix
