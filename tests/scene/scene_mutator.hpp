#pragma once
// A seeded, deterministic mutator of scene files for the loader's fuzz tests: from a valid scene it
// makes one that is subtly or grossly broken — a value deleted, duplicated, or replaced by another
// JSON type or an extreme number; a key renamed; the text truncated or its bytes flipped. The same
// seed makes the same text on every machine (its own generator, no std:: distributions, whose
// results differ between standard libraries).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace affix::test {

/// SplitMix64: small, fast, and the same sequence everywhere.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n), n > 0 (the modulo bias is irrelevant here).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }

 private:
  std::uint64_t state_;
};

/// Scene files to start from: the small examples, so that a mutated scene stays cheap to build.
inline std::vector<std::filesystem::path> example_seed_files(const std::filesystem::path& source_dir) {
  std::vector<std::filesystem::path> files;
  for (const char* name : {"drop.json", "stack.json", "ring_chain.json", "wrecking_ball.json",
                           "joints/falling_box.json", "joints/hinge_boards.json", "joints/monocular.json",
                           "joints/nunchaku.json", "joints/physical_pendulum.json", "joints/ragdoll.json",
                           "joints/rotating_board.json", "joints/triple_rod_pendulum.json"}) {
    files.push_back(source_dir / "examples" / name);
  }
  return files;
}

/// A unit cube as OBJ, for the hand-written seed that has a mesh body (file "cube.obj").
inline const char* const kSeedCubeObj =
    "v -0.5 -0.5 -0.5\nv 0.5 -0.5 -0.5\nv 0.5 0.5 -0.5\nv -0.5 0.5 -0.5\n"
    "v -0.5 -0.5 0.5\nv 0.5 -0.5 0.5\nv 0.5 0.5 0.5\nv -0.5 0.5 0.5\n"
    "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";

/// Hand-written seeds for what the examples do not use: a mesh file, every shape, kinematic bodies,
/// forces, every joint type.
inline std::vector<std::string> handwritten_seeds() {
  return {
      R"({ "version": 1, "settings": { "dt": 0.01, "duration": 0.1, "output_fps": 50 },
           "ground": { "height": 0, "friction": 0.5 },
           "bodies": [
             { "name": "m", "shape": { "mesh": { "file": "cube.obj", "scale": [1, 2, 1] } }, "position": [0, 0, 2] },
             { "name": "s", "shape": { "sphere": 0.5, "resolution": 12 }, "position": [3, 0, 2], "mass": 2 },
             { "name": "c", "shape": { "capsule": { "radius": 0.2, "length": 0.5 }, "resolution": 8 },
               "position": [6, 0, 2], "rotation": [1, 0, 0, 0] },
             { "name": "y", "shape": { "cylinder": { "radius": 0.2, "length": 0.5 } }, "position": [9, 0, 2],
               "rotation": { "axis": [1, 0, 0], "angle_deg": 90 } },
             { "name": "t", "shape": { "torus": { "major": 0.5, "minor": 0.1 }, "resolution": 12 },
               "position": [12, 0, 2], "kinematic": { "keyframes": [ { "time": 0, "position": [12, 0, 2] },
                 { "time": 1, "position": [12, 1, 2], "rotation": [0, 0, 0, 1] } ] } },
             { "name": "k", "shape": { "box": [1, 1, 1] }, "position": [15, 0, 2],
               "kinematic": { "velocity": [1, 0, 0], "angular_velocity": [0, 0, 1] } },
             { "name": "f", "shape": { "box": [1, 1, 1], "resolution": 2 }, "position": [18, 0, 2], "fixed": true,
               "collision": { "group": 2, "mask": 1 } } ],
           "forces": [ { "body": "s", "force": [0, 0, 1], "point": [3, 0, 2], "start": 0, "end": 0.05 },
                       { "body": "m", "torque": [0, 0, 1] } ] })",
      R"({ "bodies": [
             { "name": "a", "shape": { "box": [0.2, 0.2, 0.2] }, "position": [0, 0, 0] },
             { "name": "b", "shape": { "box": [0.2, 0.2, 0.2] }, "position": [1, 0, 0] },
             { "name": "c", "shape": { "box": [0.2, 0.2, 0.2] }, "position": [2, 0, 0] },
             { "name": "d", "shape": { "box": [0.2, 0.2, 0.2] }, "position": [3, 0, 0] } ],
           "joints": [
             { "type": "ball", "body1": "a", "body2": "world", "anchor": [0, 0, 0.5] },
             { "type": "hinge", "body1": "b", "body2": "a", "anchor": [0.5, 0, 0], "axis": [0, 1, 0],
               "limits_deg": [-30, 30], "stiffness": 1e6, "damping": 0.1 },
             { "type": "prismatic", "body1": "c", "body2": "b", "anchor": [1.5, 0, 0], "axis": [1, 0, 0],
               "limits": [-0.1, 0.1] },
             { "type": "universal", "body1": "d", "body2": "c", "anchor": [2.5, 0, 0], "axes": [[0, 1, 0], [0, 0, 1]] },
             { "type": "fixed", "body1": "d", "body2": "world", "anchor": [3, 0, 0], "collide_connected": true },
             { "type": "cone_twist", "body1": "c", "body2": "world", "anchor": [2, 0, 0.5],
               "frame": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "limits_deg": { "twist": [-10, 10], "swing1": [-20, 20] } },
             { "type": "distance", "body1": "a", "body2": "d", "anchor1": [0, 0, 0], "anchor2": [3, 0, 0],
               "min": 1, "max": 4 },
             { "type": "slider", "body1": "b", "body2": "world", "point": [1, 0, 0], "direction": [1, 0, 0],
               "limits": [0, 1] } ] })",
  };
}

/// Replacement values: other JSON types, extreme and special numbers, strings that look like numbers,
/// text that is huge, nesting that is deep (beyond the loader's limit, and just within it).
inline nlohmann::json extreme_value(Random& random) {
  using nlohmann::json;
  const auto nested = [](int levels) {
    json value = json::array();
    json* inner = &value;
    for (int i = 1; i < levels; ++i) {
      inner->push_back(json::array());
      inner = &inner->back();
    }
    return value;
  };
  switch (random.below(40)) {
    case 0: return 0;
    case 1: return -1;
    case 2: return 1e308;
    case 3: return -1e308;
    case 4: return 5e-324;
    case 5: return -0.0;
    case 6: return std::numeric_limits<std::int64_t>::max();
    case 7: return std::numeric_limits<std::int64_t>::min();
    case 8: return std::numeric_limits<std::uint64_t>::max();
    case 9: return 2147483648LL;
    case 10: return 1e9;
    case 11: return 1001;
    case 12: return 1000;
    case 13: return 3;
    case 14: return "";
    case 15: return std::string(100'000, 'x');
    case 16: return "nan";
    case 17: return "-Infinity";
    case 18: return "1e999";
    case 19: return "world";
    case 20: return true;
    case 21: return false;
    case 22: return nullptr;
    case 23: return json::array();
    case 24: return json::object();
    case 25: return json::array({0, 0, 0});
    case 26: return json::array({0, 0, 0, 0});
    case 27: return json::array({1e200, 1e200, 0, 0});
    case 28: return json::array({1e-200, 0, 0, 0});
    case 29: return json::array({1e308, -1e308, 1e308});
    case 30: return nested(300);
    case 31: return nested(200);
    case 32: return json::object({{std::string(1000, 'k'), 1}});
    case 33: return 1e-300;
    case 34: return 0.5;
    case 35: return 1e6;
    case 36: return -1e-9;
    case 37: return "two\nlines";
    case 38: return json::array({"a", "b"});
    default: return static_cast<double>(random.below(2000)) / 100.0 - 5.0;
  }
}

/// Every value of a document, parents before children (so a pointer stays valid until its parent
/// changes).
inline void collect_values(nlohmann::json& value, std::vector<nlohmann::json*>& out) {
  out.push_back(&value);
  if (value.is_structured()) {
    for (auto& child : value) collect_values(child, out);
  }
}

/// One structural mutation of `doc`.
inline void mutate_document(nlohmann::json& doc, Random& random) {
  std::vector<nlohmann::json*> values;
  collect_values(doc, values);
  nlohmann::json& target = *values[random.below(values.size())];
  static const char* const kKeys[] = {"version", "settings", "bodies", "joints", "forces", "ground", "name",
                                      "shape", "box", "sphere", "mesh", "resolution", "mass", "density",
                                      "rotation", "position", "type", "body1", "body2", "anchor", "axis",
                                      "dt", "duration", "output_fps", "gravity", "kinematic", "keyframes",
                                      "file", "scale", "limits", "frame", "time", "xyz"};
  switch (random.below(8)) {
    case 0:  // delete a member or an element
      if (target.is_object() && !target.empty()) {
        auto it = target.begin();
        std::advance(it, static_cast<std::ptrdiff_t>(random.below(target.size())));
        target.erase(it);
      } else if (target.is_array() && !target.empty()) {
        target.erase(random.below(target.size()));
      }
      return;
    case 1:  // duplicate an element
      if (target.is_array() && !target.empty()) target.push_back(target[random.below(target.size())]);
      return;
    case 2:  // rename a key
      if (target.is_object() && !target.empty()) {
        auto it = target.begin();
        std::advance(it, static_cast<std::ptrdiff_t>(random.below(target.size())));
        nlohmann::json moved = std::move(it.value());
        target.erase(it);
        target[kKeys[random.below(std::size(kKeys))]] = std::move(moved);
      }
      return;
    case 3:  // add a member
      if (target.is_object()) target[kKeys[random.below(std::size(kKeys))]] = extreme_value(random);
      return;
    case 4:  // scale a number far up or down, or flip its sign
      if (target.is_number()) {
        const double factors[] = {1e10, 1e-10, -1.0, 1e300, 0.0};
        target = target.get<double>() * factors[random.below(std::size(factors))];
      }
      return;
    default:  // replace by another value
      target = extreme_value(random);
      return;
  }
}

/// One byte-level mutation of `text`: truncate, flip a byte, or insert a JSON-significant character.
inline void mutate_text(std::string& text, Random& random) {
  if (text.empty()) return;
  const std::size_t at = random.below(text.size());
  switch (random.below(3)) {
    case 0: text.resize(at); return;
    case 1: text[at] = static_cast<char>(random.below(256)); return;
    default: {
      static const char kSignificant[] = "{}[]\",:\\0e-.";
      text.insert(at, 1, kSignificant[random.below(sizeof kSignificant - 1)]);
    }
  }
}

/// A mutated scene text from `seed` (a valid scene): one to three structural mutations, and in one
/// case in five a byte-level one on top.
inline std::string mutate_scene(const std::string& seed, std::uint64_t case_seed) {
  Random random(case_seed);
  nlohmann::json doc = nlohmann::json::parse(seed);
  const std::size_t mutations = 1 + random.below(3);
  for (std::size_t m = 0; m < mutations; ++m) mutate_document(doc, random);
  std::string text = doc.dump(1);
  if (random.chance(0.2)) mutate_text(text, random);
  return text;
}

/// A mutated OBJ text: a coordinate or index replaced by something that is not one, or a byte-level
/// mutation.
inline std::string mutate_obj(const std::string& obj, std::uint64_t case_seed) {
  Random random(case_seed ^ 0x0B1ULL);
  std::string text = obj;
  if (random.chance(0.5)) {
    mutate_text(text, random);
    return text;
  }
  static const char* const kTokens[] = {"nan", "inf", "abc", "0", "-99", "1e999", "", "1/2/3", "#"};
  std::size_t at = random.below(text.size());
  while (at < text.size() && text[at] != ' ') ++at;
  if (at < text.size()) {
    std::size_t end = at + 1;
    while (end < text.size() && text[end] != ' ' && text[end] != '\n') ++end;
    text.replace(at + 1, end - at - 1, kTokens[random.below(std::size(kTokens))]);
  }
  return text;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace affix::test
