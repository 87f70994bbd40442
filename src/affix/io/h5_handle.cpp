#include "affix/io/h5_handle.hpp"

#include <hdf5.h>

#include <string_view>
#include <type_traits>

namespace affix::h5 {

static_assert(std::is_same_v<hid_t, Id>, "h5::Id must be HDF5's hid_t");
static_assert(std::is_same_v<herr_t, int>, "Handle::Closer returns HDF5's herr_t");

namespace {

/// HDF5 reports a failed system call as "file write failed: time = …, filename = …, errno = 27, error
/// message = 'File too large', buf = …": kept as "file write failed: File too large".
std::string readable(std::string text) {
  constexpr std::string_view key = "error message = '";
  const std::size_t at = text.find(key);
  if (at != std::string::npos) {
    const std::size_t from = at + key.size();
    const std::size_t to = text.find('\'', from);
    text = text.substr(0, text.find_first_of(":,")) + ": " + text.substr(from, to == std::string::npos ? to : to - from);
  }
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace

void prepare() {
  // H5dont_atexit only counts before the library starts; later calls fail harmlessly.
  static const bool once = (H5dont_atexit(), true);
  (void)once;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

std::string last_error() {
  std::string message;
  // H5E_WALK_UPWARD starts at the innermost call: its description says most precisely what went wrong.
  const auto first = [](unsigned, const H5E_error2_t* error, void* data) -> herr_t {
    if (error->desc != nullptr && *error->desc != '\0') {
      *static_cast<std::string*>(data) = error->desc;
      return 1;  // stop the walk
    }
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, first, &message);
  return message.empty() ? "unknown reason" : readable(message);
}

}  // namespace affix::h5
