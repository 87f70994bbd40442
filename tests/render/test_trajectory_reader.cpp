// trajectory.csv read back: what TrajectoryWriter wrote comes back bit for bit, quoted names included;
// a file that is not a trajectory is refused naming the file and the line.
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "affix/error.hpp"
#include "affix/io/trajectory_writer.hpp"
#include "affix/render/trajectory_reader.hpp"
#include "run_fixture.hpp"

namespace affix {
namespace {

using test::ScratchDir;

TEST(TrajectoryReader, ReadsBackWhatTheWriterWrote) {
  ScratchDir dir;
  const std::vector<std::string> names = {"plain", "with, comma", "with \"quote\""};
  std::vector<std::vector<BodyPose>> frames(3, std::vector<BodyPose>(3));
  for (int k = 0; k < 3; ++k) {
    for (int b = 0; b < 3; ++b) {
      frames[k][b].p = Vec3(0.1 * k + b, -1.0 / 3.0, 1e-300);
      frames[k][b].A = Eigen::AngleAxisd(0.3 * k + b, Vec3(1, 2, 3).normalized()).matrix();
      frames[k][b].A(2, 1) += 1.0 / 7.0;  // not a rotation: every entry must come back on its own
    }
  }
  {
    TrajectoryWriter writer(dir.path() / "trajectory.csv", names);
    for (int k = 0; k < 3; ++k) writer.write_frame(k, 0.01 * k, frames[k]);
  }
  const std::vector<TrajectoryFrame> read = read_trajectory(dir.path() / "trajectory.csv", names);
  ASSERT_EQ(read.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(read[k].index, k);
    EXPECT_EQ(read[k].time, 0.01 * k);
    ASSERT_EQ(read[k].poses.size(), 3u);
    for (int b = 0; b < 3; ++b) {
      EXPECT_EQ(read[k].poses[b].p, frames[k][b].p);
      EXPECT_EQ(read[k].poses[b].A, frames[k][b].A);
    }
  }
}

/// The InputError message reading `text` as trajectory.csv of bodies a and b gives, or "" for none.
std::string error_for(const std::string& text) {
  ScratchDir dir;
  const auto file = dir.path() / "trajectory.csv";
  std::ofstream(file) << text;
  try {
    read_trajectory(file, {"a", "b"});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kHeader = std::string(TrajectoryWriter::kHeader) + "\n";
const std::string kRowA = ",a,0,0,0,1,0,0,0,1,0,0,0,1\n";
const std::string kRowB = ",b,0,0,0,1,0,0,0,1,0,0,0,1\n";

TEST(TrajectoryReader, RefusesWhatIsNotATrajectory) {
  EXPECT_NE(error_for("x,y\n").find("line 1: expected the header"), std::string::npos);
  EXPECT_NE(error_for(kHeader + "0,0" + kRowB).find("line 2: body 'b' where meshes.json has 'a'"), std::string::npos);
  EXPECT_NE(error_for(kHeader + "0,0,a,1,2\n").find("line 2: expected 15 fields"), std::string::npos);
  EXPECT_NE(error_for(kHeader + "0,0,a,x,0,0,1,0,0,0,1,0,0,0,1\n").find("line 2: expected a number"), std::string::npos);
  // Frame 0 lacks b, and frame 1 follows: the gap is in the middle of the file.
  EXPECT_NE(error_for(kHeader + "0,0" + kRowA + "1,0.1" + kRowA + "1,0.1" + kRowB).find("frame 0 has 1 of 2 bodies"),
            std::string::npos);
  try {
    read_trajectory("/nonexistent/trajectory.csv", {"a"});
    FAIL() << "no error for a missing file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/trajectory.csv"), std::string::npos);
  }
}

TEST(TrajectoryReader, AHeaderAloneHasNoFrames) {
  ScratchDir dir;
  std::ofstream(dir.path() / "trajectory.csv") << kHeader;
  EXPECT_TRUE(read_trajectory(dir.path() / "trajectory.csv", {"a"}).empty());
}

TEST(TrajectoryReader, LeavesOutATrailingIncompleteFrame) {
  ScratchDir dir;
  const auto file = dir.path() / "trajectory.csv";
  std::ofstream(file) << kHeader + "0,0" + kRowA + "0,0" + kRowB + "1,0.1" + kRowA;
  const auto frames = read_trajectory(file, {"a", "b"});
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].poses.size(), 2u);
}

}  // namespace
}  // namespace affix
