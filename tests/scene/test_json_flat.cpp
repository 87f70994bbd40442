// The flat JSON value (json_flat.hpp) against the document parse_json_text builds, the reference: on
// every text the flat form must be refused exactly where the document is (syntax, nesting, a key twice
// in an object), and otherwise hold the same value, type for type. Then JsonReader over the flat form
// against JsonReader over the document: the same values, and the same message word for word, for every
// typed read of every kind of value.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/error.hpp"
#include "affix/scene/json_flat.hpp"
#include "affix/scene/json_reader.hpp"
#include "affix/scene/json_text.hpp"
#include "scene/json_samples.hpp"

namespace affix {
namespace {

using nlohmann::json;

/// Checks one text against the document parser; returns whether it was valid.
bool check(const std::string& text) {
  FlatJson flat;
  const bool flat_ok = flat.parse(text, kMaxJsonNesting);
  json reference;
  bool reference_ok = true;
  try {
    reference = parse_json_text(text, "t.json");
  } catch (const InputError&) {
    reference_ok = false;
  }
  EXPECT_EQ(flat_ok, reference_ok) << "on: " << text.substr(0, 300);
  if (flat_ok && reference_ok) {
    EXPECT_TRUE(test::same(flat.to_json(0), reference)) << "on: " << text.substr(0, 300);
  }
  return reference_ok;
}

TEST(JsonFlat, AgreesWithTheDocumentOnEdgeCases) {
  const std::vector<std::string> texts = {
      "", "0", "-0", "1.5", "-1e-5", "18446744073709551615", "18446744073709551616", "-9223372036854775808",
      "1e999", "true", "false", "null", "[]", "{}", "[1,]", "{\"a\":1,}", "\"\"", "\"a\\\"b\\u00e9\\ud83d\\ude00\"",
      "[1,\"a\",true,null,{\"k\":[-0.0,2e2]}]", "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1,\"b\":2}}",
      "[{\"a\":1},{\"a\":1}]", "{\"a\":{\"a\":{\"a\":1}}}", "{\"\\u0061\":1,\"a\":2}", "{\"\":1,\"\":2}",
      "{\"ab\":1,\"ba\":2,\"a\":3,\"b\":4}", "\xef\xbb\xbf{\"x\":[1,2,3]}", "{} x", " [ 1 , [ 2 , [ 3 ] ] ] ",
      std::string(300, '[') + std::string(300, ']'), std::string(256, '[') + std::string(256, ']')};
  int valid = 0;
  for (const std::string& text : texts) valid += check(text) ? 1 : 0;
  EXPECT_GT(valid, 15);
  EXPECT_LT(valid, static_cast<int>(texts.size()) - 8);
}

TEST(JsonFlat, AgreesWithTheDocumentOnExampleAndMutatedScenes) {
  const std::vector<std::string> scenes = test::example_scenes();
  ASSERT_GT(scenes.size(), 5u);
  for (const std::string& text : scenes) EXPECT_TRUE(check(text));
  std::mt19937 random(11);
  int valid = 0, invalid = 0;
  for (int n = 0; n < 3000; ++n) (check(test::mutated(scenes, random)) ? valid : invalid) += 1;
  EXPECT_GT(valid, 100);
  EXPECT_GT(invalid, 100);
}

/// More members than the duplicate scan is for: left to the document (which takes them).
TEST(JsonFlat, RefusesObjectsOfMoreThanItsMemberLimit) {
  const auto object_of = [](std::size_t n) {
    json object = json::object();
    for (std::size_t i = 0; i < n; ++i) object[std::string("k").append(std::to_string(i))] = i;
    return object.dump();
  };
  FlatJson flat;
  ASSERT_TRUE(flat.parse(object_of(kMaxFlatMembers), kMaxJsonNesting));
  EXPECT_TRUE(test::same(flat.to_json(0), json::parse(object_of(kMaxFlatMembers))));
  EXPECT_FALSE(flat.parse(object_of(kMaxFlatMembers + 1), kMaxJsonNesting));
  EXPECT_TRUE(flat.parse(std::string("[").append(object_of(3)).append(",").append(object_of(3)).append("]"), 2));
  EXPECT_FALSE(flat.parse("[[[1]]]", 2));  // nesting beyond the limit given
}

/// What a read gives: the value it returns, or the message it throws.
using Read = std::function<std::string(const JsonReader&)>;

std::string outcome(const Read& read, const JsonReader& reader) {
  try {
    return "value " + read(reader);
  } catch (const InputError& e) {
    return std::string("error ") + e.what();
  } catch (const nlohmann::json::exception& e) {  // a child or element that is not there
    return std::string("json exception ") + e.what();
  }
}

std::string text_of(const Vec3& v) { return json({v.x(), v.y(), v.z()}).dump(); }

TEST(JsonFlat, ReaderGivesTheSameValuesAndMessagesAsOverTheDocument) {
  const std::vector<std::string> values = {
      "1", "-1", "0", "1.5", "-2.5e-3", "2147483647", "2147483648", "-2147483649", "18446744073709551615",
      "-9223372036854775808", "1e308", "true", "false", "null", "\"\"", "\"name\"", "\"a\\tb\"", "\"world\"",
      "[]", "[1,2,3]", "[0,0,0]", "[1,\"a\",3]", "[1,2]", "[[1,2,3],[4,5,6]]", "{}", "{\"b\":1,\"a\":2}",
      "{\"z\":1,\"b\":2,\"a\":3,\"c\":{\"d\":[1,{\"e\":null}]}}", std::string("\"").append(200, 'x').append("\"")};
  const std::vector<Read> reads = {
      [](const JsonReader& r) { return json(r.number()).dump(); },
      [](const JsonReader& r) { return json(r.positive()).dump(); },
      [](const JsonReader& r) { return json(r.non_negative()).dump(); },
      [](const JsonReader& r) { return std::to_string(r.integer()); },
      [](const JsonReader& r) { return std::to_string(r.integer_at_least(2)); },
      [](const JsonReader& r) { return std::string(r.boolean() ? "true" : "false"); },
      [](const JsonReader& r) { return r.string(); },
      [](const JsonReader& r) { return r.non_empty_string(); },
      [](const JsonReader& r) { return r.name(); },
      [](const JsonReader& r) { return text_of(r.vec3()); },
      [](const JsonReader& r) { return text_of(r.direction()); },
      [](const JsonReader& r) { return r.render(); },
      [](const JsonReader& r) {
        return std::to_string(r.size()) + (r.is_null() ? " null" : "") + (r.is_number() ? " number" : "") +
               (r.is_integer() ? " integer " + std::to_string(r.int64()) : "") + (r.is_array() ? " array" : "") +
               (r.is_object() ? " object" : "");
      },
      [](const JsonReader& r) {
        std::string out;
        for (const JsonReader& item : r.non_empty_array()) out += item.path() + "=" + item.render() + ";";
        return out;
      },
      [](const JsonReader& r) { return r.array(3)[2].element(1).path(); },
      [](const JsonReader& r) { return r.element(1).path() + " " + r.element(5).render(); },
      [](const JsonReader& r) {
        const ObjectReader obj(r, {"a", "c"}, "a test object");
        return obj.at("a").render() + " " + std::to_string(obj.has("b")) + " " + obj.at("c").child("d").path();
      },
      [](const JsonReader& r) {
        const ObjectReader obj(r, {"a", "b", "c", "z"});
        const auto d = obj.at("c").child("d").element(1);
        return ObjectReader(d, {"f"}).at("f").path();
      },
      [](const JsonReader& r) { return r.child("zz").path(); },
  };
  const std::filesystem::path file = "dir/scene.json";
  FlatJson flat;
  int errors = 0, successes = 0;
  for (const std::string& text : values) {
    ASSERT_TRUE(flat.parse(text, kMaxJsonNesting)) << text;
    const json document = json::parse(text);
    for (std::size_t k = 0; k < reads.size(); ++k) {
      const std::string expected = outcome(reads[k], JsonReader(document, "bodies[7]", file));
      EXPECT_EQ(outcome(reads[k], JsonReader(flat, 0, "bodies[7]", file)), expected) << text << ", read " << k;
      (expected.rfind("value", 0) == 0 ? successes : errors) += 1;
    }
  }
  EXPECT_GT(successes, 80);
  EXPECT_GT(errors, 200);
}

}  // namespace
}  // namespace affix
