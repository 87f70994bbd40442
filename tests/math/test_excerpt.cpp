// User text in messages: short text unchanged, long text cut with its length, control characters
// escaped, UTF-8 never cut in half.
#include <gtest/gtest.h>

#include <string>

#include "affix/math/excerpt.hpp"

namespace affix {
namespace {

TEST(Excerpt, ShortTextIsUnchanged) {
  EXPECT_EQ(excerpt(""), "");
  EXPECT_EQ(excerpt("box_1"), "box_1");
  EXPECT_EQ(excerpt(std::string(kMaxExcerptLength, 'a')), std::string(kMaxExcerptLength, 'a'));
  EXPECT_EQ(excerpt("größe ≥ 1"), "größe ≥ 1");
}

TEST(Excerpt, LongTextIsCutAndSaysItsLength) {
  const std::string huge(10'000'000, 'k');
  EXPECT_EQ(excerpt(huge), std::string(kMaxExcerptLength, 'k') + "... (10000000 bytes)");
  EXPECT_EQ(excerpt("abcdefgh", 3), "abc... (8 bytes)");
}

TEST(Excerpt, NeverCutsInsideAUtf8Character) {
  // "ö" is two bytes: a cut after 3 bytes of "aöö" would split the second one.
  EXPECT_EQ(excerpt("a\xC3\xB6\xC3\xB6", 4), "a\xC3\xB6... (5 bytes)");
  EXPECT_EQ(excerpt("\xE2\x89\xA5\xE2\x89\xA5", 2), "... (6 bytes)");
}

TEST(Excerpt, Utf8PrefixLength) {
  EXPECT_EQ(utf8_prefix_length("abc", 10), 3u);
  EXPECT_EQ(utf8_prefix_length("abc", 2), 2u);
  EXPECT_EQ(utf8_prefix_length("a\xC3\xB6", 2), 1u);
  EXPECT_EQ(utf8_prefix_length("\xE2\x89\xA5x", 3), 3u);
}

TEST(Excerpt, ControlCharactersAreEscapedSoTheMessageStaysOneLine) {
  EXPECT_EQ(excerpt("two\nlines"), "two\\nlines");
  EXPECT_EQ(excerpt("a\tb\rc"), "a\\tb\\rc");
  EXPECT_EQ(excerpt(std::string("nul\0bell\a", 9)), "nul\\u0000bell\\u0007");
  EXPECT_EQ(excerpt("\x7f"), "\\u007f");
}

}  // namespace
}  // namespace affix
