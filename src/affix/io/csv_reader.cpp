#include "affix/io/csv_reader.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {

namespace {

/// A regular file (or a link to one): a directory, a FIFO or /dev/zero would read badly or forever.
bool is_regular(const std::filesystem::path& file) {
  std::error_code error;
  return std::filesystem::is_regular_file(file, error);
}

}  // namespace

CsvReader::CsvReader(const std::filesystem::path& file) : file_(file) {
  if (is_regular(file)) in_.open(file, std::ios::binary);
  if (!in_.is_open() || !in_)
    throw InputError(file.string() + ": cannot read file (is this a run's output directory? `affix run` writes it)");
}

std::size_t CsvReader::count_rows() {
  const auto start = in_.tellg();
  in_.clear();
  in_.seekg(0);
  std::size_t lines = 0;
  char last = '\n';
  std::vector<char> buffer(1 << 20);
  while (in_) {
    in_.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::streamsize got = in_.gcount();
    if (got <= 0) break;
    lines += static_cast<std::size_t>(std::count(buffer.data(), buffer.data() + got, '\n'));
    last = buffer[static_cast<std::size_t>(got) - 1];
  }
  if (last != '\n') ++lines;  // a last line without its line break
  in_.clear();
  in_.seekg(start);
  return lines > 0 ? lines - 1 : 0;
}

std::string CsvReader::read_header() {
  in_.clear();
  in_.seekg(0);
  line_number_ = 0;
  std::string header;
  if (!next_row(header)) throw InputError(file_.string() + ": the file is empty (expected a CSV header)");
  return header;
}

bool CsvReader::next_row(std::string& line) {
  // Byte by byte from the stream's buffer (inline, no copy), so that the length is checked before the
  // line grows: std::getline would hold a line of any length.
  std::streambuf& buffer = *in_.rdbuf();
  line.clear();
  int c = buffer.sbumpc();
  if (c == std::char_traits<char>::eof()) return false;
  ++line_number_;
  for (; c != std::char_traits<char>::eof() && c != '\n'; c = buffer.sbumpc()) {
    if (line.size() == kMaxCsvLineBytes)
      fail("line longer than " + std::to_string(kMaxCsvLineBytes) + " bytes (expected a CSV row)");
    line += static_cast<char>(c);
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

bool CsvReader::skip_row() {
  if (!in_.ignore(std::numeric_limits<std::streamsize>::max(), '\n')) return false;
  if (in_.gcount() == 0) return false;
  ++line_number_;
  return true;
}

std::string CsvReader::where(std::string_view what) const {
  return file_.string() + ": line " + std::to_string(line_number_) + ": " + std::string(what);
}

void CsvReader::fail(std::string_view what) const { throw InputError(where(what)); }

std::vector<std::string> split_csv_line(std::string_view line) {
  std::vector<std::string> fields;
  std::size_t i = 0;
  while (true) {
    std::string field;
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (i < line.size()) {
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      while (i < line.size() && line[i] != ',') field += line[i++];
    } else {
      const std::size_t end = std::min(line.find(',', i), line.size());
      field.assign(line.substr(i, end - i));
      i = end;
    }
    fields.push_back(std::move(field));
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return fields;
}

bool parse_number(std::string_view field, double& value) {
  if (field.empty()) return false;
  const char* begin = field.data();
  const char* end = begin + field.size();
  if (*begin == '+') ++begin;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  return ec == std::errc() && ptr == end;
}

bool parse_integer(std::string_view field, long long& value) {
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  return !field.empty() && ec == std::errc() && ptr == end;
}

std::string quoted_field(std::string_view field) {
  std::string out(1, '\'');
  out += excerpt(field, 40);
  out += '\'';
  return out;
}

}  // namespace affix
