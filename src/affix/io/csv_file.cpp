#include "affix/io/csv_file.hpp"

#include <cerrno>
#include <cstring>

#include "affix/error.hpp"

namespace affix {

CsvFile::CsvFile(const std::filesystem::path& path, std::string_view header)
    : path_(path), stream_(path, std::ios::out | std::ios::trunc | std::ios::binary) {
  // Binary mode: rows end in '\n' on every platform, so files from two machines compare equal.
  if (!stream_) {
    throw OutputError(path.string() + ": cannot create the output file (" + std::strerror(errno) + ")");
  }
  write(std::string(header) + '\n');
}

void CsvFile::write(const std::string& rows) {
  errno = 0;
  stream_ << rows;
  stream_.flush();
  if (!stream_) {
    throw OutputError(path_.string() + ": writing failed (" +
                      (errno != 0 ? std::strerror(errno) : "unknown reason") + ")");
  }
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';  // a quote inside a quoted field is doubled
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

}  // namespace affix
