// `affix generate KIND --out FILE` as a user meets it: every family, with its defaults and with other
// options, writes a scene that `affix validate` accepts — validate meshes the bodies and refuses
// overlaps, bodies closer than d̂/1000 and bodies on or below the ground — the same options write the
// same bytes, a generated chain simulates, and a bad option is one line naming it, exit 2, no file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;
using test::CommandResult;

class GenerateTest : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("affix_generate_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static CommandResult affix(std::vector<std::string> args) {
    args.insert(args.begin(), AFFIX_EXECUTABLE);
    return test::run_command(args);
  }

  /// `affix generate <args> --out FILE` succeeds and `affix validate FILE` accepts the file.
  fs::path expect_generated_and_valid(const std::vector<std::string>& args, const std::string& name) {
    const fs::path file = dir_ / name;
    std::vector<std::string> command{"generate"};
    command.insert(command.end(), args.begin(), args.end());
    command.insert(command.end(), {"--out", file.string()});
    const CommandResult generated = affix(command);
    EXPECT_EQ(generated.exit_code, 0) << generated.err;
    EXPECT_NE(generated.out.find("wrote " + file.string()), std::string::npos) << generated.out;
    const CommandResult validated = affix({"validate", file.string()});
    EXPECT_EQ(validated.exit_code, 0) << validated.err;
    EXPECT_NE(validated.out.find(": ok ("), std::string::npos) << validated.out;
    return file;
  }

  /// Exit 2, nothing on stdout, one line on stderr containing every needle, and no file written.
  void expect_refused(const std::vector<std::string>& args, const std::vector<std::string>& needles) {
    const fs::path file = dir_ / "refused.json";
    std::vector<std::string> command{"generate"};
    command.insert(command.end(), args.begin(), args.end());
    command.insert(command.end(), {"--out", file.string()});
    const CommandResult r = affix(command);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("affix: error: ", 0), 0u) << r.err;
    for (const std::string& needle : needles) {
      EXPECT_NE(r.err.find(needle), std::string::npos) << "'" << needle << "' not in: " << r.err;
    }
    EXPECT_FALSE(fs::exists(file));
  }

  static nlohmann::json read_json(const fs::path& file) {
    std::ifstream in(file);
    return nlohmann::json::parse(in);
  }
  static std::string read_bytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  fs::path dir_;
};

// ---------------------------------------------------------------- every family validates

TEST_F(GenerateTest, ChainWithDefaultsAndOptions) {
  EXPECT_EQ(read_json(expect_generated_and_valid({"chain"}, "chain.json"))["bodies"].size(), 20u);
  const nlohmann::json heavy = read_json(expect_generated_and_valid(
      {"chain", "--links", "12", "--end-mass-ratio", "1000", "--joint", "hinge"}, "heavy_chain.json"));
  ASSERT_EQ(heavy["bodies"].size(), 12u);
  EXPECT_NEAR(heavy["bodies"][11]["mass"].get<double>() / heavy["bodies"][0]["mass"].get<double>(), 1000.0, 1e-9);
  EXPECT_EQ(heavy["joints"][3]["type"], "hinge");
  const nlohmann::json boxes = read_json(expect_generated_and_valid({"chain", "--links", "5", "--link", "box"}, "box_chain.json"));
  EXPECT_EQ(boxes["bodies"][4]["shape"]["box"], nlohmann::json::array({0.1, 0.02, 0.02}));
}

TEST_F(GenerateTest, NetWithDefaultsAndOptions) {
  expect_generated_and_valid({"net"}, "net.json");
  const nlohmann::json small = read_json(expect_generated_and_valid({"net", "--size", "3"}, "net3.json"));
  EXPECT_EQ(small["bodies"].size(), 9u);
  EXPECT_EQ(small["joints"].size(), 16u);  // 12 between neighbours, 4 corner pins
}

TEST_F(GenerateTest, LinkNetWithOptions) {
  const nlohmann::json links = read_json(expect_generated_and_valid({"net", "--size", "3", "--kind", "links"}, "links.json"));
  EXPECT_EQ(links["bodies"].size(), 12u);   // 2·3·2 edges
  EXPECT_EQ(links["joints"].size(), 19u);   // 2·12 − 9 at the knots, 4 corner pins
}

TEST_F(GenerateTest, PulleyWithDefaultsAndOptions) {
  const nlohmann::json defaults = read_json(expect_generated_and_valid({"pulley"}, "pulley.json"));
  EXPECT_EQ(defaults["bodies"].size(), 44u);
  EXPECT_EQ(defaults["joints"].size(), 45u);
  const nlohmann::json short_ropes =
      read_json(expect_generated_and_valid({"pulley", "--links", "2", "--load-ratio", "5"}, "pulley2.json"));
  EXPECT_EQ(short_ropes["bodies"].size(), 8u);
  EXPECT_EQ(short_ropes["joints"].size(), 9u);
}

TEST_F(GenerateTest, TreeWithDefaultsAndOptions) {
  expect_generated_and_valid({"tree"}, "tree.json");
  const nlohmann::json wide = read_json(
      expect_generated_and_valid({"tree", "--depth", "2", "--branching", "5"}, "tree_wide.json"));
  EXPECT_EQ(wide["bodies"].size(), 31u);
  EXPECT_EQ(wide["joints"].size(), 31u);
}

TEST_F(GenerateTest, PileWithDefaultsAndOptions) {
  expect_generated_and_valid({"pile"}, "pile.json");
  const nlohmann::json pile = read_json(expect_generated_and_valid({"pile", "--boxes", "40", "--seed", "9"}, "pile40.json"));
  EXPECT_EQ(pile["bodies"].size(), 40u);
  EXPECT_TRUE(pile.contains("ground"));
}

TEST_F(GenerateTest, DropWithDefaultsAndOptions) {
  expect_generated_and_valid({"drop"}, "drop.json");
  const nlohmann::json drop = read_json(expect_generated_and_valid({"drop", "--bodies", "33", "--seed", "4"}, "drop33.json"));
  EXPECT_EQ(drop["bodies"].size(), 33u);
  EXPECT_EQ(drop["bodies"][4]["shape"].contains("torus"), true);
}

TEST_F(GenerateTest, WreckingBallWithDefaultsAndOptions) {
  expect_generated_and_valid({"wrecking-ball"}, "wrecking_ball.json");
  const nlohmann::json small = read_json(expect_generated_and_valid({"wrecking-ball", "--blocks", "3"}, "wb3.json"));
  EXPECT_EQ(small["bodies"].back()["name"], "ball");
  expect_generated_and_valid({"wrecking-ball", "--blocks", "150"}, "wb150.json");
  const nlohmann::json medium =
      read_json(expect_generated_and_valid({"wrecking-ball", "--variant", "medium", "--free-ball"}, "medium.json"));
  EXPECT_EQ(medium["bodies"].size(), 142u);  // Lan 2022 Table 1
  EXPECT_EQ(medium["joints"].size(), 0u);
  EXPECT_EQ(medium["bodies"].back()["velocity"], nlohmann::json::array({4.0, 0.0, 0.0}));
}

TEST_F(GenerateTest, ImpulseMechanismsWithDefaultsAndOptions) {
  const nlohmann::json linkage = read_json(expect_generated_and_valid({"peaucellier"}, "peaucellier.json"));
  EXPECT_EQ(linkage["bodies"].size(), 7u);
  EXPECT_EQ(linkage["joints"].size(), 10u);
  EXPECT_EQ(linkage["settings"]["solver"], "impulse");
  EXPECT_EQ(linkage["settings"]["dt"], 0.03);
  expect_generated_and_valid({"peaucellier", "--angle", "-10"}, "peaucellier10.json");
  const nlohmann::json rod = read_json(expect_generated_and_valid({"rod-block", "--block-mass", "100"}, "rod.json"));
  EXPECT_EQ(rod["bodies"][1]["mass"], 100.0);
  EXPECT_EQ(rod["settings"]["dt"], 0.25);
  const nlohmann::json spider = read_json(expect_generated_and_valid({"spider", "--legs", "7"}, "spider.json"));
  EXPECT_EQ(spider["bodies"].size(), 15u);
  EXPECT_EQ(spider["joints"].size(), 14u);
  expect_refused({"peaucellier", "--angle", "30"}, {"--angle 30"});
  expect_refused({"rod-block", "--rod-mass", "0"}, {"--rod-mass 0"});
  expect_refused({"spider", "--legs", "0"}, {"--legs 0"});
  const nlohmann::json lift = read_json(expect_generated_and_valid({"scissor-lift", "--segments", "3"}, "lift.json"));
  EXPECT_EQ(lift["bodies"].size(), 8u);   // 2 bars per segment, base, platform
  EXPECT_EQ(lift["joints"].size(), 11u);  // 3 hinges per segment, 2 at the platform
  EXPECT_TRUE(lift.contains("ground"));
  expect_refused({"scissor-lift", "--segments", "0"}, {"--segments 0"});
  expect_refused({"scissor-lift", "--angle", "5"}, {"--angle 5"});
  const nlohmann::json beest =
      read_json(expect_generated_and_valid({"strandbeest", "--legs", "3", "--load", "2"}, "beest.json"));
  EXPECT_EQ(beest["bodies"].size(), 2u + 6u * 3u);  // frame, crank, 6 per leg
  EXPECT_EQ(beest["joints"].size(), 1u + 9u * 3u);  // the axle, 9 hinges per leg
  EXPECT_EQ(beest["settings"]["solver"], "impulse");
  double own = 0.0;  // every body but the frame has its mass written; the frame's is 2 kg per leg
  for (const auto& body : beest["bodies"]) {
    if (body["name"] != "frame") own += body["mass"].get<double>();
  }
  own += 2.0 * 3;
  EXPECT_NEAR(beest["bodies"][0]["mass"].get<double>(), 2.0 * 3 + 2.0 * own, 1e-9);  // --load 2
  expect_refused({"strandbeest", "--legs", "0"}, {"--legs 0"});
  expect_refused({"strandbeest", "--load", "-1"}, {"--load -1"});
}

TEST_F(GenerateTest, SettingsOptionsReplaceTheFamilysOwn) {
  const nlohmann::json fast = read_json(
      expect_generated_and_valid({"drop", "--dt", "0.005", "--duration", "0.5"}, "fast.json"));
  EXPECT_EQ(fast["settings"]["dt"], 0.005);
  EXPECT_EQ(fast["settings"]["duration"], 0.5);
  EXPECT_EQ(fast["settings"]["output_fps"], 50.0);
  // A step too long for 50 frames per second writes every step rather than an invalid scene.
  const nlohmann::json slow = read_json(expect_generated_and_valid({"chain", "--dt", "0.05"}, "slow.json"));
  EXPECT_FALSE(slow["settings"].contains("output_fps"));
  // The settings options may also come before the kind.
  expect_generated_and_valid({"--duration", "1", "net", "--size", "2"}, "before.json");
}

// ---------------------------------------------------------------- determinism and a run

TEST_F(GenerateTest, SameOptionsWriteTheSameBytes) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"pile", "--boxes", "25", "--seed", "3"}, {"drop"}, {"chain", "--end-mass-ratio", "7"}}) {
    const fs::path a = expect_generated_and_valid(args, "a.json");
    const fs::path b = expect_generated_and_valid(args, "b.json");
    EXPECT_EQ(read_bytes(a), read_bytes(b)) << args.front();
  }
}

TEST_F(GenerateTest, AGeneratedChainSimulates) {
  const fs::path file = expect_generated_and_valid({"chain", "--links", "4", "--end-mass-ratio", "10"}, "chain4.json");
  const fs::path out = dir_ / "out";
  const CommandResult r = affix({"run", file.string(), "--duration", "0.05", "--out", out.string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json summary = read_json(out / "summary.json");
  EXPECT_EQ(summary["completed"], true);
  EXPECT_EQ(summary["steps"], 5);
  EXPECT_LT(summary["max_joint_error"].get<double>(), 1e-6);
}

// The loop of the pulley goes through mabd's direct dual solver (a cycle in the joint graph); the heavier
// left load goes down, so the wheel turns and the joints hold.
TEST_F(GenerateTest, AGeneratedPulleySimulatesWithMabd) {
  const fs::path file =
      expect_generated_and_valid({"pulley", "--links", "3", "--solver", "mabd", "--duration", "0.05"}, "pulley3.json");
  const fs::path out = dir_ / "out";
  const CommandResult r = affix({"run", file.string(), "--out", out.string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json summary = read_json(out / "summary.json");
  EXPECT_EQ(summary["completed"], true);
  EXPECT_EQ(summary["steps"], 5);
  EXPECT_LT(summary["max_joint_error"].get<double>(), 1e-6);
}

// ---------------------------------------------------------------- bad options

TEST_F(GenerateTest, BadOptionsNameTheOption) {
  expect_refused({"chain", "--links", "0"}, {"--links 0"});
  expect_refused({"chain", "--links", "-4"}, {"--links -4"});
  expect_refused({"chain", "--links", "1000001"}, {"--links 1000001", "1000000"});
  expect_refused({"chain", "--links", "ten"}, {"--links"});
  expect_refused({"chain", "--end-mass-ratio", "0"}, {"--end-mass-ratio 0"});
  expect_refused({"chain", "--end-mass-ratio", "-3"}, {"--end-mass-ratio -3"});
  expect_refused({"chain", "--end-mass-ratio", "nan"}, {"--end-mass-ratio nan"});
  expect_refused({"chain", "--end-mass-ratio", "inf"}, {"--end-mass-ratio inf"});
  expect_refused({"chain", "--joint", "rope"}, {"--joint rope", "ball or hinge"});
  expect_refused({"net", "--size", "1"}, {"--size 1"});
  expect_refused({"net", "--kind", "knots"}, {"--kind knots", "spheres or links"});
  expect_refused({"pulley", "--links", "1"}, {"--links 1"});
  expect_refused({"pulley", "--load-ratio", "0"}, {"--load-ratio 0"});
  expect_refused({"tree", "--depth", "0"}, {"--depth 0"});
  expect_refused({"tree", "--depth", "30", "--branching", "4"}, {"--depth 30 --branching 4", "limit"});
  expect_refused({"pile", "--boxes", "0"}, {"--boxes 0"});
  expect_refused({"pile", "--seed", "-1"}, {"--seed -1"});
  expect_refused({"drop", "--bodies", "1000000"}, {"--bodies 1000000"});
  expect_refused({"wrecking-ball", "--blocks", "0"}, {"--blocks 0"});
  expect_refused({"wrecking-ball", "--variant", "huge"}, {"--variant huge", "light, medium or full"});
  expect_refused({"wrecking-ball", "--variant", "full", "--blocks", "9"}, {"--variant full", "not both"});
  expect_refused({"chain", "--link", "rod"}, {"--link rod", "capsule or box"});
  expect_refused({"chain", "--dt", "0"}, {"--dt 0"});
  expect_refused({"chain", "--duration", "-1"}, {"--duration -1"});
  expect_refused({"chain", "--solver", "magic"}, {"--solver magic"});
  expect_refused({"net", "--links", "3"}, {"--links"});  // an option of another kind
}

TEST_F(GenerateTest, UnknownOrMissingKindIsRefused) {
  expect_refused({"blob"}, {"unknown kind 'blob'", "chain, net, tree, pulley, pile, drop, wrecking-ball"});
  expect_refused({}, {"chain, net, tree, pulley, pile, drop, wrecking-ball"});
}

TEST_F(GenerateTest, OutIsRequired) {
  const CommandResult r = affix({"generate", "chain"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
}

TEST_F(GenerateTest, UnwritableOutIsBadInput) {
  const fs::path file = dir_ / "missing_dir" / "chain.json";
  const CommandResult r = affix({"generate", "chain", "--out", file.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
}

}  // namespace
}  // namespace affix
