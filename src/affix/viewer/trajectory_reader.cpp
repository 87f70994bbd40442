#include "affix/viewer/trajectory_reader.hpp"

#include <Eigen/LU>

#include <climits>
#include <cmath>
#include <limits>

#include "affix/error.hpp"
#include "affix/io/csv_reader.hpp"
#include "affix/io/trajectory_format.hpp"
#include "affix/io/trajectory_row.hpp"
#include "affix/viewer/trajectory_h5_reader.hpp"

namespace affix::viewer {

namespace {

/// Parses one kept row into its frame's slot: the row must be frame `frame`'s, of body `b`, at the
/// frame's time (`time`, NaN before the frame's first row sets it).
void parse_row(const CsvReader& reader, const std::string& line, int frame, const std::vector<std::string>& names,
               std::size_t b, double& time, float* pose) {
  const TrajectoryRow row = parse_trajectory_row(reader, line);
  expect_frame(reader, row, frame);
  expect_body(reader, row, names, b);
  if (!std::isnan(time)) expect_time(reader, row, time);
  time = row.time;
  for (std::size_t j = 0; j < 12; ++j) pose[j] = static_cast<float>(row.values[j]);
}

}  // namespace

PoseFrames read_trajectory(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                           std::size_t budget_bytes) {
  if (is_hdf5_trajectory(file)) return read_trajectory_h5(file, body_names, budget_bytes);
  CsvReader reader(file);
  check_trajectory_header(reader, reader.read_header());
  const std::size_t bodies = body_names.size();
  if (bodies == 0) throw InputError(file.string() + ": meshes.json lists no bodies to show");
  const std::size_t rows = reader.count_rows();
  if (rows / bodies > static_cast<std::size_t>(INT_MAX))
    throw InputError(file.string() + ": more than " + std::to_string(INT_MAX) + " frames");
  const int frames = static_cast<int>(rows / bodies);
  if (frames == 0)
    throw InputError(file.string() + ": no complete frame (expected " + std::to_string(bodies) +
                     " rows per frame, one per body of meshes.json)");

  PoseFrames out;
  out.selection = select_frames(frames, static_cast<int>(bodies), budget_bytes);
  const std::size_t kept = out.selection.frames.size();
  out.times.assign(kept, std::numeric_limits<double>::quiet_NaN());
  out.poses.assign(kept * bodies * 12, 0.0f);

  // Frames left out are skipped unread: a run larger than memory can still be viewed, and what is not
  // shown cannot hurt. Every kept row is checked.
  std::string line;
  std::size_t next = 0;  // index into selection.frames
  for (int f = 0; f < frames && next < kept; ++f) {
    const bool keep = out.selection.frames[next] == f;
    for (std::size_t b = 0; b < bodies; ++b) {
      if (!keep) {
        reader.skip_row();
        continue;
      }
      if (!reader.next_row(line)) reader.fail("the file ends inside frame " + std::to_string(f));
      parse_row(reader, line, f, body_names, b, out.times[next], &out.poses[(next * bodies + b) * 12]);
    }
    if (keep && next > 0 && out.times[next] < out.times[next - 1])
      reader.fail("time goes back: frame " + std::to_string(f) + " is earlier than frame " +
                  std::to_string(out.selection.frames[next - 1]));
    if (keep) ++next;
  }
  return out;
}

Vec3 first_frame_rest_point(const PoseFrames& frames, int b, const Vec3& x) {
  const float* pose = &frames.poses[static_cast<std::size_t>(b) * 12];
  const Vec3 p(pose[0], pose[1], pose[2]);
  Mat3 A;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) A(r, c) = pose[3 + 3 * r + c];
  const Eigen::FullPivLU<Mat3> lu(A);
  if (!p.allFinite() || !A.allFinite() || !x.allFinite() || !lu.isInvertible()) return Vec3::Constant(std::nan(""));
  return lu.solve(x - p);
}

}  // namespace affix::viewer
