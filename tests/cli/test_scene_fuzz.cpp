// A standing fuzz test of the scene loader: seeded, deterministic mutations of the example scenes
// and a few hand-written ones, each run through what `affix validate` does — load_scene, then
// make_simulator — in process. Every case must either pass or end in an InputError of one short
// line; any other exception fails the test with the case's seed and its text saved to a file, so that
// `affix validate <file>` reproduces it. (A crash leaves the case being run in the test's scratch
// directory, as case.json.)
//
// It lives under tests/cli because it needs every layer (the solvers' make_simulator), which only the
// tests outside the module directories link.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "affix/model/body_mesh.hpp"
#include "affix/error.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/registry.hpp"
#include "scene/scene_mutator.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

constexpr int kCases = 1500;
constexpr std::uint64_t kFirstSeed = 0xAFF1C5EED;

/// AFFIX_SCENE_FUZZ_CASES=N runs N cases instead, for a longer search by hand; the standing test is
/// the first kCases of them.
int case_count() {
  const char* value = std::getenv("AFFIX_SCENE_FUZZ_CASES");
  return value ? std::max(1, std::atoi(value)) : kCases;
}

// A valid but big mutated scene (a resolution of 1000, a duplicated body list) is loaded, but only
// built when it is small: building the solver is what costs, and the size limits have their own tests.
constexpr std::size_t kMaxBodiesToBuild = 200;
constexpr std::int64_t kMaxTrianglesToBuild = 20'000;

bool cheap_to_build(const Scene& scene) {
  if (scene.bodies.size() > kMaxBodiesToBuild) return false;
  std::int64_t triangles = 0;
  for (const BodyDef& body : scene.bodies) triangles += primitive_triangle_count(body.shape).value_or(12);
  return triangles <= kMaxTrianglesToBuild;
}

enum class Outcome { valid, valid_not_built, input_error, other_error };

// An InputError is one line (DESIGN §4) that a person can read, whatever the file holds.
constexpr std::size_t kMaxMessageLength = 1000;

/// What `affix validate` does, with any exception but InputError — or an InputError whose message is
/// not one short line — described in `what`.
Outcome validate(const fs::path& file, std::string& what) {
  try {
    const Scene scene = load_scene(file);
    if (!cheap_to_build(scene)) return Outcome::valid_not_built;
    make_simulator(scene);
    return Outcome::valid;
  } catch (const InputError& e) {
    const std::string message = e.what();
    if (message.find('\n') == std::string::npos && message.size() <= kMaxMessageLength) {
      return Outcome::input_error;
    }
    what = "an InputError that is not one short line: " + message.substr(0, kMaxMessageLength);
  } catch (const std::exception& e) {
    what = std::string(typeid(e).name()) + ": " + e.what();
  } catch (...) {
    what = "an exception that is not a std::exception";
  }
  return Outcome::other_error;
}

std::vector<std::string> seed_scenes() {
  std::vector<std::string> seeds;
  for (const fs::path& file : test::example_seed_files(AFFIX_SOURCE_DIR)) seeds.push_back(test::read_file(file));
  for (const std::string& text : test::handwritten_seeds()) seeds.push_back(text);
  return seeds;
}

TEST(SceneFuzz, EveryMutatedSceneIsValidOrAnInputError) {
  const fs::path dir = fs::temp_directory_path() / ("affix_scene_fuzz_" + std::to_string(::getpid()));
  const fs::path failures = fs::temp_directory_path() / "affix_scene_fuzz_failures";
  fs::create_directories(dir);
  const std::vector<std::string> seeds = seed_scenes();
  for (const std::string& seed : seeds) ASSERT_NO_THROW((void)nlohmann::json::parse(seed));

  int counts[4] = {};
  const int cases = case_count();
  for (int k = 0; k < cases; ++k) {
    const std::uint64_t case_seed = kFirstSeed + static_cast<std::uint64_t>(k);
    const std::string text = test::mutate_scene(seeds[static_cast<std::size_t>(k) % seeds.size()], case_seed);
    // One case in ten also gets a broken mesh file.
    const bool broken_obj = case_seed % 10 == 0;
    std::ofstream(dir / "cube.obj") << (broken_obj ? test::mutate_obj(test::kSeedCubeObj, case_seed)
                                                   : std::string(test::kSeedCubeObj));
    std::ofstream(dir / "case.json") << text;

    std::string what;
    const Outcome outcome = validate(dir / "case.json", what);
    ++counts[static_cast<int>(outcome)];
    if (outcome == Outcome::other_error) {
      fs::create_directories(failures);
      const fs::path saved = failures / ("case_" + std::to_string(case_seed) + ".json");
      std::ofstream(saved) << text;
      ADD_FAILURE() << "case " << k << " (seed " << case_seed << (broken_obj ? ", mutated cube.obj" : "")
                    << ") threw " << what << "; its scene is saved as " << saved.string();
    }
  }
  fs::remove_all(dir);
  std::cout << "scene fuzz: " << cases << " cases, " << counts[0] << " valid, " << counts[1]
            << " valid but too big to build, " << counts[2] << " input errors\n";
  // Both ways out must be common, or the mutations have stopped reaching one of them.
  EXPECT_GT(counts[0], cases / 20);
  EXPECT_GT(counts[2], cases / 20);
}

}  // namespace
}  // namespace affix
