// The page's joint and contact layers (viewer/records_reader.hpp) from a real run with a joint and
// --contacts: anchors carried into their bodies' rest frames follow the bodies to joints.csv's anchors
// on every frame, contacts land on the frames they belong to (only embedded ones, at most the cap per
// frame), a run without the files gives disabled layers, and malformed files — crafted mistakes and a
// few hundred seeded mutations — give a page or an InputError naming the file and line, nothing else.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/app/run_scene.hpp"
#include "affix/error.hpp"
#include "affix/io/csv_reader.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/viewer/base64.hpp"
#include "affix/viewer/records_reader.hpp"
#include "affix/viewer/view_page.hpp"

namespace affix::viewer {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + '\n';
  return text;
}

template <typename T>
std::vector<T> decode(const std::string& base64) {
  const std::vector<unsigned char> bytes = base64_decode(base64);
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

json page_data(const ViewPage& page) {
  const std::string open = "id=\"" + std::string(kDataElementId) + "\">";
  const std::size_t from = page.html.find(open) + open.size();
  return json::parse(page.html.substr(from, page.html.find("</script>", from) - from));
}

/// A box turned 30° about z hanging from the world by a ball joint at (0, 0, 1), 0.5 m from its
/// centre, and a crate resting on the ground: 0.2 s at 50 frames per second (11 frames), contacts on.
class RecordLayers : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::temp_directory_path() / ("affix_record_layers_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    const json scene = json::parse(R"({
      "version": 1,
      "settings": {"dt": 0.01, "duration": 0.2, "output_fps": 50},
      "ground": {"height": 0},
      "bodies": [
        {"name": "bob", "shape": {"box": [0.2, 0.2, 0.2]}, "position": [0.5, 0, 1],
         "rotation": {"axis": [0, 0, 1], "angle_deg": 30}},
        {"name": "crate, \"c\"", "shape": {"box": [0.4, 0.4, 0.4]}, "position": [-1, 0, 0.2005]}],
      "joints": [{"name": "pivot", "type": "ball", "body1": "bob", "body2": "world", "anchor": [0, 0, 1]}]})");
    RunOptions options;
    options.out_dir = root_ / "run";
    options.quiet = true;
    options.contacts = true;
    ASSERT_TRUE(run_scene(parse_scene(scene, root_ / "scene.json"), options).completed);
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }

  /// A copy of the run in its own directory, with `name` replaced by `text` when given.
  static fs::path copy(const std::string& dir, const std::string& name = "", const std::string& text = "") {
    const fs::path to = root_ / dir;
    fs::remove_all(to);
    fs::copy(root_ / "run", to, fs::copy_options::recursive);
    if (!name.empty()) std::ofstream(to / name, std::ios::binary | std::ios::trunc) << text;
    return to;
  }
  static std::string file(const std::string& name) { return slurp(root_ / "run" / name); }

  /// The InputError of viewing the run with `name` replaced by `text`, without the directory.
  static std::string error_with(const std::string& name, const std::string& text) {
    const fs::path dir = copy("error", name, text);
    try {
      build_view_page(dir);
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_TRUE(message.starts_with((dir / name).string() + ": ")) << message;
      return message.substr(dir.string().size() + 1);
    }
    return "";
  }

  static inline fs::path root_;
};

TEST_F(RecordLayers, JointAnchorsFollowTheirBodiesToJointsCsvsAnchorsOnEveryFrame) {
  const ViewPage page = build_view_page(root_ / "run");
  EXPECT_EQ(page.joints, 1);
  const json data = page_data(page);
  ASSERT_EQ(data["joints"].size(), 1u);
  const json& j = data["joints"][0];
  EXPECT_EQ(j["name"], "pivot");
  EXPECT_EQ(j["body1"], 0);
  EXPECT_EQ(j["body2"], -1);
  EXPECT_EQ(data["joint_count"], 1);
  // The bob's rest frame: the anchor is 0.5 m from its centre along the world −x turned back by 30°.
  const Vec3 rest(j["anchor1"][0], j["anchor1"][1], j["anchor1"][2]);
  const double c = std::cos(M_PI / 6), s = std::sin(M_PI / 6);
  EXPECT_NEAR((rest - Vec3(-0.5 * c, 0.5 * s, 0)).norm(), 0.0, 1e-6);
  EXPECT_NEAR((Vec3(j["anchor2"][0], j["anchor2"][1], j["anchor2"][2]) - Vec3(0, 0, 1)).norm(), 0.0, 1e-7);

  // The page places it at A·x̄ + p of each frame's pose: joints.csv's anchor1 of that frame.
  const std::string poses_open = "id=\"" + std::string(kPosesElementId) + "\">";
  const std::size_t from = page.html.find(poses_open) + poses_open.size();
  const std::vector<float> poses = decode<float>(page.html.substr(from, page.html.find("</script>", from) - from));
  const std::vector<std::string> rows = lines_of(file("joints.csv"));
  ASSERT_EQ(rows.size(), 12u);  // header + 11 frames
  for (int f = 0; f < 11; ++f) {
    const std::vector<std::string> fields = split_csv_line(rows[1 + f]);
    const float* q = &poses[(f * 2 + 0) * 12];
    Vec3 placed;
    for (int i = 0; i < 3; ++i) placed[i] = q[3 + 3 * i] * rest[0] + q[4 + 3 * i] * rest[1] + q[5 + 3 * i] * rest[2] + q[i];
    const Vec3 recorded(std::stod(fields[5]), std::stod(fields[6]), std::stod(fields[7]));
    EXPECT_NEAR((placed - recorded).norm(), 0.0, 1e-5) << "frame " << f;
  }
}

TEST_F(RecordLayers, ContactsLandOnTheirFrames) {
  const ViewPage page = build_view_page(root_ / "run");
  EXPECT_TRUE(page.contacts_recorded);
  const json c = page_data(page)["contacts"];
  ASSERT_TRUE(c.is_object());
  const std::vector<int> frames = c["frames"];
  const std::vector<std::uint32_t> offsets = c["offsets"];
  ASSERT_EQ(offsets.size(), frames.size() + 1);
  const std::vector<float> points = decode<float>(c["points"]), normals = decode<float>(c["normals"]);
  const std::vector<float> forces = decode<float>(c["forces"]);
  // Every row of contacts.csv, in order: frame by frame, the same points.
  const std::vector<std::string> rows = lines_of(file("contacts.csv"));
  ASSERT_GT(rows.size(), 1u);
  EXPECT_EQ(page.contact_points, rows.size() - 1);
  EXPECT_EQ(c["rows"], rows.size() - 1);
  EXPECT_FALSE(c["capped"].get<bool>());
  ASSERT_EQ(forces.size(), rows.size() - 1);
  std::size_t k = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    for (std::uint32_t n = offsets[i]; n < offsets[i + 1]; ++n, ++k) {
      const std::vector<std::string> fields = split_csv_line(rows[1 + k]);
      EXPECT_EQ(std::stoi(fields[0]), frames[i]);
      for (int d = 0; d < 3; ++d) {
        EXPECT_FLOAT_EQ(points[3 * n + d], static_cast<float>(std::stod(fields[4 + d])));
        EXPECT_FLOAT_EQ(normals[3 * n + d], static_cast<float>(std::stod(fields[7 + d])));
      }
      EXPECT_FLOAT_EQ(forces[n], static_cast<float>(std::stod(fields[11])));
    }
  }
  EXPECT_EQ(k, rows.size() - 1);
}

TEST_F(RecordLayers, ADecimatedPageKeepsTheContactsOfItsFramesAtMostTheCapEach) {
  ViewOptions options;
  options.pose_budget_bytes = 4 * 2 * 48;  // four frames of two bodies
  options.max_contact_points = 4;          // one contact per embedded frame
  const ViewPage page = build_view_page(root_ / "run", options);
  const json data = page_data(page);
  const std::vector<int> kept = data["frames"]["index"];
  const json& c = data["contacts"];
  EXPECT_EQ(c["per_frame_cap"], 1);
  EXPECT_TRUE(c["capped"].get<bool>()) << "the crate stands on four corners";
  const std::vector<int> frames = c["frames"];
  for (int f : frames) EXPECT_NE(std::find(kept.begin(), kept.end(), f), kept.end()) << "frame " << f << " is not embedded";
  EXPECT_EQ(decode<float>(c["forces"]).size(), frames.size());
}

TEST_F(RecordLayers, ARunWithoutTheFilesHasEmptyLayers) {
  const fs::path dir = copy("bare");
  fs::remove(dir / "joints.csv");
  fs::remove(dir / "contacts.csv");
  const ViewPage page = build_view_page(dir);
  EXPECT_EQ(page.joints, 0);
  EXPECT_FALSE(page.contacts_recorded);
  const json data = page_data(page);
  EXPECT_EQ(data["joints"], json::array());
  EXPECT_TRUE(data["contacts"].is_null());
  // A run that recorded contacts but had none: an empty layer, not a missing one.
  std::ofstream(dir / "contacts.csv") << "frame,time,body1,body2,x,y,z,nx,ny,nz,distance,force\n";
  const json empty = page_data(build_view_page(dir))["contacts"];
  ASSERT_TRUE(empty.is_object());
  EXPECT_EQ(empty["frames"], json::array());
  EXPECT_EQ(empty["offsets"], json({0}));
}

TEST_F(RecordLayers, MalformedJointsCsvIsNamedByFileAndLine) {
  const std::vector<std::string> rows = lines_of(file("joints.csv"));
  const std::string header = rows[0];
  const auto with_row = [&](const std::string& row) { return header + "\n" + row + "\n"; };
  EXPECT_EQ(error_with("joints.csv", "frame,time\n"),
            "joints.csv: line 1: expected the header " + header + ", got 'frame,time'");
  EXPECT_EQ(error_with("joints.csv", with_row("0,0,pivot,bob,world,0,0,1,0,0,1,1,0,0,1,0")),
            "joints.csv: line 2: expected 18 fields, got 16");
  EXPECT_EQ(error_with("joints.csv", with_row("0,0,pivot,nobody,world,0,0,1,0,0,1,1,0,0,1,0,0,0")),
            "joints.csv: line 2: body1 (column 4): expected a body of meshes.json, got 'nobody'");
  EXPECT_EQ(error_with("joints.csv", with_row("0,0,pivot,bob,ground,0,0,1,0,0,1,1,0,0,1,0,0,0")),
            "joints.csv: line 2: body2 (column 5): expected a body of meshes.json or 'world', got 'ground'");
  EXPECT_EQ(error_with("joints.csv", with_row("0,0,pivot,bob,world,0,nan,1,0,0,1,1,0,0,1,0,0,0")),
            "joints.csv: line 2: y1 (column 7): expected a finite number, got 'nan'");
  EXPECT_EQ(error_with("joints.csv", with_row("0,0.5,pivot,bob,world,0,0,1,0,0,1,1,0,0,1,0,0,0")),
            "joints.csv: line 2: time (column 2): expected the frame's time in trajectory.csv, '0', got '0.5'");
  EXPECT_EQ(error_with("joints.csv", with_row("3,0,pivot,bob,world,0,0,1,0,0,1,1,0,0,1,0,0,0")),
            "joints.csv: line 2: frame (column 1): expected frame 0 first, got '3'");
  EXPECT_EQ(error_with("joints.csv", with_row("0,0,pivot,bob,world,0,0,1,0,0,1,1,0,x,1,0,0,0")),
            "joints.csv: line 2: az1 (column 14): expected a number, got 'x'");
  // Only frame 0 is read: a broken later frame does not matter to the page.
  EXPECT_EQ(error_with("joints.csv", joined({rows[0], rows[1], rows[2], "2,garbage"})), "");
  EXPECT_EQ(error_with("joints.csv", header + "\n"), "") << "no rows: no joints";
}

TEST_F(RecordLayers, MalformedContactsCsvIsNamedByFileAndLine) {
  const std::vector<std::string> rows = lines_of(file("contacts.csv"));
  ASSERT_GT(rows.size(), 2u);
  const std::string header = rows[0];
  const std::vector<std::string> first = split_csv_line(rows[1]);
  const auto row_with = [&](std::size_t column, const std::string& value) {
    std::vector<std::string> fields = split_csv_line(rows[1]);
    fields[column] = value;
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i > 0) line += ',';
      line += i == 2 ? std::string("\"crate, \"\"c\"\"\"") : fields[i];
    }
    return header + "\n" + line + "\n";
  };
  EXPECT_EQ(error_with("contacts.csv", row_with(0, first[0])), "") << "the row as written reads";
  EXPECT_EQ(error_with("contacts.csv", "frame,time,body1\n"),
            "contacts.csv: line 1: expected the header " + header + ", got 'frame,time,body1'");
  EXPECT_EQ(error_with("contacts.csv", header + "\n1,0.02,a,b\n"), "contacts.csv: line 2: expected 12 fields, got 4");
  EXPECT_EQ(error_with("contacts.csv", row_with(0, "11")),
            "contacts.csv: line 2: frame (column 1): expected one of trajectory.csv's frames, 0 to 10, got '11'");
  EXPECT_EQ(error_with("contacts.csv", row_with(0, "-1")),
            "contacts.csv: line 2: frame (column 1): expected a frame number, a whole number ≥ 0, got '-1'");
  EXPECT_EQ(error_with("contacts.csv", row_with(1, "7")),
            "contacts.csv: line 2: time (column 2): expected the frame's time in trajectory.csv, '" + first[1] +
                "', got '7'");
  EXPECT_EQ(error_with("contacts.csv", row_with(3, "world")),
            "contacts.csv: line 2: body2 (column 4): expected a body of meshes.json or 'ground', got 'world'");
  EXPECT_EQ(error_with("contacts.csv", row_with(9, "inf")),
            "contacts.csv: line 2: nz (column 10): expected a finite number, got 'inf'");
  EXPECT_EQ(error_with("contacts.csv", row_with(11, "")), "contacts.csv: line 2: force (column 12): expected a number, got ''");
  // Frames come in order.
  std::vector<std::string> swapped = rows;
  swapped.push_back(rows[1]);
  EXPECT_EQ(error_with("contacts.csv", joined(swapped)).rfind("contacts.csv: line " + std::to_string(rows.size() + 1) +
                                                               ": frame (column 1): expected a frame no earlier than",
                                                           0),
            0u);
}

// ---------------------------------------------------------------- seeded mutations

/// One mutation of a CSV text, chosen by `rng`: a line removed, duplicated, swapped, truncated or
/// replaced; a field removed, added or replaced by a nasty token; bytes flipped; the text cut short.
std::string mutate_csv(std::string& text, std::mt19937_64& rng) {
  const auto below = [&](std::uint64_t n) { return n == 0 ? 0 : rng() % n; };
  static const std::vector<std::string> tokens = {"", "nan", "inf", "-inf", "1e999", "-1", "2147483648", "1.5", "\"",
                                                  "\"a,b\"", "\xff\xfe", "ground", "world", "bob", "0", "x",
                                                  std::string(3000, '9')};
  std::vector<std::string> lines = lines_of(text);
  if (lines.empty() || below(8) == 0) {
    const std::size_t at = below(text.size() + 1);
    if (below(2) == 0) {
      text.resize(at);
      return "cut at byte " + std::to_string(at);
    }
    for (int i = 0; i < 4 && !text.empty(); ++i) text[below(text.size())] = static_cast<char>(below(256));
    return "bytes flipped";
  }
  const std::size_t l = below(lines.size());
  std::vector<std::string> fields = split_csv_line(lines[l]);
  std::string what = "line " + std::to_string(l + 1);
  const auto join = [&] {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i > 0) line += ',';
      line += fields[i];
    }
    lines[l] = line;
  };
  switch (below(8)) {
    case 0: lines.erase(lines.begin() + static_cast<long>(l)); what += " removed"; break;
    case 1: lines.insert(lines.begin() + static_cast<long>(l), lines[l]); what += " duplicated"; break;
    case 2: std::swap(lines[l], lines[below(lines.size())]); what += " swapped"; break;
    case 3: lines[l].resize(below(lines[l].size() + 1)); what += " truncated"; break;
    case 4: fields.erase(fields.begin() + static_cast<long>(below(fields.size()))); join(); what += ": a field removed"; break;
    case 5: fields.insert(fields.begin() + static_cast<long>(below(fields.size() + 1)), tokens[below(tokens.size())]); join(); what += ": a field added"; break;
    default: fields[below(fields.size())] = tokens[below(tokens.size())]; join(); what += ": a field replaced"; break;
  }
  text = joined(lines);
  return what;
}

TEST_F(RecordLayers, MutatedRecordFilesGiveAPageOrAnInputErrorNamingTheFile) {
  constexpr int kCases = 300;
  const std::string originals[2] = {file("joints.csv"), file("contacts.csv")};
  for (int i = 0; i < kCases; ++i) {
    std::mt19937_64 rng(7'300'000 + static_cast<std::uint64_t>(i));
    const int which = static_cast<int>(rng() % 2);
    const std::string name = which == 0 ? "joints.csv" : "contacts.csv";
    std::string text = originals[which];
    std::string what;
    for (int n = 1 + static_cast<int>(rng() % 3); n > 0; --n) what += mutate_csv(text, rng) + "; ";
    const fs::path dir = copy("fuzz", name, text);
    ViewOptions options;
    if (i % 2 == 0) options.pose_budget_bytes = 3 * 2 * 48, options.max_contact_points = 5;
    try {
      build_view_page(dir, options);
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_TRUE(message.starts_with((dir / name).string() + ": ")) << "case " << i << " (" << name << ": " << what
                                                                     << "): " << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "case " << i << " (" << name << ": " << what << "): not an InputError: " << e.what();
    }
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace affix::viewer
