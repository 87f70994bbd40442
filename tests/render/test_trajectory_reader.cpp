// trajectory.csv read back: what TrajectoryWriter wrote comes back bit for bit, quoted names included;
// `--every` keeps every n-th frame; a file that is not a trajectory, or whose rows are out of the
// writer's order, is refused naming the file and the line.
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "affix/error.hpp"
#include "affix/io/csv_reader.hpp"
#include "affix/io/trajectory_h5_writer.hpp"
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
  const Trajectory trajectory = read_trajectory(dir.path() / "trajectory.csv", names);
  EXPECT_EQ(trajectory.frame_count, 3);
  const std::vector<TrajectoryFrame>& read = trajectory.frames;
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

TEST(TrajectoryReader, ReadsTheSameFromTrajectoryH5AsFromTrajectoryCsv) {
  ScratchDir dir;
  const std::vector<std::string> names = {"plain", "with, comma"};
  {
    TrajectoryWriter csv(dir.path() / "trajectory.csv", names);
    TrajectoryH5Writer h5(dir.path() / "trajectory.h5", names);
    for (int k = 0; k < 5; ++k) {
      std::vector<BodyPose> poses(2);
      for (int b = 0; b < 2; ++b) {
        poses[b].p = Vec3(0.1 * k + b, -1.0 / 3.0, 1e-300);
        poses[b].A = Eigen::AngleAxisd(0.3 * k + b, Vec3(1, 2, 3).normalized()).matrix();
      }
      csv.write_frame(k, 0.01 * k, poses);
      h5.write_frame(k, 0.01 * k, poses);
    }
  }
  for (const int every : {1, 2}) {
    const Trajectory from_csv = read_trajectory(dir.path() / "trajectory.csv", names, every);
    const Trajectory from_h5 = read_trajectory(dir.path() / "trajectory.h5", names, every);
    EXPECT_EQ(from_h5.frame_count, 5);
    EXPECT_EQ(from_h5.frame_count, from_csv.frame_count);
    ASSERT_EQ(from_h5.frames.size(), from_csv.frames.size()) << every;
    for (std::size_t k = 0; k < from_h5.frames.size(); ++k) {
      EXPECT_EQ(from_h5.frames[k].index, from_csv.frames[k].index);
      EXPECT_EQ(from_h5.frames[k].time, from_csv.frames[k].time);
      for (int b = 0; b < 2; ++b) {
        EXPECT_EQ(from_h5.frames[k].poses[b].p, from_csv.frames[k].poses[b].p);
        EXPECT_EQ(from_h5.frames[k].poses[b].A, from_csv.frames[k].poses[b].A);
      }
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
  EXPECT_NE(error_for(kHeader + "0,0,a,x,0,0,1,0,0,0,1,0,0,0,1\n").find("line 2: x (column 4): expected a number, got 'x'"),
            std::string::npos);
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
  const Trajectory trajectory = read_trajectory(dir.path() / "trajectory.csv", {"a"});
  EXPECT_TRUE(trajectory.frames.empty());
  EXPECT_EQ(trajectory.frame_count, 0);
}

TEST(TrajectoryReader, LeavesOutATrailingIncompleteFrame) {
  ScratchDir dir;
  const auto file = dir.path() / "trajectory.csv";
  std::ofstream(file) << kHeader + "0,0" + kRowA + "0,0" + kRowB + "1,0.1" + kRowA;
  const Trajectory trajectory = read_trajectory(file, {"a", "b"});
  EXPECT_EQ(trajectory.frame_count, 1);
  ASSERT_EQ(trajectory.frames.size(), 1u);
  EXPECT_EQ(trajectory.frames[0].poses.size(), 2u);
}

/// `frames` frames of bodies a and b, frame k at time k/10.
std::string two_bodies(int frames) {
  std::string text = kHeader;
  for (int k = 0; k < frames; ++k) {
    std::string start = std::to_string(k);
    start.append(",").append(std::to_string(0.1 * k));
    text.append(start).append(kRowA).append(start).append(kRowB);
  }
  return text;
}

TEST(TrajectoryReader, EveryNthFrameFromTheFirstIsKept) {
  ScratchDir dir;
  const auto file = dir.path() / "trajectory.csv";
  std::ofstream(file) << two_bodies(10);
  for (const auto& [every, kept] : {std::pair{1, std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
                                    {3, {0, 3, 6, 9}}, {4, {0, 4, 8}}, {20, {0}}}) {
    const Trajectory trajectory = read_trajectory(file, {"a", "b"}, every);
    EXPECT_EQ(trajectory.frame_count, 10);
    std::vector<int> indices;
    for (const TrajectoryFrame& frame : trajectory.frames) {
      indices.push_back(frame.index);
      EXPECT_EQ(frame.poses.size(), 2u);
    }
    EXPECT_EQ(indices, kept) << "every " << every;
  }
}

TEST(TrajectoryReader, RefusesRowsOutOfTheWritersOrder) {
  EXPECT_NE(error_for(kHeader + "1,0" + kRowA).find("line 2: frame 1 where frame 0 comes next"), std::string::npos);
  EXPECT_NE(error_for(two_bodies(1) + "2,0.2" + kRowA).find("line 4: frame 2 where frame 1 comes next"),
            std::string::npos);
  EXPECT_NE(error_for(two_bodies(1) + "0,0" + kRowA).find("line 4: frame 0 already has all 2 bodies"),
            std::string::npos);
  EXPECT_NE(error_for(kHeader + "0,0" + kRowA + "0,0.5" + kRowB).find("line 3: time differs"), std::string::npos);
  EXPECT_NE(error_for(two_bodies(2) + "2,0.05" + kRowA).find("line 6: time goes back"), std::string::npos);
  EXPECT_NE(error_for(kHeader + "0,0,c,0,0,0,1,0,0,0,1,0,0,0,1\n").find("line 2: body 'c' where meshes.json has 'a'"),
            std::string::npos);
  EXPECT_NE(error_for(kHeader + "-1,0" + kRowA).find("line 2: frame (column 1): expected a frame number"),
            std::string::npos);
  EXPECT_NE(error_for(kHeader + "0,nan" + kRowA).find("line 2: time (column 2): expected a time"), std::string::npos);
  EXPECT_NE(error_for(kHeader + "0,0" + kRowA + "\n").find("line 3: expected 15 fields, got 1"), std::string::npos);
}

TEST(TrajectoryReader, ALineWithoutEndIsRefusedBeforeItIsHeld) {
  const std::string error = error_for(kHeader + std::string(kMaxCsvLineBytes + 10, '7'));
  EXPECT_NE(error.find("line 2: line longer than"), std::string::npos) << error;
}

TEST(TrajectoryReader, NonFiniteAndHugePosesAreNumbers) {
  // A diverging run may write them; drawing decides what to do with them (gl_renderer.hpp).
  EXPECT_EQ(error_for(kHeader + "0,0,a,nan,inf,-inf,1e308,0,0,0,1,0,0,0,1\n0,0" + kRowB), "");
}

}  // namespace
}  // namespace affix
