#include "affix/io/csv_file.hpp"

#include <stdexcept>

#include "affix/error.hpp"

namespace affix {

CsvFile::CsvFile(const std::filesystem::path& path, std::string_view header)
    : path_(path), stream_(path, std::ios::out | std::ios::trunc | std::ios::binary) {
  // Binary mode: rows end in '\n' on every platform, so files from two machines compare equal.
  if (!stream_) throw InputError(path.string() + ": cannot create the output file");
  write(std::string(header) + '\n');
}

void CsvFile::write(const std::string& rows) {
  stream_ << rows;
  stream_.flush();
  if (!stream_) throw std::runtime_error(path_.string() + ": writing failed (disk full?)");
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
