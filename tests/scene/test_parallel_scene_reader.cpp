// Scenes read in parallel (parallel_scene_reader.hpp) against the serial reader, the reference
// (parse_scene of the whole document): the same Scene, field for field as the scene writer writes it,
// for every example scene and for generated ones of thousands of elements (many tasks, read out of
// order). And a text it does not read — any fault, or a form it leaves alone — makes it give up, so
// that load_scene names the fault exactly as the serial reader does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "affix/error.hpp"
#include "affix/scene/generate/chain.hpp"
#include "affix/scene/generate/net.hpp"
#include "affix/scene/generate/pile.hpp"
#include "affix/scene/generate/tree.hpp"
#include "affix/scene/json_text.hpp"
#include "affix/scene/parallel_scene_reader.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A scene as the writer writes it: every field, so that two equal texts are two equal scenes.
std::string written(const Scene& scene) { return scene_to_json(scene).dump(); }

/// The file read in parallel gives what the serial reader gives; false if it is not a valid scene.
bool check(const std::filesystem::path& file) {
  const std::string text = read_file(file);
  Scene serial;
  try {
    serial = parse_scene(parse_json_text(text, file), file);
  } catch (const InputError&) {
    return false;
  }
  EXPECT_TRUE(read_elements_in_parallel(text, file).has_value()) << file;  // the parallel path was taken
  EXPECT_EQ(written(load_scene(file)), written(serial)) << file;
  return true;
}

TEST(ParallelSceneReader, ReadsEveryExampleSceneAsTheSerialReaderDoes) {
  int scenes = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(AFFIX_SOURCE_DIR) / "examples")) {
    if (entry.path().extension() == ".json" && entry.file_size() < 5'000'000) scenes += check(entry.path()) ? 1 : 0;
  }
  EXPECT_GT(scenes, 20);
}

TEST(ParallelSceneReader, ReadsGeneratedScenesOfThousandsOfElementsInOrder) {
  TempDir dir;
  generate::ChainOptions chain;
  chain.links = 3000;
  chain.end_mass_ratio = 10.0;  // every link a different mass: a body out of place would show
  generate::NetOptions net;
  net.size = 30;
  generate::TreeOptions tree;
  tree.depth = 9;
  generate::PileOptions pile;
  const std::vector<std::pair<std::string, Scene>> scenes = {
      {"chain.json", generate::chain(chain)}, {"net.json", generate::net(net)},
      {"tree.json", generate::tree(tree)}, {"pile.json", generate::pile(pile)}};
  for (const auto& [name, scene] : scenes) {
    const auto file = dir.write(name, scene_text(scene, dir.path()));
    EXPECT_TRUE(check(file)) << name;
  }
}

/// A file of 64 MB or more is read in 16 MB chunks on all cores: padded with whitespace inside every
/// body, so that the chunks' edges fall inside elements, it loads to the scene of the unpadded text.
TEST(ParallelSceneReader, LargeFilesAreReadInChunksToTheSameScene) {
  TempDir dir;
  const std::string padding(14'000, ' ');
  std::string small = R"({"bodies": [)", large = small;
  for (int i = 0; i < 5'000; ++i) {
    const std::string name = R"({"name": "b)" + std::to_string(i) + R"(", )";
    const std::string rest = R"("shape": {"sphere": 0.1}, "position": [)" + std::to_string(i) + ", 0, 0]}";
    small += (i ? ", " : "") + name + rest;
    large += (i ? ",\n" : "") + name + padding + rest;
  }
  small += "]}";
  large += "]}";
  ASSERT_GT(large.size(), std::size_t{64} << 20);
  const Scene expected = load_scene(dir.write("small.json", small));
  EXPECT_EQ(written(load_scene(dir.write("large.json", large))), written(expected));
}

/// The parallel reader gives up, and load_scene says what the serial reader says.
void expect_serial_message(const std::string& text, const std::string& message) {
  TempDir dir;
  const auto file = dir.write("scene.json", text);
  EXPECT_FALSE(read_elements_in_parallel(text, file).has_value()) << text;
  std::string serial;
  try {
    parse_scene(parse_json_text(text, file), file);
  } catch (const InputError& e) {
    serial = e.what();
  }
  EXPECT_NE(serial.find(message), std::string::npos) << serial;
  try {
    load_scene(file);
    ADD_FAILURE() << "loaded: " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), serial);
  }
}

const std::string kBox = R"({"name": "a", "shape": {"box": [1, 1, 1]}})";
const std::string kBall = R"({"name": "b", "shape": {"sphere": 0.5}, "position": [3, 0, 0]})";

TEST(ParallelSceneReader, GivesUpOnFaultsForTheSerialMessage) {
  const std::string bodies = R"({"bodies": [)" + kBox + ", " + kBall + "]";
  expect_serial_message(R"({"bodies": [)" + kBox + ", " + kBox + "]}", "a unique body name");
  expect_serial_message(R"({"bodies": [{"name": "a", "shape": {"box": [1, 1, 1]}, "mass": -1}]})",
                        "bodies[0].mass: expected a positive number");
  expect_serial_message(R"({"bodies": [{"name": "a", "name": "b", "shape": {"sphere": 1}}]})", "duplicate key 'name'");
  expect_serial_message(R"({"bodies": [{"name": "a", "shape": {"sphere": 1},}]})", "invalid JSON at line 1");
  expect_serial_message(R"({"bodies": [1]})", "bodies[0]: expected an object");
  expect_serial_message(bodies + R"(, "joints": [{"type": "ball", "body1": "a", "body2": "c", "anchor": [0, 0, 0]}]})",
                        "joints[0].body2: unknown body 'c'");
  expect_serial_message(bodies + R"(, "joints": [{"name": "j", "type": "ball", "body1": "a", "body2": "world",)"
                                 R"( "anchor": [0, 0, 0]}, {"name": "j", "type": "ball", "body1": "b", "body2": "a",)"
                                 R"( "anchor": [1, 0, 0]}]})",
                        "duplicate joint name 'j'");
  expect_serial_message(bodies + R"(, "joints": [{"type": "ball", "body1": "a", "body2": "world", "anchor": [0, 0, 0]},)"
                                 R"( {"name": "joint0", "type": "ball", "body1": "b", "body2": "a", "anchor": [1, 0, 0]}]})",
                        "duplicate joint name 'joint0'");
  expect_serial_message(R"({"bodies": [], "joints": []})", "bodies: expected a non-empty array");
  expect_serial_message(R"([{"bodies": []}])", "(top level): expected an object");
}

/// A fault outside the bodies and joints: the elements read in parallel, the rest refused by the serial
/// reader's words; and a top-level key spelled with an escape, read serially and right.
TEST(ParallelSceneReader, FaultsElsewhereAndEscapedKeysGoToTheSerialReader) {
  TempDir dir;
  const auto bad = dir.write("bad.json", R"({"settings": {"dt": -1}, "bodies": [)" + kBox + "]}");
  EXPECT_TRUE(read_elements_in_parallel(read_file(bad), bad).has_value());
  EXPECT_THROW(
      {
        try {
          load_scene(bad);
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find("settings.dt: expected a positive number"), std::string::npos) << e.what();
          throw;
        }
      },
      InputError);
  const auto escaped = dir.write("escaped.json", R"({"bod\u0069es": [)" + kBox + ", " + kBall + "]}");
  EXPECT_FALSE(read_elements_in_parallel(read_file(escaped), escaped).has_value());
  EXPECT_EQ(load_scene(escaped).bodies.size(), 2u);
}

}  // namespace
}  // namespace affix
