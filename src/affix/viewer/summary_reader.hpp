#pragma once
// summary.json (DESIGN §4, io/summary.hpp) read back for the page's run panel, which the page embeds
// as it is. Untrusted input like every file of the run: a JSON object of bounded size and nesting
// (io/json_file.hpp), whose known keys have the types the writer gives them. Unknown keys are kept:
// the contract says more keys may follow.
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace affix::viewer {

/// The largest summary.json read: a summary is a few hundred bytes.
inline constexpr std::size_t kMaxSummaryBytes = std::size_t{1} << 20;

/// Reads `file`. Throws InputError naming the file and the key when it is missing, not JSON, not an
/// object, too large, or a known key has another type: `scene`, `solver`, `out_dir` strings; `error` a
/// string or null; `completed` a boolean; `steps`, `planned_steps`, `bodies`, `max_iterations`,
/// `iteration_cap_hits`, `warnings` whole numbers ≥ 0; the other numbers of summary.hpp a number or
/// null (JSON's spelling of a non-finite number).
nlohmann::json read_summary(const std::filesystem::path& file);

}  // namespace affix::viewer
