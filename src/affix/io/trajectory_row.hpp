#pragma once
// One row of trajectory.csv (DESIGN §4) checked and parsed, for the readers of `affix view` and `affix
// render`: exactly the 15 fields of TrajectoryWriter::kHeader, a whole frame number ≥ 0, a finite
// time ≥ 0, the body's name, and 12 numbers (p, then A row by row; `inf` and `nan` are numbers here —
// a diverging run may write them, and the readers decide what to draw). How rows group into frames
// is the readers' business.
#include <array>
#include <string>
#include <vector>

#include "affix/io/csv_reader.hpp"
#include "affix/model/body_state.hpp"

namespace affix {

struct TrajectoryRow {
  int frame = 0;
  double time = 0.0;
  std::string body;
  std::array<double, 12> values{};  ///< x y z a00 a01 a02 a10 a11 a12 a20 a21 a22
};

/// The pose that a row's 12 numbers (p, then A row by row) describe, wherever they were read from
/// (trajectory.csv, or a frame of trajectory.h5 in the same order).
BodyPose trajectory_pose(const double* values);

/// Checks the header line just read; throws InputError (reader.fail) naming the line otherwise.
void check_trajectory_header(const CsvReader& reader, const std::string& header);

/// Parses `line`, the line `reader` read last. Throws InputError naming the file, the line and the
/// column that is wrong.
TrajectoryRow parse_trajectory_row(const CsvReader& reader, const std::string& line);

// The order rows come in, as the writer writes them; each throws InputError naming the line otherwise.
/// The row belongs to frame `frame` (frames count 0, 1, 2, …).
void expect_frame(const CsvReader& reader, const TrajectoryRow& row, int frame);
/// The row is of body `b` of `names` (meshes.json's order).
void expect_body(const CsvReader& reader, const TrajectoryRow& row, const std::vector<std::string>& names,
                 std::size_t b);
/// The row's time is `time`, that of its frame's first row.
void expect_time(const CsvReader& reader, const TrajectoryRow& row, double time);

}  // namespace affix
