// The joint records of an `affix run --format hdf5` (io/trajectory_h5_layout.hpp, the /joint… datasets)
// are joints.csv's numbers: the same scene run once as CSV and once as HDF5 gives, frame by frame and
// joint by joint, the same names, anchors, axes and error, read here through HDF5's own C API (as h5py
// would) and compared with the CSV's round-tripped text. The HDF5 run writes joints.csv too (DESIGN §4), and `affix
// view` draws the same joint anchors from it as from joints.csv.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/io/csv_reader.hpp"
#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

/// A three-link chain of boxes on a ball, a hinge and a prismatic joint (body2 `world` for the first),
/// released sideways so that every joint moves.
nlohmann::json chain(const std::string& solver) {
  nlohmann::json scene = nlohmann::json::parse(R"({
    "version": 1,
    "settings": { "dt": 0.01, "duration": 0.2, "output_fps": 50 },
    "bodies": [
      { "name": "a", "shape": { "box": [0.1, 0.1, 0.4] }, "position": [0, 0, 0.8], "velocity": [1, 0, 0] },
      { "name": "b, quoted", "shape": { "box": [0.1, 0.1, 0.4] }, "position": [0, 0, 0.4] },
      { "name": "c", "shape": { "box": [0.1, 0.1, 0.4] }, "position": [0, 0, 0.0] }
    ],
    "joints": [
      { "name": "top", "type": "ball", "body1": "a", "body2": "world", "anchor": [0, 0, 1] },
      { "name": "mid", "type": "hinge", "body1": "b, quoted", "body2": "a", "anchor": [0, 0, 0.6], "axis": [0, 1, 0] },
      { "name": "low", "type": "prismatic", "body1": "c", "body2": "b, quoted", "anchor": [0, 0, 0.2],
        "axis": [0, 0, 1] }
    ]
  })");
  scene["settings"]["solver"] = solver;
  return scene;
}

std::vector<std::vector<std::string>> read_rows(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(split_csv_line(line));
  return rows;
}

/// A float64 dataset whole, with its shape.
std::vector<double> read_doubles(hid_t file, const char* name, std::vector<hsize_t>& shape) {
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  EXPECT_GE(dataset, 0) << name;
  const hid_t space = H5Dget_space(dataset);
  shape.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)), 0);
  H5Sget_simple_extent_dims(space, shape.data(), nullptr);
  hsize_t count = 1;
  for (hsize_t n : shape) count *= n;
  std::vector<double> values(count);
  H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Sclose(space);
  H5Dclose(dataset);
  return values;
}

/// A fixed-length string dataset, null padding removed.
std::vector<std::string> read_strings(hid_t file, const char* name) {
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  EXPECT_GE(dataset, 0) << name;
  const hid_t type = H5Dget_type(dataset);
  const std::size_t size = H5Tget_size(type);
  const hid_t space = H5Dget_space(dataset);
  hsize_t count = 0;
  H5Sget_simple_extent_dims(space, &count, nullptr);
  std::vector<char> text(count * size);
  H5Dread(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data());
  std::vector<std::string> out;
  for (hsize_t k = 0; k < count; ++k) out.emplace_back(std::string(&text[k * size], size).c_str());
  H5Sclose(space);
  H5Tclose(type);
  H5Dclose(dataset);
  return out;
}

class JointRecordsH5 : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("affix_joint_h5_" + std::string(GetParam()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path run(const std::string& format) {
    const fs::path file = dir_ / "scene.json";
    std::ofstream(file) << chain(GetParam()).dump(2);
    const fs::path out = dir_ / format;
    const test::CommandResult r = test::run_command(
        {AFFIX_EXECUTABLE, "run", file.string(), "--out", out.string(), "--quiet", "--format", format});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return out;
  }
  fs::path dir_;
};

TEST_P(JointRecordsH5, EqualJointsCsvFrameByFrame) {
  const fs::path csv_out = run("csv"), h5_out = run("hdf5");
  EXPECT_TRUE(fs::exists(h5_out / "joints.csv")) << "every jointed run writes joints.csv (DESIGN §4)";
  const auto rows = read_rows(csv_out / "joints.csv");
  constexpr std::size_t kJoints = 3, kFrames = 11;  // frames 0 … 10 of 0.2 s at 50 fps
  ASSERT_EQ(rows.size(), kJoints * kFrames);

  const hid_t file = H5Fopen((h5_out / "trajectory.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  EXPECT_EQ(read_strings(file, "joint"), (std::vector<std::string>{"top", "mid", "low"}));
  EXPECT_EQ(read_strings(file, "joint_body1"), (std::vector<std::string>{"a", "b, quoted", "c"}));
  EXPECT_EQ(read_strings(file, "joint_body2"), (std::vector<std::string>{"world", "a", "b, quoted"}));
  std::vector<hsize_t> shape;
  const char* vectors[] = {"joint_anchor1", "joint_anchor2", "joint_axis1", "joint_axis2"};
  for (int v = 0; v < 4; ++v) {
    const std::vector<double> values = read_doubles(file, vectors[v], shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{kFrames, kJoints, 3})) << vectors[v];
    for (std::size_t k = 0; k < rows.size(); ++k)
      for (int i = 0; i < 3; ++i)  // joints.csv writes every double so that it reads back exactly
        EXPECT_EQ(values[3 * k + i], std::stod(rows[k][5 + 3 * v + i])) << vectors[v] << " row " << k;
  }
  const std::vector<double> error = read_doubles(file, "joint_error", shape);
  ASSERT_EQ(shape, (std::vector<hsize_t>{kFrames, kJoints}));
  const std::vector<double> time = read_doubles(file, "time", shape);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(std::stoul(rows[k][0]), k / kJoints);
    EXPECT_EQ(time[k / kJoints], std::stod(rows[k][1]));
    EXPECT_EQ(rows[k][2], (std::vector<std::string>{"top", "mid", "low"})[k % kJoints]) << "scene order";
    EXPECT_EQ(error[k], std::stod(rows[k][17])) << "row " << k;
  }
  H5Fclose(file);
}

TEST_P(JointRecordsH5, ViewDrawsTheSameJointAnchorsFromEither) {
  const fs::path csv_out = run("csv"), h5_out = run("hdf5");
  const auto joint_layer = [](const fs::path& out) {
    const test::CommandResult r = test::run_command({AFFIX_EXECUTABLE, "view", out.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(out / "view.html");
    const std::string page((std::istreambuf_iterator<char>(in)), {});
    const std::size_t at = page.find("\"joints\":[{");
    EXPECT_NE(at, std::string::npos) << "no joint layer";
    return at == std::string::npos ? std::string() : page.substr(at, 600);
  };
  const std::string from_csv = joint_layer(csv_out);
  EXPECT_NE(from_csv.find("\"name\":\"low\""), std::string::npos) << from_csv;
  fs::remove(h5_out / "joints.csv");  // view reads joints.csv where there is one: take the /joint… datasets
  EXPECT_EQ(joint_layer(h5_out), from_csv);
}

INSTANTIATE_TEST_SUITE_P(Solvers, JointRecordsH5, testing::Values("ipc", "mabd"));

}  // namespace
}  // namespace affix
