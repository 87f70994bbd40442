#pragma once
// Small RAII helpers over HDF5's C API (hdf5.h), shared by the trajectory.h5 writer and reader. A
// Handle closes its identifier when it goes; check() turns a failed call into affix's own error, one
// line naming the file, what was being done and HDF5's own reason. HDF5's habit of printing its whole
// error stack on stderr is switched off: affix reports errors its own way (README, Exit codes).
//
// This header does not include hdf5.h (an identifier is a plain 64-bit integer, checked in the .cpp),
// so the io headers that hold Handles keep HDF5 out of the layers above.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

namespace affix::h5 {

using Id = std::int64_t;  ///< hid_t

/// An open HDF5 object (file, dataset, dataspace, datatype, property list, attribute) that is closed
/// when the Handle goes, by the H5?close function given with it.
class Handle {
 public:
  using Closer = int (*)(Id);
  Handle() = default;
  Handle(Id id, Closer close) : id_(id), close_(close) {}
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, -1);
      close_ = other.close_;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  Id get() const { return id_; }
  /// Closes now; the result of the close (negative: it failed), 0 when there was nothing to close.
  int reset() { return id_ >= 0 ? close_(std::exchange(id_, -1)) : 0; }
  /// Forgets the object without closing it (see abandon() in the writer: closing would write).
  void release() { id_ = -1; }

 private:
  Id id_ = -1;
  Closer close_ = nullptr;
};

/// Called before affix first opens an HDF5 file (every opener does; cheap after the first time):
///   - HDF5 prints no error stack on stderr (for this thread, the one that uses HDF5: affix calls it from
///     the main thread only);
///   - HDF5 closes nothing at exit. A file whose writing failed (a full disk) is abandoned open, since
///     closing it would write more — and the library, closing it again at exit, would crash. Every
///     file that is fine is closed by its Handle.
void prepare();

/// The most specific message on HDF5's error stack now (the innermost call's), e.g. "truncated file:
/// eof = 512, sblock->base_addr = 0, stored_eof = 2048", on one line; a failed system call as what
/// failed and the system's words ("file write failed: File too large"); "unknown reason" when the stack
/// is empty.
std::string last_error();

/// `value` when it is ≥ 0 (HDF5's success), else throws Error("FILE: WHAT (HDF5's reason)").
template <typename Error, typename T>
T check(T value, const std::filesystem::path& file, std::string_view what) {
  if (value < 0) throw Error(file.string() + ": " + std::string(what) + " (" + last_error() + ")");
  return value;
}

}  // namespace affix::h5
