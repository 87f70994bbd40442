#include "affix/viewer/records_reader.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "affix/io/contacts_writer.hpp"
#include "affix/io/csv_reader.hpp"
#include "affix/io/joints_writer.hpp"

namespace affix::viewer {

namespace {

/// A file's rows as the reader sees them: its fields, with messages that name the column.
class Row {
 public:
  Row(const CsvReader& reader, const std::string& line, const char* const* names, std::size_t columns)
      : reader_(reader), fields_(split_csv_line(line)), names_(names) {
    if (fields_.size() != columns)
      reader.fail("expected " + std::to_string(columns) + " fields, got " + std::to_string(fields_.size()));
  }

  [[noreturn]] void fail(std::size_t c, const std::string& what) const {
    reader_.fail(std::string(names_[c]) + " (column " + std::to_string(c + 1) + "): expected " + what + ", got " +
                 quoted_field(fields_[c]));
  }
  const std::string& operator[](std::size_t c) const { return fields_[c]; }

  /// Column c as a frame number: a whole number ≥ 0.
  int frame(std::size_t c) const {
    long long value = 0;
    if (!parse_integer(fields_[c], value) || value < 0 || value > INT_MAX) fail(c, "a frame number, a whole number ≥ 0");
    return static_cast<int>(value);
  }
  double number(std::size_t c) const {
    double value = 0.0;
    if (!parse_number(fields_[c], value)) fail(c, "a number");
    return value;
  }
  /// Columns c, c + 1, c + 2 as a point or direction with finite coordinates.
  Vec3 finite_vector(std::size_t c) const {
    Vec3 v;
    for (int i = 0; i < 3; ++i) {
      if (!parse_number(fields_[c + i], v[i]) || !std::isfinite(v[i])) fail(c + i, "a finite number");
    }
    return v;
  }
  /// The time in column c, which must be `expected` (the frame's time in trajectory.csv).
  void expect_time(std::size_t c, double expected) const {
    double t = 0.0;
    if (!parse_number(fields_[c], t) || t != expected)
      fail(c, "the frame's time in trajectory.csv, " + quoted_field(format_time(expected)));
  }
  /// Column c as a body of meshes.json (−1 for `none`, when given).
  int body(std::size_t c, const std::unordered_map<std::string, int>& index, const char* none) const {
    if (none != nullptr && fields_[c] == none) return -1;
    const auto it = index.find(fields_[c]);
    if (it == index.end())
      fail(c, std::string("a body of meshes.json") + (none != nullptr ? std::string(" or '") + none + "'" : ""));
    return it->second;
  }

 private:
  static std::string format_time(double t) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", t);
    return text;
  }

  const CsvReader& reader_;
  std::vector<std::string> fields_;
  const char* const* names_;
};

std::unordered_map<std::string, int> name_index(const std::vector<std::string>& names) {
  std::unordered_map<std::string, int> index;
  index.reserve(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) index.emplace(names[i], static_cast<int>(i));
  return index;
}

void check_header(const CsvReader& reader, const std::string& header, std::string_view expected) {
  if (header != expected)
    reader.fail("expected the header " + std::string(expected) + ", got " + quoted_field(header));
}

constexpr std::size_t kJointColumns = 18;
const char* const kJointNames[kJointColumns] = {"frame", "time", "joint", "body1", "body2", "x1",
                                                "y1",    "z1",   "x2",    "y2",    "z2",    "ax1",
                                                "ay1",   "az1",  "ax2",   "ay2",   "az2",   "error"};
constexpr std::size_t kContactColumns = 12;
const char* const kContactNames[kContactColumns] = {"frame", "time", "body1", "body2", "x", "y",
                                                    "z",     "nx",   "ny",    "nz",    "distance", "force"};

/// World point x in the rest frame of body b at trajectory.csv's frame 0 (kept frame 0 of `frames`).
Vec3 rest_point(const Row& row, std::size_t column, const PoseFrames& frames, int b, const Vec3& x) {
  const Vec3 x_bar = first_frame_rest_point(frames, b, x);
  if (!x_bar.allFinite())
    row.fail(column, "a body whose pose at frame 0 of trajectory.csv is finite and invertible, so that the anchor "
                     "can follow it");
  return x_bar;
}

}  // namespace

JointLayer read_joint_layer(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                            const PoseFrames& frames, std::size_t max_joints) {
  CsvReader reader(file);
  check_header(reader, reader.read_header(), JointsWriter::kHeader);
  const auto index = name_index(body_names);
  JointLayer out;
  // trajectory.csv's frame 0 is always embedded (decimation.hpp); its poses place the anchors.
  if (frames.selection.frames.empty() || frames.selection.frames.front() != 0) return out;
  std::string line;
  while (reader.next_row(line)) {
    const Row row(reader, line, kJointNames, kJointColumns);
    const int frame = row.frame(0);
    if (frame != 0) {
      if (out.total == 0) row.fail(0, "frame 0 first");
      break;  // frame 0's joints are all the page needs
    }
    row.expect_time(1, frames.times[0]);
    JointAnchors j;
    j.name = row[2];
    j.body1 = row.body(3, index, nullptr);
    j.body2 = row.body(4, index, "world");
    const Vec3 a1 = row.finite_vector(5), a2 = row.finite_vector(8);
    for (std::size_t c = 11; c < kJointColumns; ++c) row.number(c);
    ++out.total;
    if (out.joints.size() >= max_joints) continue;
    j.anchor1 = rest_point(row, 3, frames, j.body1, a1);
    j.anchor2 = j.body2 < 0 ? a2 : rest_point(row, 4, frames, j.body2, a2);
    out.joints.push_back(std::move(j));
  }
  return out;
}

ContactLayer read_contact_layer(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                                const PoseFrames& frames, std::size_t max_points) {
  CsvReader reader(file);
  check_header(reader, reader.read_header(), ContactsWriter::kHeader);
  const auto index = name_index(body_names);
  const std::vector<int>& kept = frames.selection.frames;
  ContactLayer out;
  out.per_frame_cap = std::max<std::size_t>(1, max_points / std::max<std::size_t>(1, kept.size()));
  std::size_t next = 0;       // the first kept frame not before the row's
  std::size_t in_frame = 0;   // rows of out.frames.back() so far
  int last_frame = 0;
  std::string line;
  while (reader.next_row(line)) {
    const Row row(reader, line, kContactNames, kContactColumns);
    const int frame = row.frame(0);
    if (frame >= frames.selection.source_frames)
      row.fail(0, "one of trajectory.csv's frames, 0 to " + std::to_string(frames.selection.source_frames - 1));
    if (frame < last_frame)
      row.fail(0, "a frame no earlier than the row before's (" + std::to_string(last_frame) + ")");
    last_frame = frame;
    while (next < kept.size() && kept[next] < frame) ++next;
    if (next == kept.size() || kept[next] != frame) continue;  // a frame the page does not embed
    row.expect_time(1, frames.times[next]);
    row.body(2, index, nullptr);
    row.body(3, index, "ground");
    const Vec3 x = row.finite_vector(4), n = row.finite_vector(7);
    row.number(10);
    const double force = row.number(11);
    ++out.rows;
    if (out.frames.empty() || out.frames.back() != frame) {
      out.frames.push_back(frame);
      out.offsets.push_back(static_cast<std::uint32_t>(out.forces.size()));
      in_frame = 0;
    }
    if (in_frame++ >= out.per_frame_cap) {
      out.capped = true;
      continue;
    }
    for (int i = 0; i < 3; ++i) out.points.push_back(static_cast<float>(x[i]));
    for (int i = 0; i < 3; ++i) out.normals.push_back(static_cast<float>(n[i]));
    out.forces.push_back(static_cast<float>(force));
  }
  out.offsets.push_back(static_cast<std::uint32_t>(out.forces.size()));
  return out;
}

}  // namespace affix::viewer
