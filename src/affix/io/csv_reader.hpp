#pragma once
// Reading a run's CSV files back (the readers' side of DESIGN §4), shared by `affix view` and `affix
// render`: a line reader that knows its line number, RFC 4180 fields, and numbers as the writers print
// them (round-trip, `inf`, `-inf`, `nan`). The files are untrusted input — hand-edited, truncated by a
// killed run, or not a run's file at all — so a line is never held beyond kMaxCsvLineBytes, and every
// failure is an InputError "<file>: line <n>: <what>".
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace affix {

/// The longest line read (a trajectory row is about 300 bytes plus the body's name): a file without
/// line breaks must not become one allocation of its whole size.
inline constexpr std::size_t kMaxCsvLineBytes = std::size_t{1} << 20;

class CsvReader {
 public:
  /// Opens `file`; throws InputError naming it when it is not a readable regular file.
  explicit CsvReader(const std::filesystem::path& file);

  /// Data lines after the header (a last line without '\n' counts), without reading them into memory.
  std::size_t count_rows();

  /// Reads the header (the first line); the reader is then at the first data line.
  std::string read_header();

  /// The next data line, without its line break; false at the end of the file. Throws InputError for
  /// a line longer than kMaxCsvLineBytes.
  bool next_row(std::string& line);

  /// Skips the next data line without holding it; false at the end of the file.
  bool skip_row();

  /// "<file>: line <n>: <what>", about the line last read.
  std::string where(std::string_view what) const;
  /// Throws InputError(where(what)).
  [[noreturn]] void fail(std::string_view what) const;

  const std::filesystem::path& file() const { return file_; }
  std::size_t line_number() const { return line_number_; }

 private:
  std::filesystem::path file_;
  std::ifstream in_;
  std::size_t line_number_ = 0;
};

/// The fields of one CSV line; quoted fields are unquoted ("" inside a quoted field is one quote).
std::vector<std::string> split_csv_line(std::string_view line);

/// `field` as a double (`inf`, `-inf` and `nan` included); false when it is not exactly a number.
bool parse_number(std::string_view field, double& value);

/// `field` as a whole number (optional '-', digits only); false otherwise or when it overflows.
bool parse_integer(std::string_view field, long long& value);

/// `field` in single quotes for a message, cut short and with control characters escaped (excerpt).
std::string quoted_field(std::string_view field);

}  // namespace affix
