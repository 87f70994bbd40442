// joints.csv and contacts.csv (DESIGN §4): the exact headers, one row per record per frame with names
// for indices (`world`, `ground`), numbers that round-trip, rows on disk as soon as a frame is written,
// write errors naming the file, and the joint error of each joint type from its two anchors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "affix/error.hpp"
#include "affix/io/contacts_writer.hpp"
#include "affix/io/csv_reader.hpp"
#include "affix/io/joints_writer.hpp"
#include "support/files.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

class RecordWritersTest : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("affix_records_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

using test::read_lines;

double number(const std::string& field) { return std::strtod(field.c_str(), nullptr); }
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

JointDef joint(const std::string& name, JointType type, const std::string& body1, const std::string& body2) {
  JointDef j;
  j.name = name;
  j.type = type;
  j.body1 = body1;
  j.body2 = body2;
  return j;
}

JointRecord record(int joint, const Vec3& a1, const Vec3& a2, const Vec3& axis = Vec3::UnitX()) {
  JointRecord r;
  r.joint = joint;
  r.anchor1 = a1;
  r.anchor2 = a2;
  r.axis1 = r.axis2 = axis;
  return r;
}

// ---------------------------------------------------------------- joints.csv

TEST_F(RecordWritersTest, JointsHeaderIsTheContract) {
  { JointsWriter writer(dir_ / "joints.csv", {}); }
  const auto lines = read_lines(dir_ / "joints.csv");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "frame,time,joint,body1,body2,x1,y1,z1,x2,y2,z2,ax1,ay1,az1,ax2,ay2,az2,error");
}

TEST_F(RecordWritersTest, JointsHaveOneRowPerJointPerFrameWithNamesAnchorsAxesAndTheGap) {
  const std::vector<JointDef> joints = {joint("pivot", JointType::ball, "bob", "world"),
                                        joint("hinge, 2", JointType::hinge, "a", "b")};
  JointRecord r = record(1, Vec3(0.1, 1.0 / 3.0, -2.0), Vec3(0.1, 1.0 / 3.0, -2.0 + 3e-7));
  r.axis1 = Vec3(0.6, 0.8, 0.0);
  r.axis2 = Vec3(0.0, 0.0, 1.0);
  {
    JointsWriter writer(dir_ / "joints.csv", joints);
    writer.write_frame(0, 0.0, {record(0, Vec3(0, 0, 1), Vec3(0, 0, 1)), record(1, Vec3::Zero(), Vec3::Zero())});
    writer.write_frame(7, 0.07, {record(0, Vec3(0, 0, 1), Vec3(0, 0, 1)), r});
  }
  const auto lines = read_lines(dir_ / "joints.csv");
  ASSERT_EQ(lines.size(), 5u);  // header + 2 frames × 2 joints
  EXPECT_EQ(lines[1], "0,0,pivot,bob,world,0,0,1,0,0,1,1,0,0,1,0,0,0");
  const auto fields = split_csv_line(lines[4]);
  ASSERT_EQ(fields.size(), 18u);
  EXPECT_EQ(fields[0], "7");
  EXPECT_TRUE(same_bits(number(fields[1]), 0.07));
  EXPECT_EQ(fields[2], "hinge, 2");
  EXPECT_EQ(fields[3], "a");
  EXPECT_EQ(fields[4], "b");
  const Vec3* vectors[] = {&r.anchor1, &r.anchor2, &r.axis1, &r.axis2};
  for (int v = 0; v < 4; ++v)
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(number(fields[5 + 3 * v + i]), (*vectors[v])(i))) << v << i;
  EXPECT_TRUE(same_bits(number(fields[17]), (r.anchor1 - r.anchor2).norm()));
}

TEST_F(RecordWritersTest, JointRowsAreOnDiskAsSoonAsTheFrameIsWritten) {
  JointsWriter writer(dir_ / "joints.csv", std::vector<JointDef>{joint("j", JointType::ball, "a", "world")});
  writer.write_frame(0, 0.0, {record(0, Vec3::Zero(), Vec3::Zero())});
  EXPECT_EQ(read_lines(dir_ / "joints.csv").size(), 2u);  // the writer is still open
}

TEST_F(RecordWritersTest, AnUncreatableJointsFileIsAnOutputErrorNamingIt) {
  try {
    JointsWriter(dir_ / "no" / "joints.csv", {});
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("joints.csv: cannot create the output file"), std::string::npos) << e.what();
  }
}

TEST(JointGap, PointJointsShowTheDistanceBetweenTheirAnchors) {
  for (const JointType type : {JointType::ball, JointType::hinge, JointType::universal, JointType::fixed,
                               JointType::cone_twist}) {
    EXPECT_NEAR(joint_gap(joint("j", type, "a", "b"), record(0, Vec3(1, 2, 3), Vec3(1, 2 + 3e-4, 3 - 4e-4))), 5e-4,
                1e-15);
  }
}

TEST(JointGap, SlidingJointsShowOnlyWhatIsOffTheirLineOrPlane) {
  const Vec3 axis = Vec3(1, 1, 0).normalized();
  const Vec3 off = Vec3(1, -1, 0).normalized();
  // 2 m along the axis (free), 1e-4 m across it (error).
  const JointRecord r = record(0, Vec3(0, 0, 1) + 2.0 * axis + 1e-4 * off, Vec3(0, 0, 1), axis);
  EXPECT_NEAR(joint_gap(joint("p", JointType::prismatic, "a", "b"), r), 1e-4, 1e-15);
  JointDef line = joint("s", JointType::slider, "a", "b");
  line.direction = axis;
  EXPECT_NEAR(joint_gap(line, r), 1e-4, 1e-15);
  // A slider on a plane: moving in the plane is free, 3e-5 m along the normal is the error.
  JointDef plane = joint("s", JointType::slider, "a", "b");
  plane.normal = axis;
  EXPECT_NEAR(joint_gap(plane, record(0, Vec3(5, -5, 7) + 3e-5 * axis, Vec3::Zero(), axis)), 3e-5, 1e-15);
}

TEST(JointGap, DistanceJointsShowHowFarTheLengthIsOff) {
  JointDef d = joint("d", JointType::distance, "a", "b");
  d.anchor1 = Vec3(0, 0, 2);
  d.anchor2 = Vec3(0, 0, 0.5);  // initial distance 1.5
  EXPECT_NEAR(joint_gap(d, record(0, Vec3(1.5 + 2e-4, 0, 0), Vec3::Zero())), 2e-4, 1e-15);
  d.length = 1.0;
  EXPECT_NEAR(joint_gap(d, record(0, Vec3(0, 0.999, 0), Vec3::Zero())), 1e-3, 1e-15);
  // Only bounds: 0 inside [min, max], the excess outside.
  JointDef rope = joint("rope", JointType::distance, "a", "b");
  rope.max_length = 2.0;
  rope.min_length = 0.5;
  EXPECT_EQ(joint_gap(rope, record(0, Vec3(1, 0, 0), Vec3::Zero())), 0.0);
  EXPECT_NEAR(joint_gap(rope, record(0, Vec3(2.25, 0, 0), Vec3::Zero())), 0.25, 1e-15);
  EXPECT_NEAR(joint_gap(rope, record(0, Vec3(0.375, 0, 0), Vec3::Zero())), 0.125, 1e-15);
}

// ---------------------------------------------------------------- contacts.csv

TEST_F(RecordWritersTest, ContactsHeaderIsTheContract) {
  { ContactsWriter writer(dir_ / "contacts.csv", {"box"}); }
  const auto lines = read_lines(dir_ / "contacts.csv");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "frame,time,body1,body2,x,y,z,nx,ny,nz,distance,force");
}

TEST_F(RecordWritersTest, ContactsHaveOneRowPerContactWithGroundForBodyTwoMinusOne) {
  ContactRecord ground;
  ground.body1 = 1;
  ground.body2 = -1;
  ground.point = Vec3(0.1, -0.1, 2e-4);
  ground.distance = 4e-4;
  ground.force = 19.62;
  ContactRecord pair;
  pair.body1 = 0;
  pair.body2 = 1;
  pair.point = Vec3(1.0 / 3.0, 0.25, 1.0);
  pair.normal = Vec3(0.6, 0.0, -0.8);
  pair.distance = 1e-5;
  pair.force = 1.0 / 7.0;
  {
    ContactsWriter writer(dir_ / "contacts.csv", {"top", "box \"b\""});
    writer.write_frame(0, 0.0, {});  // no contacts: no rows
    writer.write_frame(1, 0.1, {ground, pair});
  }
  const auto lines = read_lines(dir_ / "contacts.csv");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "1,0.10000000000000001,\"box \"\"b\"\"\",ground,0.10000000000000001,-0.10000000000000001,"
                      "0.00020000000000000001,0,0,1,0.00040000000000000002,19.620000000000001");
  const auto fields = split_csv_line(lines[2]);
  ASSERT_EQ(fields.size(), 12u);
  EXPECT_EQ(fields[2], "top");
  EXPECT_EQ(fields[3], "box \"b\"");
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(number(fields[4 + i]), pair.point(i)));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(number(fields[7 + i]), pair.normal(i)));
  EXPECT_TRUE(same_bits(number(fields[10]), pair.distance));
  EXPECT_TRUE(same_bits(number(fields[11]), pair.force));
}

TEST_F(RecordWritersTest, AnUncreatableContactsFileIsAnOutputErrorNamingIt) {
  fs::create_directories(dir_ / "contacts.csv");  // a directory where the file should go
  try {
    ContactsWriter(dir_ / "contacts.csv", {"box"});
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("contacts.csv: cannot create the output file"), std::string::npos) << e.what();
  }
}

}  // namespace

// A run keeps a JointTable, not the scene's joints, for joints.csv: each joint's prefix and gap rule
// must be the ones of its own index.
TEST(JointTable, KeepsEachJointsQuotedNamesAndItsOwnGapRule) {
  JointDef rope = joint("rope", JointType::distance, "a", "b");
  rope.max_length = 2.0;  // only a bound: the gap is the excess over it
  std::vector<JointDef> joints = {joint("pivot", JointType::ball, "bob", "world"),
                                  joint("hinge, 2", JointType::hinge, "a", "b"), rope};
  const JointTable table(joints);
  joints.clear();  // the table owns what it needs
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table.prefix(0), "pivot,bob,world");
  EXPECT_EQ(table.prefix(1), "\"hinge, 2\",a,b");
  EXPECT_EQ(table.prefix(2), "rope,a,b");
  const JointRecord r = record(0, Vec3(2.5, 0, 0), Vec3::Zero());
  EXPECT_NEAR(table.gap(0, r), 2.5, 1e-15);  // |a₁ − a₂|
  EXPECT_NEAR(table.gap(2, r), 0.5, 1e-15);  // 2.5 − max
}

}  // namespace affix
