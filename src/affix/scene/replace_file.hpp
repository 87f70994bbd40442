#pragma once
// Writing a whole file so that a failure never leaves half of it: the contents go to a temporary file
// beside the target, which is renamed over the target only once everything is written (a rename within
// one directory is atomic). A write that fails — disk full, a file-size limit — removes the temporary
// and leaves the target as it was. A target that exists and is not a regular file (a device such as
// /dev/stdout, a FIFO) is written in place: renaming over it would replace the device itself.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace affix {

/// Replaces `file` by `contents`. Returns nullopt on success, else the system's reason
/// ("No space left on device"); the caller names the file and the option in its own message.
std::optional<std::string> replace_file(const std::filesystem::path& file, std::string_view contents);

}  // namespace affix
