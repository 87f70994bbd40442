#include "affix/io/summary.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/error.hpp"

namespace affix {

namespace {

/// Median of a non-empty list (mean of the two middle values for an even count).
double median(std::vector<double> values) {
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lower + upper);
}

/// A number, or null where JSON has no spelling for it (inf, nan).
nlohmann::ordered_json json_number(double value) {
  if (!std::isfinite(value)) return nullptr;
  return value;
}

}  // namespace

void StepTally::add(const StepStats& s) {
  wall_ms_.push_back(s.wall_ms);
  max_ms_ = std::max(max_ms_, s.wall_ms);
  total_iterations_ += s.iterations;
  max_iterations_ = std::max(max_iterations_, s.iterations);
  iteration_cap_hits_ += s.hit_iteration_cap ? 1 : 0;
  warnings_ += s.warnings;
  // std::max/min would drop a NaN depending on argument order; a NaN error must show.
  if (!(s.max_joint_error <= max_joint_error_)) max_joint_error_ = s.max_joint_error;
  if (!(s.min_distance >= min_distance_)) min_distance_ = s.min_distance;
}

void StepTally::fill(RunSummary& summary) const {
  const std::size_t n = wall_ms_.size();
  summary.steps = static_cast<int>(n);
  summary.median_ms = n > 0 ? median(wall_ms_) : 0.0;
  summary.max_ms = max_ms_;
  summary.mean_iterations = n > 0 ? total_iterations_ / static_cast<double>(n) : 0.0;
  summary.max_iterations = max_iterations_;
  summary.iteration_cap_hits = iteration_cap_hits_;
  summary.warnings = warnings_;
  summary.max_joint_error = max_joint_error_;
  summary.min_distance = min_distance_;
}

void summarize_steps(std::span<const StepStats> steps, RunSummary& summary) {
  StepTally tally;
  for (const StepStats& s : steps) tally.add(s);
  tally.fill(summary);
}

std::string summary_json(const RunSummary& s) {
  // ordered_json keeps the keys in the order written here (the contract's order), not sorted.
  nlohmann::ordered_json json;
  json["scene"] = s.scene;
  json["solver"] = s.solver;
  json["steps"] = s.steps;
  json["wall_s"] = json_number(s.wall_s);
  json["median_ms"] = json_number(s.median_ms);
  json["max_ms"] = json_number(s.max_ms);
  json["max_joint_error"] = json_number(s.max_joint_error);
  json["min_distance"] = json_number(s.min_distance);  // null: nothing was ever near (stats.csv: inf)
  json["completed"] = s.completed;
  json["error"] = s.error.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.error);
  json["mean_iterations"] = json_number(s.mean_iterations);
  json["max_iterations"] = s.max_iterations;
  json["iteration_cap_hits"] = s.iteration_cap_hits;
  json["simulated_time"] = json_number(s.simulated_time);
  json["planned_steps"] = s.planned_steps;
  json["bodies"] = s.bodies;
  json["out_dir"] = s.out_dir.string();
  json["warnings"] = s.warnings;
  json["max_strain"] = json_number(s.max_strain);
  // nlohmann prints doubles in their shortest round-trip form, so every number reads back exactly.
  // A name or message that is not valid UTF-8 gets U+FFFD where it breaks rather than an exception.
  return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + '\n';
}

void write_summary(const std::filesystem::path& path, const RunSummary& summary) {
  errno = 0;
  std::ofstream stream(path, std::ios::out | std::ios::trunc | std::ios::binary);
  stream << summary_json(summary);
  stream.flush();
  if (!stream) {
    throw OutputError(path.string() + ": writing failed (" +
                      (errno != 0 ? std::strerror(errno) : "unknown reason") + ")");
  }
}

}  // namespace affix
