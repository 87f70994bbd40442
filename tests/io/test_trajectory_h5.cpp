// trajectory.h5 (io/trajectory_h5_*): the writer's numbers come back bit for bit and are those of the
// CSV writer; the layout is plain (compressed) datasets with units and the format version; a frame is on disk as
// soon as write_frame returns; and a file that is not a trajectory, or a damaged one, is one
// InputError naming it.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "affix/error.hpp"
#include "affix/io/csv_reader.hpp"
#include "affix/io/trajectory_format.hpp"
#include "affix/io/trajectory_h5_reader.hpp"
#include "affix/io/trajectory_h5_writer.hpp"
#include "affix/io/trajectory_row.hpp"
#include "affix/io/trajectory_writer.hpp"
#include "support/files.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

const std::vector<std::string> kNames = {"plain", "with, comma", "with \"quote\"", "ünïcödé"};

/// Frame k of kNames: numbers that print long, a matrix that is not a rotation, and at k = 2 the
/// non-finite values a diverging run may write.
std::vector<BodyPose> poses_of(int k) {
  std::vector<BodyPose> poses(kNames.size());
  for (std::size_t b = 0; b < poses.size(); ++b) {
    poses[b].p = Vec3(0.1 * k + b, -1.0 / 3.0, 1e-300);
    poses[b].A = Eigen::AngleAxisd(0.3 * k + b, Vec3(1, 2, 3).normalized()).matrix();
    poses[b].A(2, 1) += 1.0 / 7.0;
  }
  if (k == 2) {
    poses[1].p.x() = std::numeric_limits<double>::infinity();
    poses[3].A(0, 2) = std::nan("");
  }
  return poses;
}

double time_of(int k) { return 0.01 * k; }

class TrajectoryH5 : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("affix_h5_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Writes `frames` frames of poses_of into `file` in the format its name says.
  static void write(const fs::path& file, int frames) {
    std::unique_ptr<TrajectorySink> sink;
    if (is_hdf5_trajectory(file)) sink = std::make_unique<TrajectoryH5Writer>(file, kNames);
    else sink = std::make_unique<TrajectoryWriter>(file, kNames);
    for (int k = 0; k < frames; ++k) sink->write_frame(k, time_of(k), poses_of(k));
  }

  /// The InputError message of reading `file` for kNames; "" when it reads.
  static std::string error_reading(const fs::path& file, const std::vector<std::string>& names = kNames) {
    try {
      TrajectoryH5Reader reader(file, names);
      for (int f = 0; f < reader.frames(); ++f) reader.frame(f);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(TrajectoryH5, ReadsBackWhatTheWriterWroteBitForBit) {
  write(dir_ / "trajectory.h5", 3);
  const TrajectoryH5Reader reader(dir_ / "trajectory.h5", kNames);
  ASSERT_EQ(reader.frames(), 3);
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(same_bits(reader.time(k), time_of(k)));
    const std::vector<double> values = reader.frame(k);
    ASSERT_EQ(values.size(), 12 * kNames.size());
    const std::vector<BodyPose> poses = poses_of(k);
    for (std::size_t b = 0; b < kNames.size(); ++b) {
      for (int i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(values[12 * b + i], poses[b].p(i))) << k << b << i;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          EXPECT_TRUE(same_bits(values[12 * b + 3 + 3 * i + j], poses[b].A(i, j))) << k << b << i << j;
    }
  }
}

TEST_F(TrajectoryH5, HoldsTheNumbersOfTheCsvRowsInTheirOrder) {
  write(dir_ / "trajectory.csv", 3);
  write(dir_ / "trajectory.h5", 3);
  const TrajectoryH5Reader h5(dir_ / "trajectory.h5", kNames);
  CsvReader csv(dir_ / "trajectory.csv");
  check_trajectory_header(csv, csv.read_header());
  std::string line;
  for (int k = 0; k < 3; ++k) {
    const std::vector<double> values = h5.frame(k);
    for (std::size_t b = 0; b < kNames.size(); ++b) {
      ASSERT_TRUE(csv.next_row(line));
      const TrajectoryRow row = parse_trajectory_row(csv, line);
      EXPECT_EQ(row.frame, k);
      EXPECT_TRUE(same_bits(row.time, h5.time(k)));
      EXPECT_EQ(row.body, kNames[b]);
      for (std::size_t j = 0; j < 12; ++j)
        EXPECT_TRUE(same_bits(row.values[j], values[12 * b + j])) << "frame " << k << " body " << b << " column " << j;
    }
  }
  EXPECT_FALSE(csv.next_row(line));
}

/// The string value of attribute `name` of `object`.
std::string string_attribute(hid_t object, const char* name) {
  const hid_t attribute = H5Aopen(object, name, H5P_DEFAULT);
  const hid_t type = H5Aget_type(attribute);
  char* text = nullptr;
  EXPECT_GT(H5Tis_variable_str(type), 0) << name;
  H5Aread(attribute, type, &text);
  std::string value = text != nullptr ? text : "";
  H5free_memory(text);
  H5Tclose(type);
  H5Aclose(attribute);
  return value;
}

TEST_F(TrajectoryH5, IsPlainDatasetsExtendibleAlongFramesWithUnitsAndTheFormatVersion) {
  write(dir_ / "trajectory.h5", 2);
  const hid_t file = H5Fopen((dir_ / "trajectory.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  EXPECT_EQ(string_attribute(file, "affix_format"), "trajectory");
  int version = 0;
  const hid_t version_attribute = H5Aopen(file, "affix_format_version", H5P_DEFAULT);
  H5Aread(version_attribute, H5T_NATIVE_INT, &version);
  H5Aclose(version_attribute);
  EXPECT_EQ(version, 1);

  const hsize_t bodies = kNames.size();
  struct Expected {
    const char* name;
    std::vector<hsize_t> dims;
    const char* units;
  };
  for (const Expected& e : {Expected{"time", {2}, "s"}, Expected{"position", {2, bodies, 3}, "m"},
                            Expected{"rotation", {2, bodies, 3, 3}, "1"}}) {
    const hid_t dataset = H5Dopen2(file, e.name, H5P_DEFAULT);
    ASSERT_GE(dataset, 0) << e.name;
    const hid_t space = H5Dget_space(dataset);
    std::vector<hsize_t> dims(e.dims.size()), max(e.dims.size());
    ASSERT_EQ(H5Sget_simple_extent_ndims(space), static_cast<int>(e.dims.size())) << e.name;
    H5Sget_simple_extent_dims(space, dims.data(), max.data());
    EXPECT_EQ(dims, e.dims) << e.name;
    EXPECT_EQ(max[0], H5S_UNLIMITED) << e.name;  // frames are appended
    for (std::size_t i = 1; i < max.size(); ++i) EXPECT_EQ(max[i], dims[i]) << e.name;
    const hid_t type = H5Dget_type(dataset);
    EXPECT_GT(H5Tequal(type, H5T_IEEE_F64LE), 0) << e.name;
    EXPECT_EQ(string_attribute(dataset, "units"), e.units);
    const hid_t properties = H5Dget_create_plist(dataset);
    EXPECT_EQ(H5Pget_layout(properties), H5D_CHUNKED) << e.name;
    // The poses with HDF5's own shuffle and deflate filters, which every reader has; /time plain.
    const bool poses = std::string(e.name) != "time";
    ASSERT_EQ(H5Pget_nfilters(properties), poses ? 2 : 0) << e.name;
    for (int i = 0; poses && i < 2; ++i) {
      unsigned flags = 0;
      std::size_t values = 0;
      EXPECT_EQ(H5Pget_filter2(properties, static_cast<unsigned>(i), &flags, &values, nullptr, 0, nullptr, nullptr),
                i == 0 ? H5Z_FILTER_SHUFFLE : H5Z_FILTER_DEFLATE);
    }
    H5Pclose(properties);
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(dataset);
  }
  // Names: fixed-length UTF-8, null-padded to the longest.
  std::size_t longest = 0;
  for (const std::string& name : kNames) longest = std::max(longest, name.size());
  const hid_t body = H5Dopen2(file, "body", H5P_DEFAULT);
  const hid_t type = H5Dget_type(body);
  EXPECT_EQ(H5Tis_variable_str(type), 0);
  EXPECT_EQ(H5Tget_cset(type), H5T_CSET_UTF8);
  EXPECT_EQ(H5Tget_strpad(type), H5T_STR_NULLPAD);
  ASSERT_EQ(H5Tget_size(type), longest);
  std::vector<char> names(kNames.size() * longest);
  H5Dread(body, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, names.data());
  for (std::size_t b = 0; b < kNames.size(); ++b)
    EXPECT_EQ(std::string(&names[b * longest], longest), kNames[b] + std::string(longest - kNames[b].size(), '\0'));
  H5Tclose(type);
  H5Dclose(body);
  H5Fclose(file);
}

TEST_F(TrajectoryH5, AFrameIsOnDiskAsSoonAsItIsWritten) {
  // A copy taken while the writer is open is what a run killed at that moment leaves behind.
  TrajectoryH5Writer writer(dir_ / "trajectory.h5", kNames);
  for (int k = 0; k < 2; ++k) writer.write_frame(k, time_of(k), poses_of(k));
  fs::copy_file(dir_ / "trajectory.h5", dir_ / "copy.h5");
  const TrajectoryH5Reader reader(dir_ / "copy.h5", kNames);
  ASSERT_EQ(reader.frames(), 2);
  EXPECT_TRUE(same_bits(reader.frame(1)[0], poses_of(1)[0].p.x()));
}

TEST_F(TrajectoryH5, UnwritableLocationIsAnOutputErrorNamingTheFile) {
  try {
    TrajectoryH5Writer(dir_ / "no" / "such" / "dir" / "t.h5", kNames);
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.h5: cannot create the output file (unable to open file"), std::string::npos)
        << e.what();
  }
}

TEST_F(TrajectoryH5, TheBodiesMustBeThoseOfMeshesJsonInOrder) {
  write(dir_ / "trajectory.h5", 1);
  const std::string file = (dir_ / "trajectory.h5").string();
  EXPECT_EQ(error_reading(dir_ / "trajectory.h5", {"plain", "with, comma", "with \"quote\""}),
            file + ": /body: 4 bodies where meshes.json has 3");
  EXPECT_EQ(error_reading(dir_ / "trajectory.h5", {"plain", "with, comma", "ünïcödé", "with \"quote\""}),
            file + ": /body: body 'with \"quote\"' where meshes.json has 'ünïcödé' (body 3 of 4)");
}

/// Writes an HDF5 file with the root attribute affix_format_version = `version` and a float64
/// dataset per name and shape of `datasets`; no /body unless listed.
void write_other_h5(const fs::path& file, int version, const std::vector<std::pair<std::string, std::vector<hsize_t>>>& datasets) {
  const hid_t h5 = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t scalar = H5Screate(H5S_SCALAR);
  const hid_t attribute = H5Acreate2(h5, "affix_format_version", H5T_NATIVE_INT, scalar, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attribute, H5T_NATIVE_INT, &version);
  H5Aclose(attribute);
  H5Sclose(scalar);
  for (const auto& [name, dims] : datasets) {
    const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    const hid_t dataset = H5Dcreate2(h5, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(dataset);
    H5Sclose(space);
  }
  H5Fclose(h5);
}

TEST_F(TrajectoryH5, WhatIsNotAnAffixTrajectoryIsRefusedByName) {
  const fs::path file = dir_ / "trajectory.h5";
  const std::string name = file.string() + ": ";
  EXPECT_EQ(error_reading(dir_ / "missing.h5"),
            (dir_ / "missing.h5").string() +
                ": cannot read file (is this a run's output directory? `affix run --format hdf5` writes it)");
  std::ofstream(file, std::ios::binary) << "frame,time,body\n";
  EXPECT_EQ(error_reading(file).rfind(name + "not a readable HDF5 file (", 0), 0u) << error_reading(file);
  std::ofstream(file, std::ios::binary | std::ios::trunc);
  EXPECT_EQ(error_reading(file).rfind(name + "not a readable HDF5 file (", 0), 0u) << error_reading(file);

  write_other_h5(file, 2, {});
  EXPECT_EQ(error_reading(file), name + "affix_format_version 2: expected 1 (this affix reads that version only)");
  write_other_h5(file, 1, {{"time", {3}}});
  EXPECT_EQ(error_reading(file), name + "no dataset /body (an affix trajectory has /time, /body, /position and /rotation)");
  const hsize_t b = kNames.size();
  write_other_h5(file, 1, {{"time", {3}}, {"body", {b}}, {"position", {3, b, 3}}, {"rotation", {3, b, 3, 3}}});
  EXPECT_EQ(error_reading(file), name + "/body: expected fixed-length strings");

  const hid_t h5 = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  H5Fclose(h5);
  EXPECT_EQ(error_reading(file),
            name + "no attribute affix_format_version (expected a trajectory.h5 written by `affix run`)");
}

TEST_F(TrajectoryH5, ShapesAndTimesAreChecked) {
  // A real file whose datasets are then replaced one at a time with a wrong one.
  const fs::path file = dir_ / "trajectory.h5";
  const std::string name = file.string() + ": ";
  const auto replaced = [&](const char* dataset, std::vector<hsize_t> dims, std::vector<double> values = {}) {
    write(file, 3);
    const hid_t h5 = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(h5, dataset, H5P_DEFAULT);
    const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    const hid_t created = H5Dcreate2(h5, dataset, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (!values.empty()) H5Dwrite(created, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Dclose(created);
    H5Sclose(space);
    H5Fclose(h5);
    return error_reading(file);
  };
  const hsize_t b = kNames.size();
  EXPECT_EQ(replaced("position", {3, b, 4}), name + "/position: expected shape [frames][4][3], got shape [3][4][4]");
  EXPECT_EQ(replaced("rotation", {3, b, 9}), name + "/rotation: expected shape [frames][4][3][3], got shape [3][4][9]");
  EXPECT_EQ(replaced("time", {3}, {0.0, 0.02, 0.01}), name + "/time: time goes back: frame 2 is earlier than frame 1");
  EXPECT_EQ(replaced("time", {3}, {0.0, std::nan(""), 0.02}), name + "/time: frame 1: expected a finite time ≥ 0, got nan");
  // A frame that only some datasets hold (a run killed while appending it) is left out.
  EXPECT_EQ(replaced("time", {2}, {0.0, 0.01}), "");
  EXPECT_EQ(TrajectoryH5Reader(file, kNames).frames(), 2);
  EXPECT_EQ(replaced("time", {0}), name + "no complete frame");
}

TEST_F(TrajectoryH5, ATruncatedOrDamagedFileIsOneInputErrorAndNoCrash) {
  const fs::path whole = dir_ / "whole.h5";
  write(whole, 40);
  const std::string bytes = test::read_file(whole);
  ASSERT_GT(bytes.size(), 1000u);
  const fs::path file = dir_ / "trajectory.h5";
  const auto check = [&](const std::string& contents, const std::string& label) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << contents;
    const std::string message = error_reading(file);
    if (message.empty()) return;  // a damage that left every frame read is no error
    EXPECT_EQ(message.rfind(file.string() + ": ", 0), 0u) << label << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << label << ": " << message;
  };
  // Cut at 64 places from the first byte to the last: every cut is refused (HDF5 checks the end of
  // the file against the size its superblock records) without a crash.
  for (int i = 0; i < 64; ++i) {
    const std::size_t size = bytes.size() * i / 64;
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes.substr(0, size);
    EXPECT_NE(error_reading(file), "") << "cut at " << size << " of " << bytes.size();
    check(bytes.substr(0, size), "cut at " + std::to_string(size));
  }
  // Zeroed stretches of the file's first kilobytes, where the superblock and the object headers are.
  for (std::size_t at = 0; at < 2048; at += 64) {
    std::string damaged = bytes;
    std::fill_n(damaged.begin() + static_cast<std::ptrdiff_t>(at), 64, '\0');
    check(damaged, "64 zero bytes at " + std::to_string(at));
  }
}

TEST(TrajectoryFormat, OptionsFileNamesAndTheDefaultByBodyCount) {
  EXPECT_EQ(parse_trajectory_format("csv"), TrajectoryFormat::csv);
  EXPECT_EQ(parse_trajectory_format("hdf5"), TrajectoryFormat::hdf5);
  for (const char* bad : {"", "CSV", "h5", "hdf5 "}) {
    try {
      parse_trajectory_format(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--format ", 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find(": expected csv or hdf5"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(default_trajectory_format(1), TrajectoryFormat::csv);
  EXPECT_EQ(default_trajectory_format(kMaxCsvTrajectoryBodies), TrajectoryFormat::csv);
  EXPECT_EQ(default_trajectory_format(kMaxCsvTrajectoryBodies + 1), TrajectoryFormat::hdf5);
  EXPECT_STREQ(trajectory_file_name(TrajectoryFormat::csv), "trajectory.csv");
  EXPECT_STREQ(trajectory_file_name(TrajectoryFormat::hdf5), "trajectory.h5");
}

TEST_F(TrajectoryH5, ReadersTakeTheH5OnlyWhereThereIsNoCsv) {
  EXPECT_EQ(trajectory_file(dir_), dir_ / "trajectory.csv");  // neither: the contract's file is missing
  std::ofstream(dir_ / "trajectory.h5") << "";
  EXPECT_EQ(trajectory_file(dir_), dir_ / "trajectory.h5");
  std::ofstream(dir_ / "trajectory.csv") << "";
  EXPECT_EQ(trajectory_file(dir_), dir_ / "trajectory.csv");
}

}  // namespace
}  // namespace affix
