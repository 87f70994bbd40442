#pragma once
// contacts.csv (DESIGN §4), written when `affix run --contacts` asks for it: one row per contact the
// solver acts on, per output frame (the frames of trajectory.csv, with the same frame number and time),
//   frame,time,body1,body2,x,y,z,nx,ny,nz,distance,force
// body1 and body2 are body names (body2 `ground` for the ground); (x, y, z) the world point midway
// between the two closest points; (nx, ny, nz) the unit normal from body2 towards body1 (+z for the
// ground); distance the gap in metres (> 0: apart, as a barrier method keeps it; < 0: a penetration
// depth, for a back-end that allows one); force the normal force's magnitude in newtons. A frame
// without contacts has no rows. Every number round-trips (number_format.hpp).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "affix/io/csv_file.hpp"
#include "affix/model/records.hpp"

namespace affix {

class ContactsWriter {
 public:
  static constexpr std::string_view kHeader = "frame,time,body1,body2,x,y,z,nx,ny,nz,distance,force";

  /// Creates the file and writes the header; `body_names` in scene order (ContactRecord's indices).
  ContactsWriter(const std::filesystem::path& path, const std::vector<std::string>& body_names);

  /// Writes frame `frame` at simulated time `time`: one row per record, in record order, flushed.
  void write_frame(int frame, double time, const std::vector<ContactRecord>& records);

 private:
  CsvFile file_;
  std::vector<std::string> body_fields_;  // names, CSV-quoted where needed
};

}  // namespace affix
