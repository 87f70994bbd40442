#include "affix/viewer/csv_reader.hpp"

#include <algorithm>
#include <charconv>

#include "affix/error.hpp"

namespace affix::viewer {

CsvReader::CsvReader(const std::filesystem::path& file) : file_(file), in_(file, std::ios::binary) {
  if (!in_ || std::filesystem::is_directory(file))
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
  if (!std::getline(in_, line)) return false;
  ++line_number_;
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
  return file_.string() + ":" + std::to_string(line_number_) + ": " + std::string(what);
}

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

}  // namespace affix::viewer
