#pragma once
// Reading back what a test wrote: a whole file, or its lines.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace affix::test {

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace affix::test
