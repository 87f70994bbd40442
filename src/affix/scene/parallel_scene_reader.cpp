#include "affix/scene/parallel_scene_reader.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_sort.h>

#include <atomic>
#include <exception>
#include <string>
#include <utility>

#include "affix/error.hpp"
#include "affix/scene/body_reader.hpp"
#include "affix/scene/joint_reader.hpp"
#include "affix/scene/json_flat.hpp"
#include "affix/scene/json_outline.hpp"
#include "affix/scene/json_reader.hpp"
#include "affix/scene/json_text.hpp"

namespace affix {

namespace {

constexpr std::string_view kElementArrays[] = {"bodies", "joints"};
/// Elements per task: enough to amortise a task, few enough to balance two cores to the end.
constexpr std::size_t kElementsPerTask = 512;
/// An element sits two levels below the top (the document, the array): its own nesting may use the rest.
constexpr int kElementNesting = kMaxJsonNesting - 2;

/// Reads every element of `array` with `read(reader, index)` into `out[index]`, in parallel; false at
/// the first element that does not parse or that the reader refuses.
template <class Def, class Read>
bool read_array(std::string_view text, const OutlinedArray& array, const std::filesystem::path& file,
                std::vector<Def>& out, const Read& read) {
  const std::size_t n = array.starts.size();
  out.resize(n);  // (a no-op where the caller has made the places already)
  std::atomic<bool> failed = false;
  tbb::enumerable_thread_specific<FlatJson> flats;  // one reused value per thread
  const std::string prefix = std::string(array.key) + "[";
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, kElementsPerTask), [&](const tbb::blocked_range<std::size_t>& r) {
    FlatJson& flat = flats.local();
    for (std::size_t i = r.begin(); i != r.end() && !failed.load(std::memory_order_relaxed); ++i) {
      const std::string_view element = text.substr(array.starts[i], array.ends[i] - array.starts[i]);
      // an object or array: anything else (a byte order mark, a scalar) is left to the serial reader
      if (element.empty() || (element[0] != '{' && element[0] != '[') || !flat.parse(element, kElementNesting)) {
        failed = true;
        return;
      }
      try {
        out[i] = read(JsonReader(flat, 0, prefix + std::to_string(i) + "]", file), i);
      } catch (const std::exception&) {  // the serial reader says what and where
        failed = true;
        return;
      }
    }
  });
  return !failed;
}

/// The text with the elements of the outlined arrays cut out: `"bodies": [ ... ]` becomes `"bodies": []`.
std::string rest_of(std::string_view text, const std::vector<OutlinedArray>& arrays) {
  std::string rest;
  std::size_t from = 0;
  for (const OutlinedArray& array : arrays) {
    rest.append(text.substr(from, array.open + 1 - from));
    from = array.close;
  }
  rest.append(text.substr(from));
  return rest;
}

/// True when no two joints have the same name. By hashes sorted in parallel, not a set of a million
/// strings built on one core (0.9 s at 10⁶ joints); equal hashes are compared by name.
bool unique_joint_names(const std::vector<JointDef>& joints) {
  std::vector<std::pair<std::size_t, std::uint32_t>> keyed(joints.size());
  tbb::parallel_for(std::size_t{0}, joints.size(), [&](std::size_t i) {
    keyed[i] = {std::hash<std::string>()(joints[i].name), static_cast<std::uint32_t>(i)};
  });
  tbb::parallel_sort(keyed.begin(), keyed.end());
  for (std::size_t i = 1; i < keyed.size(); ++i) {
    if (keyed[i].first != keyed[i - 1].first) continue;
    // a run of equal hashes: compare each with the ones before it in the run
    for (std::size_t j = i; j-- > 0 && keyed[j].first == keyed[i].first;) {
      if (joints[keyed[j].second].name == joints[keyed[i].second].name) return false;
    }
  }
  return true;
}

}  // namespace

std::optional<ParallelElements> read_elements_in_parallel(std::string_view text, const std::filesystem::path& file) {
  const auto arrays = outline_top_level_arrays(text, kElementArrays);
  if (!arrays) return std::nullopt;
  const OutlinedArray* bodies = nullptr;
  const OutlinedArray* joints = nullptr;
  for (const OutlinedArray& array : *arrays) (array.key == "bodies" ? bodies : joints) = &array;
  if (!bodies || bodies->starts.empty()) return std::nullopt;

  ParallelElements out;
  try {
    out.rest = parse_json_text(rest_of(text, *arrays), file);
  } catch (const InputError&) {
    return std::nullopt;
  }
  const std::filesystem::path scene_dir = file.parent_path();
  const auto read = [&](const JsonReader& value, std::size_t) { return read_body(value, scene_dir); };
  if (!read_array(text, *bodies, file, out.bodies, read)) return std::nullopt;
  // The name index and the joints' places, each on one core, side by side.
  tbb::parallel_invoke([&] { out.names.emplace(out.bodies); },
                       [&] { if (joints) out.joints.emplace().resize(joints->starts.size()); });
  if (out.names->size() != out.bodies.size()) return std::nullopt;  // a name repeated
  if (joints) {
    const BodyNames& names = *out.names;
    const auto read_one = [&](const JsonReader& value, std::size_t i) {
      return read_joint(value, static_cast<int>(i), names);
    };
    if (!read_array(text, *joints, file, *out.joints, read_one)) return std::nullopt;
    if (!unique_joint_names(*out.joints)) return std::nullopt;
  }
  return out;
}

}  // namespace affix
