#include "support/source_paths.hpp"

namespace test {
const char* source_dir() { return AFFIX_TEST_SOURCE_DIR; }
const char* affix_executable() { return AFFIX_TEST_EXECUTABLE; }
}  // namespace test
