#pragma once
// The page's two build-time assets, compiled into the library from `${build}/viewer/` by
// cmake/viewer.cmake (viewer/tools/embed.mjs writes the source): the HTML template from
// viewer/src/page.html, and the classic-script bundle of three.js and viewer/src/*.js made by esbuild.
#include <string_view>

namespace affix::viewer {

/// The page's HTML, with the markers kDataMarker and kBundleMarker where the run's data and the script
/// go.
std::string_view page_template();

/// The viewer's JavaScript: one IIFE, no imports, safe inside a <script> element.
std::string_view script_bundle();

inline constexpr std::string_view kDataMarker = "<!--affix:data-->";
inline constexpr std::string_view kBundleMarker = "<!--affix:bundle-->";

}  // namespace affix::viewer
