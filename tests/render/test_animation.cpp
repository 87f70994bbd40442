// --gif and --mp4: a tiny three-frame run becomes an animation file through the ffmpeg executable.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "affix/error.hpp"
#include "affix/geometry/primitives.hpp"
#include "affix/render/animation.hpp"
#include "affix/render/render_run.hpp"
#include "run_fixture.hpp"

namespace affix {
namespace {

using test::ScratchDir;

std::string head(const std::filesystem::path& file, std::size_t bytes) {
  std::ifstream in(file, std::ios::binary);
  std::string text(bytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(bytes));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

/// A box falling onto the ground over three frames.
void write_falling_box(const std::filesystem::path& dir) {
  test::TestBody box{"box", make_box(Vec3(0.3, 0.3, 0.3)), {}};
  for (int k = 0; k < 3; ++k) box.poses.push_back({Vec3(0, 0, 0.6 - 0.2 * k), Mat3::Identity()});
  test::write_run(dir, {box}, 0.0, 0.05);
}

class Animation : public testing::Test {
 protected:
  void SetUp() override {
    if (!find_executable("ffmpeg")) GTEST_SKIP() << "ffmpeg is not on PATH (scripts/install-deps.sh installs it)";
  }
};

TEST_F(Animation, GifFromAThreeFrameRun) {
  ScratchDir dir;
  write_falling_box(dir.path());
  RenderOptions options;
  options.run_dir = dir.path();
  options.width = 80;
  options.height = 60;
  options.gif = dir.path() / "anim" / "fall.gif";  // its folder is created
  const RenderResult result = render_run(options);
  EXPECT_EQ(result.pictures, 3);
  EXPECT_EQ(result.fps, 20);
  ASSERT_TRUE(std::filesystem::exists(*options.gif));
  EXPECT_EQ(head(*options.gif, 6), "GIF89a");
  // The logical screen size follows the signature, little-endian 16-bit.
  const std::string screen = head(*options.gif, 10).substr(6);
  EXPECT_EQ(static_cast<unsigned char>(screen[0]) | (static_cast<unsigned char>(screen[1]) << 8), 80);
  EXPECT_EQ(static_cast<unsigned char>(screen[2]) | (static_cast<unsigned char>(screen[3]) << 8), 60);
}

TEST_F(Animation, Mp4FromAThreeFrameRun) {
  ScratchDir dir;
  write_falling_box(dir.path());
  RenderOptions options;
  options.run_dir = dir.path();
  options.width = 81;  // odd: the encoder pads to even
  options.height = 61;
  options.mp4 = dir.path() / "fall.mp4";
  render_run(options);
  ASSERT_TRUE(std::filesystem::exists(*options.mp4));
  EXPECT_EQ(head(*options.mp4, 8).substr(4), "ftyp");  // an ISO media file starts with its ftyp box
}

TEST(AnimationWithoutFfmpeg, SaysSoBeforeDrawing) {
  // With an empty PATH nothing is found; the error names the option and the way out.
  const char* old_path = std::getenv("PATH");
  const std::string saved = old_path != nullptr ? old_path : "";
  ::setenv("PATH", "/nonexistent", 1);
  std::string message;
  try {
    require_ffmpeg("--gif");
  } catch (const InputError& e) {
    message = e.what();
  }
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_NE(message.find("--gif needs the ffmpeg executable"), std::string::npos) << message;
  EXPECT_NE(message.find("install-deps.sh"), std::string::npos) << message;
}

}  // namespace
}  // namespace affix
