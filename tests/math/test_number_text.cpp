// Numbers in messages: the shortest text that reads back as the same double, so that a huge value
// (1e308) stays a few characters instead of the 309 digits of std::to_string / %f.
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <string>

#include "affix/math/number_text.hpp"

namespace affix {
namespace {

TEST(NumberText, ShortAndRoundTrip) {
  EXPECT_EQ(number_text(1e308), "1e+308");
  EXPECT_EQ(number_text(-1e308), "-1e+308");
  EXPECT_EQ(number_text(0.1), "0.1");
  EXPECT_EQ(number_text(2.0), "2");
  EXPECT_EQ(number_text(0.0), "0");
  EXPECT_EQ(number_text(5e-324), "5e-324");
  for (const double v : {0.1 + 0.2, 1.0 / 3.0, 6.02214076e23, -1.7976931348623157e308, 1e-300}) {
    const std::string text = number_text(v);
    EXPECT_LE(text.size(), 24u) << text;
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
  }
}

TEST(NumberText, NonFinite) {
  EXPECT_EQ(number_text(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(number_text(-std::numeric_limits<double>::quiet_NaN()), "nan");
}

}  // namespace
}  // namespace affix
