#pragma once
// JSON texts and a strict comparison shared by the tests of the JSON readers (json_fast_sax, json_flat,
// json_outline): the scene files under examples/ as texts, and document equality type for type.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace affix::test {

/// Type and value together: nlohmann's == says 1 == 1u == 1.0.
inline bool same(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(), jt = b.begin(); it != a.end(); ++it, ++jt) {
      if (it.key() != jt.key() || !same(it.value(), jt.value())) return false;
    }
    return true;
  }
  if (a.is_number_float()) {  // bit for bit (-0.0 and 0.0 differ)
    const double x = a.get<double>(), y = b.get<double>();
    return std::memcmp(&x, &y, sizeof x) == 0;
  }
  return a == b;
}

/// The example scene files of up to 200 kB, as texts.
inline std::vector<std::string> example_scenes() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(AFFIX_SOURCE_DIR) / "examples")) {
    if (entry.path().extension() != ".json" || entry.file_size() > 200'000) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    out.push_back(text.str());
  }
  return out;
}

/// One of `texts` with one to three random edits (bytes replaced, inserted, deleted; a digit changed),
/// mostly cut short first: texts nobody lists, most of them invalid, some still valid.
inline std::string mutated(const std::vector<std::string>& texts, std::mt19937& random) {
  const std::string alphabet = "{}[]:,\"\\ 0123456789.eE+-truefalsn\x01\xc3\xa9\xff\xed\xa0\x80u";
  std::string text = texts[random() % texts.size()];
  if (text.size() > 4000) text.resize(4000 + random() % 200);  // mostly cut short: invalid
  const int edits = 1 + static_cast<int>(random() % 3);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const std::size_t at = random() % text.size();
    const char c = alphabet[random() % alphabet.size()];
    switch (random() % 4) {
      case 0: text[at] = c; break;
      case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
      case 2: text.erase(at, 1); break;
      default: {  // a number or a string's contents replaced: the edits most often still valid
        const std::size_t quote = text.find_first_of("0123456789", at);
        if (quote != std::string::npos) text[quote] = static_cast<char>('0' + random() % 10);
      }
    }
  }
  return text;
}

}  // namespace affix::test
