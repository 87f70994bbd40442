#include "affix/render/trajectory_reader.hpp"

#include <cassert>

#include "affix/error.hpp"
#include "affix/io/csv_reader.hpp"
#include "affix/io/trajectory_format.hpp"
#include "affix/io/trajectory_row.hpp"
#include "affix/render/trajectory_h5_reader.hpp"

namespace affix {

namespace {

class Reader {
 public:
  Reader(const std::filesystem::path& file, const std::vector<std::string>& names, int every)
      : csv_(file), names_(names), every_(every) {}

  Trajectory read() {
    check_trajectory_header(csv_, csv_.read_header());
    if (names_.empty()) throw InputError(csv_.file().string() + ": meshes.json lists no bodies to draw");
    std::string line;
    while (csv_.next_row(line)) add_row(parse_trajectory_row(csv_, line));
    // A run killed while writing may leave its last frame short: leave that frame out.
    if (body_ == names_.size()) ++out_.frame_count;
    else if (kept_current() && !out_.frames.empty()) out_.frames.pop_back();
    return std::move(out_);
  }

 private:
  bool kept_current() const { return frame_ % every_ == 0; }

  void add_row(const TrajectoryRow& row) {
    if (started_ && body_ < names_.size()) {
      if (row.frame != frame_) csv_.fail(missing_bodies());
    } else {
      start_frame(row);
    }
    expect_body(csv_, row, names_, body_);
    expect_time(csv_, row, time_);
    if (kept_current()) out_.frames.back().poses.push_back(trajectory_pose(row.values.data()));
    ++body_;
  }

  /// The row opens the next frame: its number is one more than the last, its time no earlier.
  void start_frame(const TrajectoryRow& row) {
    if (started_ && row.frame == frame_)
      csv_.fail("frame " + std::to_string(frame_) + " already has all " + std::to_string(names_.size()) +
                " bodies of meshes.json");
    expect_frame(csv_, row, started_ ? frame_ + 1 : 0);
    if (started_ && row.time < time_)
      csv_.fail("time goes back: frame " + std::to_string(row.frame) + " is earlier than frame " + std::to_string(frame_));
    if (started_) ++out_.frame_count;
    started_ = true;
    frame_ = row.frame;
    time_ = row.time;
    body_ = 0;
    if (!kept_current()) return;
    if ((out_.frames.size() + 1) * names_.size() > kMaxHeldPoses)
      csv_.fail("more than " + std::to_string(kMaxHeldPoses) + " poses (frames × bodies) to hold for drawing; " +
                "draw fewer frames (--every)");
    out_.frames.push_back({row.frame, row.time, {}});
    out_.frames.back().poses.reserve(names_.size());
  }

  std::string missing_bodies() const {
    return "frame " + std::to_string(frame_) + " has " + std::to_string(body_) + " of " +
           std::to_string(names_.size()) + " bodies (expected body " + quoted_field(names_[body_]) + ")";
  }

  CsvReader csv_;
  const std::vector<std::string>& names_;
  int every_;
  Trajectory out_;
  bool started_ = false;
  int frame_ = 0;       // the frame being read
  double time_ = 0.0;   // its time
  std::size_t body_ = 0;  // rows of it read so far
};

}  // namespace

Trajectory read_trajectory(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                           int every) {
  assert(every >= 1);
  if (is_hdf5_trajectory(file)) return read_trajectory_h5(file, body_names, every);
  return Reader(file, body_names, every).read();
}

}  // namespace affix
