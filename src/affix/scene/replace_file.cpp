#include "affix/scene/replace_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace affix {
namespace fs = std::filesystem;
namespace {

/// Writes contents to `file` (created or truncated); the reason when it fails.
std::optional<std::string> write_in_place(const fs::path& file, std::string_view contents) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) return std::strerror(errno);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.flush();
  if (!out) return errno != 0 ? std::strerror(errno) : "write failed";
  out.close();
  if (!out) return errno != 0 ? std::strerror(errno) : "write failed";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> replace_file(const fs::path& path, std::string_view contents) {
  std::error_code ec;
  // Through a symbolic link to what it names, as writing the link in place would.
  const fs::path file = fs::is_symlink(fs::symlink_status(path, ec)) ? fs::weakly_canonical(path, ec) : path;
  const fs::file_status status = fs::status(file, ec);
  if (fs::exists(status) && !fs::is_regular_file(status)) return write_in_place(file, contents);
  fs::path temporary = file;
  temporary += ".tmp-" + std::to_string(::getpid());
  errno = 0;
  if (auto reason = write_in_place(temporary, contents)) {
    fs::remove(temporary, ec);
    return reason;
  }
  fs::rename(temporary, file, ec);
  if (ec) {
    fs::remove(temporary, ec);
    return ec.message();
  }
  return std::nullopt;
}

}  // namespace affix
