#pragma once
// A JSON file of a run's output directory (meshes.json, summary.json) read back as untrusted input: a
// regular file of bounded size, parsed with the scene loader's rules (scene/json_text.hpp: nesting
// limit, line and column in every message), so that a hand-edited or foreign file is one InputError
// naming it, never a crash or a raw library exception.
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace affix {

/// The document in `file`. Throws InputError naming the file when it is missing, not a regular file,
/// larger than `max_bytes`, not JSON, nested too deep, or too large to hold in memory.
nlohmann::json read_json_file(const std::filesystem::path& file, std::size_t max_bytes);

}  // namespace affix
