#include "affix/render/trajectory_reader.hpp"

#include <charconv>
#include <fstream>
#include <optional>

#include "affix/error.hpp"
#include "affix/io/trajectory_writer.hpp"

namespace affix {

namespace {

/// Splits one CSV line into fields; a field may be quoted (RFC 4180: "" inside quotes is one "), which
/// is how csv_field writes a body name holding a comma or a quote. Body names hold no line breaks that
/// matter to a renderer, so a record is one line.
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') fields.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"') fields.back() += line[++i];
      else quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

/// The whole field as a number (from_chars reads the writer's `inf` and `nan` too), or nothing.
template <typename T>
std::optional<T> parse_number(const std::string& field) {
  T value{};
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size()) return std::nullopt;
  return value;
}

class Reader {
 public:
  Reader(const std::filesystem::path& file, const std::vector<std::string>& names) : file_(file), names_(names) {}

  std::vector<TrajectoryFrame> read() {
    std::ifstream in(file_);
    if (!in) fail_file("cannot read file (run `affix run` to make it)");
    std::string line;
    if (!std::getline(in, line) || line.rfind(TrajectoryWriter::kHeader, 0) != 0)
      fail_line("expected the header " + std::string(TrajectoryWriter::kHeader));
    while (std::getline(in, line)) {
      ++line_number_;
      if (!line.empty() && line != "\r") add_row(split_csv(line));
    }
    // A run killed while writing may leave its last frame short: leave that frame out.
    if (!frames_.empty() && frames_.back().poses.size() != names_.size()) frames_.pop_back();
    return std::move(frames_);
  }

 private:
  static constexpr std::size_t kFields = 15;  // frame, time, body, x, y, z, a00 … a22

  void add_row(const std::vector<std::string>& fields) {
    if (fields.size() < kFields)
      fail_line("expected " + std::to_string(kFields) + " fields, got " + std::to_string(fields.size()));
    const auto frame = parse_number<int>(fields[0]);
    const auto time = parse_number<double>(fields[1]);
    if (!frame || !time) fail_line("expected a frame number and a time");
    if (frames_.empty() || frames_.back().index != *frame) {
      check_complete();
      frames_.push_back({*frame, *time, {}});
    }
    TrajectoryFrame& current = frames_.back();
    const std::size_t body = current.poses.size();
    if (body >= names_.size() || fields[2] != names_[body])
      fail_line("body '" + fields[2] + "' where meshes.json has " +
                (body < names_.size() ? "'" + names_[body] + "'" : "no more bodies"));
    double values[12];
    for (std::size_t k = 0; k < 12; ++k) {
      const auto value = parse_number<double>(fields[3 + k]);
      if (!value) fail_line("expected a number in column " + std::to_string(4 + k) + ", got '" + fields[3 + k] + "'");
      values[k] = *value;
    }
    BodyPose pose;
    pose.p = Vec3(values[0], values[1], values[2]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) pose.A(i, j) = values[3 + 3 * i + j];  // a_ij, row-major
    current.poses.push_back(pose);
  }

  void check_complete() const {
    if (!frames_.empty() && frames_.back().poses.size() != names_.size())
      fail_line("frame " + std::to_string(frames_.back().index) + " has " +
                std::to_string(frames_.back().poses.size()) + " of " + std::to_string(names_.size()) + " bodies");
  }

  [[noreturn]] void fail_file(const std::string& message) const { throw InputError(file_.string() + ": " + message); }
  [[noreturn]] void fail_line(const std::string& message) const {
    fail_file("line " + std::to_string(line_number_) + ": " + message);
  }

  const std::filesystem::path& file_;
  const std::vector<std::string>& names_;
  std::vector<TrajectoryFrame> frames_;
  int line_number_ = 1;
};

}  // namespace

std::vector<TrajectoryFrame> read_trajectory(const std::filesystem::path& file,
                                             const std::vector<std::string>& body_names) {
  return Reader(file, body_names).read();
}

}  // namespace affix
