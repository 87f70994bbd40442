#include "affix/io/trajectory_row.hpp"

#include <climits>
#include <cmath>
#include <vector>

#include "affix/io/trajectory_writer.hpp"

namespace affix {

namespace {

constexpr std::size_t kColumns = 15;  // frame, time, body, then 12 numbers

/// Column names for messages, as the header has them.
const char* const kNames[kColumns] = {"frame", "time", "body", "x",   "y",   "z",   "a00", "a01",
                                      "a02",   "a10",  "a11",  "a12", "a20", "a21", "a22"};

}  // namespace

BodyPose trajectory_pose(const double* values) {
  BodyPose pose;
  pose.p = Vec3(values[0], values[1], values[2]);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) pose.A(i, j) = values[3 + 3 * i + j];  // a_ij, row-major
  return pose;
}

void check_trajectory_header(const CsvReader& reader, const std::string& header) {
  if (header != TrajectoryWriter::kHeader)
    reader.fail("expected the header " + std::string(TrajectoryWriter::kHeader) + ", got " + quoted_field(header));
}

TrajectoryRow parse_trajectory_row(const CsvReader& reader, const std::string& line) {
  const std::vector<std::string> fields = split_csv_line(line);
  if (fields.size() != kColumns)
    reader.fail("expected " + std::to_string(kColumns) + " fields, got " + std::to_string(fields.size()));
  const auto column = [&](std::size_t c, const std::string& what) {
    reader.fail(std::string(kNames[c]) + " (column " + std::to_string(c + 1) + "): expected " + what + ", got " +
                quoted_field(fields[c]));
  };
  TrajectoryRow row;
  long long frame = 0;
  if (!parse_integer(fields[0], frame) || frame < 0 || frame > INT_MAX) column(0, "a frame number, a whole number ≥ 0");
  row.frame = static_cast<int>(frame);
  if (!parse_number(fields[1], row.time) || !std::isfinite(row.time) || row.time < 0)
    column(1, "a time, a finite number ≥ 0");
  row.body = fields[2];
  for (std::size_t j = 0; j < 12; ++j)
    if (!parse_number(fields[3 + j], row.values[j])) column(3 + j, "a number");
  return row;
}

void expect_frame(const CsvReader& reader, const TrajectoryRow& row, int frame) {
  if (row.frame != frame)
    reader.fail("frame " + std::to_string(row.frame) + " where frame " + std::to_string(frame) +
                " comes next (one row per body of meshes.json per frame, frames counting 0, 1, 2, …)");
}

void expect_body(const CsvReader& reader, const TrajectoryRow& row, const std::vector<std::string>& names,
                 std::size_t b) {
  if (row.body != names[b])
    reader.fail("body " + quoted_field(row.body) + " where meshes.json has " + quoted_field(names[b]) + " (body " +
                std::to_string(b + 1) + " of " + std::to_string(names.size()) + " of frame " +
                std::to_string(row.frame) + ")");
}

void expect_time(const CsvReader& reader, const TrajectoryRow& row, double time) {
  if (row.time != time)
    reader.fail("time differs from that of frame " + std::to_string(row.frame) + "'s first row");
}

}  // namespace affix
