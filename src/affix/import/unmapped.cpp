#include "affix/import/unmapped.hpp"

namespace affix {

std::string Unmapped::text() const {
  std::string out;
  for (const auto& [what, n] : counts_) {
    if (!out.empty()) out += ", ";
    out += std::to_string(n) + " " + what;
  }
  return out;
}

}  // namespace affix
