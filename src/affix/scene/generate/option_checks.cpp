#include "affix/scene/generate/option_checks.hpp"

#include <cmath>

#include "affix/error.hpp"
#include "affix/math/number_text.hpp"
#include "affix/scene/generate/generated_scene.hpp"

namespace affix::generate {

void require_count(const char* option, long long value, long long min, long long max) {
  if (value >= min && value <= max) return;
  throw InputError(std::string(option) + " " + std::to_string(value) + ": expected a whole number from " +
                   std::to_string(min) + " to " + std::to_string(max));
}

void require_number(const char* option, double value, double min, double max) {
  if (std::isfinite(value) && value >= min && value <= max) return;
  throw InputError(std::string(option) + " " + number_text(value) + ": expected a finite number from " +
                   number_text(min) + " to " + number_text(max));
}

void require_body_limit(const std::string& what, long long bodies) {
  if (bodies <= kMaxBodies) return;
  throw InputError(what + ": " + std::to_string(bodies) + " bodies, more than the limit of " +
                   std::to_string(kMaxBodies) + " for a generated scene");
}

}  // namespace affix::generate
