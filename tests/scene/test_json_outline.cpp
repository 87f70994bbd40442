// The outline of a text's top-level arrays (json_outline.hpp) against a byte-at-a-time reference
// written here from the same rules: the outliner reads 64-byte blocks and skips from one quote,
// backslash, bracket or comma to the next, and what can go wrong there is a block's edge (an escape in
// its last byte) or a skipped byte that mattered. Checked on hand-made texts whose answer is written
// out, on texts with the tricky bytes at every offset of a block, on the example scenes and on
// thousands of mutations of them (where the two must agree on refusals too).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "affix/scene/json_outline.hpp"
#include "scene/json_samples.hpp"

namespace affix {
namespace {

constexpr std::string_view kKeys[] = {"bodies", "joints"};

bool whitespace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/// The rules of json_outline.hpp, one byte at a time.
std::optional<std::vector<OutlinedArray>> reference_outline(std::string_view text) {
  std::size_t at = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (at < text.size() && whitespace(text[at])) ++at;
  if (at == text.size() || text[at] != '{') return std::nullopt;
  std::vector<OutlinedArray> arrays;
  bool in_array = false, key_expected = false;
  int depth = 0;
  std::string_view key;
  const auto next_start = [&](std::size_t i) {
    while (++i < text.size() && whitespace(text[i])) {
    }
    return static_cast<std::uint32_t>(i);
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      const std::size_t open = i;
      bool escaped = false;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') {
          escaped = true;
          ++i;
        }
      }
      if (i >= text.size()) return std::nullopt;  // unterminated
      if (depth == 1 && key_expected) {
        if (escaped) return std::nullopt;
        key = text.substr(open + 1, i - open - 1);
        key_expected = false;
      }
    } else if (c == '[' || c == '{') {
      if (++depth == 1) key_expected = true;
      if (depth == 2 && c == '[' && std::find(std::begin(kKeys), std::end(kKeys), key) != std::end(kKeys)) {
        arrays.push_back(OutlinedArray{key, i, 0, {}, {}});
        in_array = true;
        const std::uint32_t start = next_start(i);
        if (start < text.size() && text[start] != ']') arrays.back().starts.push_back(start);
      }
    } else if (c == ']' || c == '}') {
      if (depth == 2 && in_array) {
        OutlinedArray& array = arrays.back();
        if (array.starts.size() > array.ends.size()) array.ends.push_back(static_cast<std::uint32_t>(i));
        array.close = i;
        in_array = false;
      }
      if (--depth < 0) return std::nullopt;
    } else if (c == ',') {
      if (depth == 1) key_expected = true;
      if (depth == 2 && in_array) {
        arrays.back().ends.push_back(static_cast<std::uint32_t>(i));
        arrays.back().starts.push_back(next_start(i));
      }
    }
  }
  if (depth != 0) return std::nullopt;
  return arrays;
}

bool same_outline(const std::optional<std::vector<OutlinedArray>>& a, const std::optional<std::vector<OutlinedArray>>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (a->size() != b->size()) return false;
  for (std::size_t k = 0; k < a->size(); ++k) {
    const OutlinedArray &x = (*a)[k], &y = (*b)[k];
    if (x.key != y.key || x.open != y.open || x.close != y.close || x.starts != y.starts || x.ends != y.ends) {
      return false;
    }
  }
  return true;
}

/// Checks one text against the reference; returns whether it was outlined.
bool check(const std::string& text) {
  const auto outline = outline_top_level_arrays(text, kKeys);
  EXPECT_TRUE(same_outline(outline, reference_outline(text))) << "on: " << text.substr(0, 300);
  return outline.has_value();
}

TEST(JsonOutline, FindsTheElementsOfTheNamedArrays) {
  const std::string text =
      R"({"a": [1], "bodies": [ {"x": "],[{\"\\"}, [1,2] ,{} ], "c": {"bodies": [7]}, "joints": [])"
      "\n}";
  const auto outline = outline_top_level_arrays(text, kKeys);
  ASSERT_TRUE(outline.has_value());
  ASSERT_EQ(outline->size(), 2u);
  const OutlinedArray& bodies = (*outline)[0];
  EXPECT_EQ(bodies.key, "bodies");
  EXPECT_EQ(text[bodies.open], '[');
  EXPECT_EQ(text[bodies.close], ']');
  ASSERT_EQ(bodies.starts.size(), 3u);
  ASSERT_EQ(bodies.ends.size(), 3u);
  const auto element = [&](std::size_t i) { return text.substr(bodies.starts[i], bodies.ends[i] - bodies.starts[i]); };
  EXPECT_EQ(element(0), R"({"x": "],[{\"\\"})");
  EXPECT_EQ(element(1), "[1,2] ");
  EXPECT_EQ(element(2), "{} ");
  EXPECT_EQ((*outline)[1].key, "joints");
  EXPECT_TRUE((*outline)[1].starts.empty());
  EXPECT_TRUE(check(text));
}

TEST(JsonOutline, RefusesWhatItCannotOutline) {
  for (const std::string text : {"[1]", "", "  ", R"({"bod\u0069es": [1]})", R"({"bodies": ["x]})",
                                 R"({"bodies": [1]}})", R"({"bodies": [1])", "\"{\""}) {
    EXPECT_FALSE(outline_top_level_arrays(text, kKeys).has_value()) << text;
    EXPECT_FALSE(reference_outline(text).has_value()) << text;
  }
  // An escape in a value, or in a key below the top level, is no reason to refuse.
  EXPECT_TRUE(check(R"({"v": "a\"b", "bodies": [{"\u0061": "\\"}]})"));
}

/// Escapes, quotes and brackets at every offset across a block's edge.
TEST(JsonOutline, AgreesAtEveryOffsetOfABlock) {
  const std::vector<std::string> tails = {R"("\"],[", {"k": "\\"}, [1])", R"("\\", "\\\"", {}  )",
                                          R"({"a":"\\\\"} , "x\"y" ,[ "]" ])"};
  for (const std::string& tail : tails) {
    for (std::size_t pad = 0; pad < 140; ++pad) {
      const std::string text = R"({"bodies": [")" + std::string(pad, 'x') + "\", " + tail + "], \"joints\": [1]}";
      const auto outline = outline_top_level_arrays(text, kKeys);
      ASSERT_TRUE(outline.has_value()) << text;
      EXPECT_EQ((*outline)[0].starts.size(), 4u) << text;
      EXPECT_TRUE(check(text));
    }
  }
}

TEST(JsonOutline, AgreesWithTheReferenceOnExampleAndMutatedScenes) {
  const std::vector<std::string> scenes = test::example_scenes();
  ASSERT_GT(scenes.size(), 5u);
  int outlined = 0;
  for (const std::string& text : scenes) outlined += check(text) ? 1 : 0;
  EXPECT_GT(outlined, 5);
  std::mt19937 random(13);
  int refused = 0;
  for (int n = 0; n < 3000; ++n) refused += check(test::mutated(scenes, random)) ? 0 : 1;
  EXPECT_GT(refused, 100);
}

}  // namespace
}  // namespace affix
