#pragma once
// docs/benchmarks.md: the machine, the date, the commands, then per scene one row per engine and mode
// with the measures (measures.hpp) and, on affix's rows, its time over the fastest peer that kept the
// scene intact (TrialResult::intact).
#include <string>
#include <vector>

#include "cases.hpp"
#include "engine.hpp"
#include "trial.hpp"

namespace affix::peers {

struct CaseResult {
  BenchCase bench;
  std::size_t bodies = 0, joints = 0, triangles = 0;
  int steps = 0;
  double dt = 0.0, blow_up_radius = 0.0;
  std::vector<std::pair<EngineSpec, TrialResult>> runs;
};

/// The Markdown table of one case (a header line, then one row per run).
std::string case_table(const CaseResult& result);

/// The whole page: `header` (machine, date, commands, notes) followed by every case's table.
std::string benchmarks_page(const std::string& header, const std::vector<CaseResult>& results);

}  // namespace affix::peers
