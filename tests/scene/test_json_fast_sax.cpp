// The fast JSON reader (json_fast_sax.hpp) against nlohmann's parser, the reference: on every text the
// two must agree whether it is valid JSON, and on a valid one build the same document, value for value
// and type for type (an integer stays an integer, unsigned stays unsigned). The texts are hand-picked
// edge cases of the grammar, the scene files under examples/, and thousands of random mutations of
// them (bytes replaced, inserted, deleted, cut short), which reach the invalid texts nobody lists.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/scene/json_fast_sax.hpp"
#include "scene/json_samples.hpp"

namespace affix {
namespace {

using nlohmann::json;
using test::example_scenes;
using test::same;

/// Checks one text; returns whether it was valid.
bool check(const std::string& text) {
  json fast;
  nlohmann::detail::json_sax_dom_parser<json> dom(fast, false);
  const bool fast_ok = fast_sax_parse(text, dom, 256);
  const bool reference_ok = json::accept(text);
  EXPECT_EQ(fast_ok, reference_ok) << "on: " << text.substr(0, 300);
  if (fast_ok && reference_ok) {
    EXPECT_TRUE(same(fast, json::parse(text))) << "on: " << text.substr(0, 300);
  }
  return reference_ok;
}

TEST(JsonFastSax, AgreesOnTheGrammarsEdges) {
  const std::vector<std::string> texts = {
      "", " ", "0", "-0", "-", "01", "-01", "1.", ".5", "1.5", "1e5", "1E+5", "1e-5", "1e", "1e+", "+1", "0x10",
      "1e999", "-1e999", "1e-400", "4.9e-324", "1.7976931348623157e308", "123456789012345678901234567890",
      "18446744073709551615", "18446744073709551616", "9223372036854775807", "-9223372036854775808",
      "-9223372036854775809", "true", "false", "null", "tru", "nul", "falsey", "True", "[]", "{}", "[1,]", "[,1]",
      "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{\"a\":1 \"b\":2}", "[1 2]", "[1]]", "[[1]", "{\"a\":{}}",
      "\"\"", "\"abc\"", "\"a\\\"b\"", "\"\\/\\b\\f\\n\\r\\t\\\\\"", "\"\\x\"", "\"\\u0041\"", "\"\\u00e9\"",
      "\"\\u20AC\"", "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"", "\"\\u12\"",
      "\"\\u12G4\"", "\"a\tb\"", "\"a\nb\"", std::string("\"a\0b\"", 5), "\"unterminated", "\"\xc3\xa9\"",
      "\"\xc3\"", "\"\xc0\xaf\"", "\"\xe0\x80\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"",
      "\"\xf0\x9f\x98\x80\"", "\"\xff\"", "\xef\xbb\xbf{}", "\xef\xbb{}", "\xef{}", "{} x", "{}{}", " \t\r\n[ 1 ]\n",
      "[1,\"a\",true,null,{\"k\":[-0.0,2e2]}]", "{\"a\":1,\"a\":2}", "\f[]", "[\v]"};
  int valid = 0;
  for (const std::string& text : texts) valid += check(text) ? 1 : 0;
  EXPECT_GT(valid, 30);  // both kinds were exercised
  EXPECT_LT(valid, static_cast<int>(texts.size()) - 30);
}

TEST(JsonFastSax, AgreesOnTheExampleScenes) {
  const std::vector<std::string> scenes = example_scenes();
  ASSERT_GT(scenes.size(), 5u);
  for (const std::string& text : scenes) EXPECT_TRUE(check(text));
}

TEST(JsonFastSax, AgreesOnMutatedScenes) {
  const std::vector<std::string> scenes = example_scenes();
  ASSERT_FALSE(scenes.empty());
  std::mt19937 random(7);
  int valid = 0, invalid = 0;
  for (int n = 0; n < 4000; ++n) {
    const std::string text = test::mutated(scenes, random);
    (check(text) ? valid : invalid) += 1;
  }
  EXPECT_GT(valid, 100);
  EXPECT_GT(invalid, 100);
}

}  // namespace
}  // namespace affix
