#include "affix/io/json_file.hpp"

#include <fstream>
#include <new>
#include <string>

#include "affix/error.hpp"
#include "affix/scene/json_text.hpp"

namespace affix {

nlohmann::json read_json_file(const std::filesystem::path& file, std::size_t max_bytes) {
  const auto fail = [&](const std::string& why) -> void { throw InputError(file.string() + ": " + why); };
  std::error_code error;
  const bool regular = std::filesystem::is_regular_file(file, error);
  std::ifstream in;
  if (regular) in.open(file, std::ios::binary);
  if (!regular || !in) fail("cannot read file (is this a run's output directory? `affix run` writes it)");
  const auto size = std::filesystem::file_size(file, error);
  if (error) fail("cannot read file (" + error.message() + ")");
  if (size > max_bytes)
    fail("the file has " + std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) +
         " this reader accepts");
  try {
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));  // the file may have shrunk since
    return parse_json_text(text, file);
  } catch (const std::bad_alloc&) {
    fail("too large to hold in memory");
  }
  return {};
}

}  // namespace affix
