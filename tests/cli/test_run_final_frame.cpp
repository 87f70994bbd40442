// The final state always reaches trajectory.csv (DESIGN §4: frame k is the state after the last step
// with t ≤ k/output_fps), on every solver: a free-falling ball run for 1.05 s at 10 frames per second
// writes the frames of the whole tenths and then frame 11, which shows step 105 at t = 1.05 s, and the
// height it reads is the free fall's own closed form at that step. Before, the run ended on frame 10
// (t = 1.0 s) and the last 0.05 s of the run reached no file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/io/csv_reader.hpp"
#include "affix/solvers/registry.hpp"
#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

class RunFinalFrame : public testing::TestWithParam<std::string> {};

TEST_P(RunFinalFrame, OutputFpsThatDoesNotDivideTheDurationStillWritesTheFinalState) {
  const fs::path dir = fs::temp_directory_path() / ("affix_final_frame_" + GetParam() + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const double h = 0.01, g = 9.81;
  nlohmann::json scene = nlohmann::json::parse(R"({
    "version": 1,
    "settings": { "dt": 0.01, "duration": 1.05, "output_fps": 10 },
    "bodies": [ { "name": "ball", "shape": { "sphere": 0.1 }, "position": [0, 0, 10] } ]
  })");
  scene["settings"]["solver"] = GetParam();
  std::ofstream(dir / "scene.json") << scene.dump(2);
  const test::CommandResult r =
      test::run_command({AFFIX_EXECUTABLE, "run", (dir / "scene.json").string(), "--out", (dir / "out").string(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream in(dir / "out" / "trajectory.csv");
  std::string line;
  std::getline(in, line);  // header: frame,time,body,x,y,z,…
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(split_csv_line(line));
  ASSERT_EQ(rows.size(), 12u) << "frames 0 … 10 at whole tenths, then frame 11 with the final state";
  EXPECT_EQ(rows[10][0], "10");
  EXPECT_DOUBLE_EQ(std::stod(rows[10][1]), 100 * h);
  EXPECT_EQ(rows.back()[0], "11");
  EXPECT_DOUBLE_EQ(std::stod(rows.back()[1]), 105 * h);
  // Free fall over n = 105 steps: implicit Euler (ipc, mabd) falls ½n(n+1)h²g, symplectic Euler (impulse,
  // compliant) the same (v₊ = v + hg, then z₊ = z + hv₊); the explicit one's ½n(n−1)h²g would differ by nh²g.
  const double n = 105, fall = 0.5 * n * (n + 1) * h * h * g;
  EXPECT_NEAR(std::stod(rows.back()[5]), 10.0 - fall, 1e-6) << "the final frame shows step 105";
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, RunFinalFrame, testing::ValuesIn(solver_names()),
                         [](const testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace affix
