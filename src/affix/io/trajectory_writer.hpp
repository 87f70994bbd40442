#pragma once
// trajectory.csv (DESIGN §4): one row per body per output frame,
//   frame,time,body,x,y,z,a00,a01,a02,a10,a11,a12,a20,a21,a22
// with (x, y, z) = p and a_ij = A(i, j), so that a rest-space point x̄ lands at A·x̄ + p. `body` is the
// body's name from the scene. Every number round-trips (number_format.hpp).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "affix/io/csv_file.hpp"
#include "affix/io/trajectory_sink.hpp"
#include "affix/model/simulator.hpp"

namespace affix {

class TrajectoryWriter final : public TrajectorySink {
 public:
  static constexpr std::string_view kHeader =
      "frame,time,body,x,y,z,a00,a01,a02,a10,a11,a12,a20,a21,a22";

  /// Creates the file and writes the header; `body_names` in scene order, as poses() returns them.
  TrajectoryWriter(const std::filesystem::path& path, std::vector<std::string> body_names);

  /// Writes frame `frame` showing the state at simulated time `time`: one row per body, flushed.
  /// `poses` has one entry per body name.
  void write_frame(int frame, double time, const std::vector<BodyPose>& poses) override;

 private:
  CsvFile file_;
  std::vector<std::string> body_fields_;  // names, already CSV-quoted where needed
};

}  // namespace affix
