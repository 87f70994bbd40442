// `affix view OUT_DIR [--output FILE] [--max-pose-mb MB]`: writes the interactive page of a run
// (viewer/view_page.hpp) and says where it went and how to open it.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "affix/cli/commands.hpp"
#include "affix/cli/exit_codes.hpp"
#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/viewer/view_page.hpp"

namespace affix::cli {

namespace {

struct ViewArgs {
  std::filesystem::path out_dir;
  std::optional<std::filesystem::path> output;  ///< absent: OUT_DIR/view.html
  std::optional<std::string> max_pose_mb;       ///< absent: kDefaultPoseBudgetBytes
};

/// The largest --max-pose-mb: a page is one string in the browser, and browsers cap those near 1 GB.
constexpr double kMaxPoseMb = 100'000;

/// --max-pose-mb as bytes. The option is taken as text and checked here, not by CLI11, so that a bad
/// value is reported like every other bad input (`affix: error: …`, exit 2) and NaN and inf, which
/// CLI11's number checks let through, are refused too.
std::size_t pose_budget_bytes(const std::optional<std::string>& text) {
  if (!text) return viewer::kDefaultPoseBudgetBytes;
  double mb = 0.0;
  const char* begin = text->data();
  const char* end = begin + text->size();
  const auto [ptr, ec] = std::from_chars(begin, end, mb);
  if (ec != std::errc() || ptr != end || !std::isfinite(mb) || !(mb > 0.0) || mb > kMaxPoseMb)
    throw InputError("--max-pose-mb " + excerpt(*text) + ": expected a number of megabytes greater than 0, at most " +
                     std::to_string(static_cast<int>(kMaxPoseMb)));
  // At least one byte: a budget below one frame keeps the first frame only (decimation.hpp).
  return std::max<std::size_t>(1, static_cast<std::size_t>(mb * 1e6));
}

std::string megabytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g MB", static_cast<double>(bytes) / 1e6);
  return text;
}

int view_command(const ViewArgs& args) {
  viewer::ViewOptions options;
  options.pose_budget_bytes = pose_budget_bytes(args.max_pose_mb);
  const viewer::ViewPage page = viewer::build_view_page(args.out_dir, options);
  const std::filesystem::path file = args.output.value_or(args.out_dir / "view.html");
  viewer::write_view_page(file, page);

  std::cout << "wrote " << file.string() << " (" << megabytes(page.html.size()) << "): " << page.bodies
            << (page.bodies == 1 ? " body, " : " bodies, ") << page.frames << " of " << page.source_frames
            << " frames";
  if (page.stride > 1)
    std::cout << " (one in " << page.stride << " and the last: poses capped at " << megabytes(options.pose_budget_bytes)
              << (page.trajectory == "trajectory.csv" ? "; the page can load the full trajectory.csv)"
                                                      : "; raise --max-pose-mb for more)");
  std::cout << '\n';
  if (page.box_bodies > 0)
    std::cout << "  " << page.box_bodies << " bodies with rarely shared meshes are drawn as their bounding boxes\n";
  std::cout << "  open it in a browser (no server needed): file://"
            << std::filesystem::absolute(file).lexically_normal().string() << '\n';
  return kExitOk;
}

}  // namespace

Action add_view(CLI::App& app) {
  auto args = std::make_shared<ViewArgs>();
  CLI::App* view = app.add_subcommand("view", "Write OUT_DIR/view.html: a page that plays a run in a browser");
  view->add_option("out_dir", args->out_dir, "A run's output directory (what `affix run --out` wrote)")->required();
  view->add_option("--output,-o", args->output, "Where to write the page (default: OUT_DIR/view.html)");
  view->add_option("--max-pose-mb", args->max_pose_mb,
                   "Budget of embedded pose data in MB; longer runs keep every k-th frame (default 20)");
  return [args] { return view_command(*args); };
}

}  // namespace affix::cli
