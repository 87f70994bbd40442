#pragma once
// Reading the run's CSV files back (the page's side of DESIGN §4): a line reader that knows its line
// number, RFC 4180 fields, and numbers as the writers print them (round-trip, `inf`, `-inf`, `nan`).
// Every failure is an InputError naming the file and the line.
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace affix::viewer {

class CsvReader {
 public:
  /// Opens `file`; throws InputError naming it when it cannot be read.
  explicit CsvReader(const std::filesystem::path& file);

  /// Data lines after the header (a last line without '\n' counts), without reading them into memory.
  std::size_t count_rows();

  /// Reads the header (the first line); the reader is then at the first data line.
  std::string read_header();

  /// The next data line, without its line break; false at the end of the file.
  bool next_row(std::string& line);

  /// Skips the next data line; false at the end of the file.
  bool skip_row();

  /// "<file>:<line>: <what>", for an InputError about the line last read.
  std::string where(std::string_view what) const;

  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  std::ifstream in_;
  std::size_t line_number_ = 0;
};

/// The fields of one CSV line; quoted fields are unquoted ("" inside a quoted field is one quote).
std::vector<std::string> split_csv_line(std::string_view line);

/// `field` as a double (`inf`, `-inf` and `nan` included); false when it is not exactly a number.
bool parse_number(std::string_view field, double& value);

}  // namespace affix::viewer
