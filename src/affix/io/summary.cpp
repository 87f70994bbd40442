#include "affix/io/summary.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

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

void summarize_steps(std::span<const StepStats> steps, RunSummary& summary) {
  summary.steps = static_cast<int>(steps.size());
  summary.median_ms = summary.max_ms = summary.mean_iterations = 0.0;
  summary.max_iterations = summary.iteration_cap_hits = 0;
  summary.max_joint_error = 0.0;
  summary.min_distance = std::numeric_limits<double>::infinity();
  if (steps.empty()) return;

  std::vector<double> wall_ms;
  wall_ms.reserve(steps.size());
  double total_iterations = 0.0;
  for (const StepStats& s : steps) {
    wall_ms.push_back(s.wall_ms);
    summary.max_ms = std::max(summary.max_ms, s.wall_ms);
    total_iterations += s.iterations;
    summary.max_iterations = std::max(summary.max_iterations, s.iterations);
    summary.iteration_cap_hits += s.hit_iteration_cap ? 1 : 0;
    // std::max/min would drop a NaN depending on argument order; a NaN error must show.
    if (!(s.max_joint_error <= summary.max_joint_error)) summary.max_joint_error = s.max_joint_error;
    if (!(s.min_distance >= summary.min_distance)) summary.min_distance = s.min_distance;
  }
  summary.median_ms = median(std::move(wall_ms));
  summary.mean_iterations = total_iterations / static_cast<double>(steps.size());
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
  // nlohmann prints doubles in their shortest round-trip form, so every number reads back exactly.
  // A name or message that is not valid UTF-8 gets U+FFFD where it breaks rather than an exception.
  return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + '\n';
}

void write_summary(const std::filesystem::path& path, const RunSummary& summary) {
  std::ofstream stream(path, std::ios::out | std::ios::trunc | std::ios::binary);
  stream << summary_json(summary);
  stream.flush();
  if (!stream) throw std::runtime_error(path.string() + ": writing failed");
}

}  // namespace affix
