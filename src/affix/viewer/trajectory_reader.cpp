#include "affix/viewer/trajectory_reader.hpp"

#include <string_view>

#include "affix/error.hpp"
#include "affix/io/trajectory_writer.hpp"
#include "affix/viewer/csv_reader.hpp"

namespace affix::viewer {

namespace {

constexpr std::size_t kColumns = 15;  // frame, time, body, then 12 numbers

/// Parses one kept row into its frame's slot.
void parse_row(const CsvReader& reader, const std::string& line, int frame, const std::string& name,
               double& time, float* pose) {
  const std::vector<std::string> fields = split_csv_line(line);
  if (fields.size() != kColumns)
    throw InputError(reader.where("expected " + std::to_string(kColumns) + " fields, got " +
                                  std::to_string(fields.size())));
  double value = 0.0;
  if (!parse_number(fields[0], value) || value != frame)
    throw InputError(reader.where("expected frame " + std::to_string(frame) + ", got '" + fields[0] + "'"));
  if (fields[2] != name)
    throw InputError(reader.where("expected body '" + name + "' (meshes.json's order), got '" + fields[2] + "'"));
  if (!parse_number(fields[1], time)) throw InputError(reader.where("time: expected a number, got '" + fields[1] + "'"));
  for (std::size_t j = 0; j < 12; ++j) {
    if (!parse_number(fields[3 + j], value))
      throw InputError(reader.where("column " + std::to_string(4 + j) + ": expected a number, got '" +
                                    fields[3 + j] + "'"));
    pose[j] = static_cast<float>(value);
  }
}

}  // namespace

PoseFrames read_trajectory(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                           std::size_t budget_bytes) {
  CsvReader reader(file);
  const std::string header = reader.read_header();
  if (header != TrajectoryWriter::kHeader)
    throw InputError(reader.where("expected the header " + std::string(TrajectoryWriter::kHeader)));
  const std::size_t bodies = body_names.size();
  if (bodies == 0) throw InputError(file.string() + ": meshes.json lists no bodies to show");
  const std::size_t rows = reader.count_rows();
  const int frames = static_cast<int>(rows / bodies);
  if (frames == 0)
    throw InputError(file.string() + ": no complete frame (expected " + std::to_string(bodies) +
                     " rows per frame, one per body of meshes.json)");

  PoseFrames out;
  out.selection = select_frames(frames, static_cast<int>(bodies), budget_bytes);
  const std::size_t kept = out.selection.frames.size();
  out.times.assign(kept, 0.0);
  out.poses.assign(kept * bodies * 12, 0.0f);

  std::string line;
  std::size_t next = 0;  // index into selection.frames
  for (int f = 0; f < frames && next < kept; ++f) {
    const bool keep = out.selection.frames[next] == f;
    for (std::size_t b = 0; b < bodies; ++b) {
      if (!keep) {
        reader.skip_row();
        continue;
      }
      reader.next_row(line);
      parse_row(reader, line, f, body_names[b], out.times[next], &out.poses[(next * bodies + b) * 12]);
    }
    if (keep) ++next;
  }
  return out;
}

}  // namespace affix::viewer
