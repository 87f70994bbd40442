#pragma once
// A CSV output file written block by block, each block flushed at once: a run that dies (a crash, a
// kill, a diverging solver) leaves every row written before it on disk.
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace affix {

class CsvFile {
 public:
  /// Creates (truncates) `path` and writes `header` as its first line. Throws OutputError, naming the
  /// file and the system's reason, when the file cannot be created.
  CsvFile(const std::filesystem::path& path, std::string_view header);

  /// Appends `rows` (complete lines, each ending in '\n') and flushes. Throws OutputError when the
  /// write fails (disk full): a run's output is incomplete then and must not be taken for whole.
  void write(const std::string& rows);

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::ofstream stream_;
};

/// A frame's rows are written in blocks of about this many bytes, not built whole first: a frame of a
/// 10⁶-joint run is 250 MB of joints.csv text, and its string doubling up to that size held 0.75 GB.
inline constexpr std::size_t kCsvBlockBytes = std::size_t{1} << 20;

/// `text` as one CSV field: as is, or quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string csv_field(std::string_view text);

}  // namespace affix
