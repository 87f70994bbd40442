#pragma once

// Where the tests find the source tree and the `affix` executable. The paths are compiled into one
// small object (source_paths.cpp), not passed to every test file as -D values: a path on the compiler's
// command line differs between checkouts and so would defeat ccache for every test in a new worktree.
// tests/CMakeLists.txt includes this header in every test file and defines AFFIX_SOURCE_DIR and
// AFFIX_EXECUTABLE as the calls below.

namespace test {
const char* source_dir();
const char* affix_executable();
}  // namespace test
