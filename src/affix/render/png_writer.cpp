#include "affix/render/png_writer.hpp"

#include <png.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "affix/error.hpp"

namespace affix {

void write_png(const std::filesystem::path& file, const Image& image) {
  // libpng's simplified API (1.6) reports failure by return value, not by longjmp, which keeps it clear
  // of C++ stack unwinding.
  std::FILE* out = std::fopen(file.c_str(), "wb");
  if (out == nullptr) throw InputError(file.string() + ": cannot create the file");
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = PNG_FORMAT_RGB;
  const bool written = png_image_write_to_stdio(&png, out, 0, image.rgb.data(), 0, nullptr) != 0;
  const bool closed = std::fclose(out) == 0;
  if (!written) throw std::runtime_error(file.string() + ": cannot write the PNG: " + png.message);
  if (!closed) throw std::runtime_error(file.string() + ": cannot write the PNG (disk full?)");
}

}  // namespace affix
