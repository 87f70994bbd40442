// Which frames are drawn (--every), what the pictures are called, what happens to an earlier render's
// pictures, the playback rate — and render_run writing exactly those files.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "affix/error.hpp"
#include "affix/geometry/primitives.hpp"
#include "affix/render/frame_selection.hpp"
#include "affix/render/render_run.hpp"
#include "run_fixture.hpp"

namespace affix {
namespace {

using test::ScratchDir;

TEST(FrameSelection, PicturesAreNumberedWithFiveDigits) {
  EXPECT_EQ(picture_file_name(0), "00000.png");
  EXPECT_EQ(picture_file_name(42), "00042.png");
  EXPECT_EQ(picture_file_name(123456), "123456.png");
}

TEST(FrameSelection, PlaybackIsRealTimeWithinLimits) {
  EXPECT_EQ(playback_fps({0.0, 0.04, 0.08, 0.12}, 50), 25);  // output_fps 50, every 2nd frame
  EXPECT_EQ(playback_fps({0.0, 0.01, 0.02}, 50), 50);        // 100 per second, held to 50
  EXPECT_EQ(playback_fps({0.0, 2.0}, 50), 1);                // slower than 1 per second, held to 1
  EXPECT_EQ(playback_fps({0.0}, 50), 25);                    // one picture: the fallback
}

TEST(FrameSelection, StalePicturesOfALongerRenderGoOthersStay) {
  ScratchDir dir;
  for (const char* name : {"00000.png", "00001.png", "00002.png", "00003.png", "notes.png", "0002.png", "00002.txt"})
    std::ofstream(dir.path() / name) << "x";
  EXPECT_EQ(remove_stale_pictures(dir.path(), 2), 2);
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) left.push_back(entry.path().filename());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"00000.png", "00001.png", "00002.txt", "0002.png", "notes.png"}));
}

/// A small box sliding along x over `frames` frames, on a ground.
std::vector<test::TestBody> sliding_box(int frames) {
  test::TestBody box{"box", make_box(Vec3(0.2, 0.2, 0.2)), {}};
  for (int k = 0; k < frames; ++k) box.poses.push_back({Vec3(0.1 * k, 0, 0.1), Mat3::Identity()});
  return {box};
}

TEST(RenderRun, WritesTheSelectedFramesAsNumberedPictures) {
  ScratchDir dir;
  test::write_run(dir.path(), sliding_box(5), 0.0);
  const std::filesystem::path out = dir.path() / "pictures";
  std::filesystem::create_directories(out);
  std::ofstream(out / "00007.png") << "from an earlier render";

  RenderOptions options;
  options.run_dir = dir.path();
  options.out_dir = out;
  options.every = 2;
  options.width = 64;
  options.height = 48;
  const RenderResult result = render_run(options);
  EXPECT_EQ(result.trajectory_frames, 5);
  EXPECT_EQ(result.pictures, 3);  // frames 0, 2, 4
  EXPECT_EQ(result.fps, 25);      // 0.04 s apart
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    files.push_back(entry.path().filename());
    const auto size = test::png_size(entry.path());
    ASSERT_TRUE(size.has_value()) << entry.path() << " is not a PNG";
    EXPECT_EQ(*size, (std::pair{64, 48}));
  }
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"00000.png", "00001.png", "00002.png"}));
}

TEST(RenderRun, PicturesGoToRunDirFramesByDefault) {
  ScratchDir dir;
  test::write_run(dir.path(), sliding_box(2), std::nullopt);
  RenderOptions options;
  options.run_dir = dir.path();
  options.width = 32;
  options.height = 32;
  const RenderResult result = render_run(options);
  EXPECT_EQ(result.out_dir, dir.path() / "frames");
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "frames" / "00001.png"));
}

/// The message of the InputError that `options` raise, or "" when none.
std::string input_error(const RenderOptions& options) {
  try {
    render_run(options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RenderRun, MissingFilesAreNamed) {
  ScratchDir dir;
  RenderOptions options;
  options.run_dir = dir.path();
  EXPECT_NE(input_error(options).find("meshes.json"), std::string::npos);
  test::write_run(dir.path(), sliding_box(2), 0.0);
  std::filesystem::remove(dir.path() / "trajectory.csv");
  EXPECT_NE(input_error(options).find("trajectory.csv"), std::string::npos);
  options.run_dir = dir.path() / "nowhere";
  EXPECT_NE(input_error(options).find("nowhere"), std::string::npos);
}

TEST(RenderRun, BadOptionsAreNamed) {
  ScratchDir dir;
  test::write_run(dir.path(), sliding_box(2), 0.0);
  RenderOptions options;
  options.run_dir = dir.path();
  options.every = 0;
  EXPECT_NE(input_error(options).find("--every"), std::string::npos);
  options.every = 1;
  options.width = 5;
  EXPECT_NE(input_error(options).find("--width"), std::string::npos);
  options.width = 64;
  options.fov_deg = 180;
  EXPECT_NE(input_error(options).find("--fov"), std::string::npos);
  options.fov_deg = 35;
  options.camera_position = Vec3(1, 2, 3);
  options.camera_target = Vec3(1, 2, 3);
  EXPECT_NE(input_error(options).find("--camera-position"), std::string::npos);
}

}  // namespace
}  // namespace affix
