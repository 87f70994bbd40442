// replace_file writes a whole file or leaves the old one: checked with a real write failure (a
// file-size limit, as `ulimit -f` gives), and through a symbolic link.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "affix/scene/replace_file.hpp"
#include "scene/scene_files.hpp"
#include "support/files.hpp"

namespace affix {
namespace {
namespace fs = std::filesystem;

using test::read_file;
using test::TempDir;

TEST(ReplaceFile, WritesTheWholeContentsAndLeavesNoTemporary) {
  TempDir dir;
  const fs::path file = dir.path() / "a.json";
  std::ofstream(file) << "old";
  EXPECT_EQ(replace_file(file, "new contents\n"), std::nullopt);
  EXPECT_EQ(read_file(file), "new contents\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(ReplaceFile, AFailedWriteLeavesTheOldFileAndNoTemporary) {
  TempDir dir;
  const fs::path file = dir.path() / "a.json";
  std::ofstream(file) << "old";
  // A file-size limit of 1 KiB makes the 64 KiB write fail with EFBIG (SIGXFSZ ignored, as `affix` does).
  const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit previous{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &previous), 0);
  rlimit small = previous;
  small.rlim_cur = 1024;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  const auto reason = replace_file(file, std::string(65536, 'x'));
  setrlimit(RLIMIT_FSIZE, &previous);
  std::signal(SIGXFSZ, previous_handler);
  ASSERT_NE(reason, std::nullopt);
  EXPECT_EQ(read_file(file), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(ReplaceFile, AMissingDirectoryIsAReasonNotAFile) {
  TempDir dir;
  EXPECT_NE(replace_file(dir.path() / "missing" / "a.json", "x"), std::nullopt);
  EXPECT_FALSE(fs::exists(dir.path() / "missing"));
}

TEST(ReplaceFile, ASymbolicLinkIsWrittenThrough) {
  TempDir dir;
  const fs::path target = dir.path() / "target.json", link = dir.path() / "link.json";
  std::ofstream(target) << "old";
  fs::create_symlink(target, link);
  EXPECT_EQ(replace_file(link, "new"), std::nullopt);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(target), "new");
}

}  // namespace
}  // namespace affix
