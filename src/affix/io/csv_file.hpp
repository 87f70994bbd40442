#pragma once
// A CSV output file written block by block, each block flushed at once: a run that dies (a crash, a
// kill, a diverging solver) leaves every row written before it on disk.
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

/// `text` as one CSV field: as is, or quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string csv_field(std::string_view text);

}  // namespace affix
