// `affix view` on a run that wrote trajectory.h5 instead of trajectory.csv: the same real run written
// both ways gives the reader the same frames, times and poses, and the same page; a damaged
// trajectory.h5 is an InputError naming it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "affix/error.hpp"
#include "affix/io/scene_meshes.hpp"
#include "affix/viewer/trajectory_reader.hpp"
#include "affix/viewer/view_page.hpp"
#include "support/files.hpp"
#include "support/run_output_fuzz.hpp"

namespace affix::viewer {
namespace {

namespace fs = std::filesystem;

/// One real run written as CSV into csv_ and as HDF5 into h5_ (the same run: runs are deterministic).
class ViewTrajectoryH5 : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() / ("affix_view_h5_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    csv_ = root_ / "csv";
    h5_ = root_ / "h5";
    test::write_tiny_run(csv_, TrajectoryFormat::csv);
    test::write_tiny_run(h5_, TrajectoryFormat::hdf5);
  }
  void TearDown() override { fs::remove_all(root_); }

  static void expect_same(const PoseFrames& a, const PoseFrames& b) {
    EXPECT_EQ(a.selection.source_frames, b.selection.source_frames);
    EXPECT_EQ(a.selection.stride, b.selection.stride);
    EXPECT_EQ(a.selection.frames, b.selection.frames);
    EXPECT_EQ(a.times, b.times);
    EXPECT_EQ(a.poses, b.poses);
  }

  fs::path root_, csv_, h5_;
};

TEST_F(ViewTrajectoryH5, TheRunWrittenEitherWayReadsTheSame) {
  ASSERT_TRUE(fs::exists(h5_ / "trajectory.h5"));
  ASSERT_FALSE(fs::exists(h5_ / "trajectory.csv"));
  const std::vector<std::string> names = read_scene_meshes(csv_ / "meshes.json").names;
  const PoseFrames from_csv = read_trajectory(csv_ / "trajectory.csv", names, kDefaultPoseBudgetBytes);
  const PoseFrames from_h5 = read_trajectory(h5_ / "trajectory.h5", names, kDefaultPoseBudgetBytes);
  EXPECT_EQ(from_h5.selection.source_frames, 6);
  expect_same(from_csv, from_h5);
  // Over budget, both keep every k-th frame and the last, the same ones.
  const std::size_t two_frames = 2 * names.size() * kPoseBytesPerBody;
  const PoseFrames decimated = read_trajectory(h5_ / "trajectory.h5", names, two_frames);
  EXPECT_LT(decimated.selection.frames.size(), 6u);
  expect_same(read_trajectory(csv_ / "trajectory.csv", names, two_frames), decimated);
}

TEST_F(ViewTrajectoryH5, APageFromTrajectoryH5HasTheCsvPagesPoses) {
  const ViewPage from_csv = build_view_page(csv_);
  const ViewPage from_h5 = build_view_page(h5_);
  EXPECT_EQ(from_csv.trajectory, "trajectory.csv");
  EXPECT_EQ(from_h5.trajectory, "trajectory.h5");
  EXPECT_EQ(from_h5.frames, 6);
  EXPECT_EQ(from_h5.source_frames, from_csv.source_frames);
  const auto poses = [](const std::string& html) {
    const std::string open = std::string("id=\"") + std::string(kPosesElementId) + "\">";
    const std::size_t from = html.find(open) + open.size();
    return html.substr(from, html.find("</script>", from) - from);
  };
  EXPECT_EQ(poses(from_h5.html), poses(from_csv.html));
}

TEST_F(ViewTrajectoryH5, ADamagedTrajectoryH5IsAnInputErrorNamingIt) {
  const std::string bytes = test::read_file(h5_ / "trajectory.h5");
  std::ofstream(h5_ / "trajectory.h5", std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 2);
  try {
    build_view_page(h5_);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind((h5_ / "trajectory.h5").string() + ": not a readable HDF5 file (truncated file", 0),
              0u)
        << e.what();
  }
}

TEST_F(ViewTrajectoryH5, ADirectoryWithNeitherTrajectoryNamesTheCsv) {
  fs::remove(h5_ / "trajectory.h5");
  try {
    build_view_page(h5_);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("trajectory.csv: cannot read file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace affix::viewer
