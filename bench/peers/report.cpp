#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace affix::peers {

namespace {

std::string number(double value, const char* format = "%.3g") {
  if (!std::isfinite(value)) return value > 0 ? "inf" : (value < 0 ? "-inf" : "nan");
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

/// A length in metres, with 0 written as 0 (no overlap, no gap).
std::string metres(double value) { return value <= 0.0 ? "0" : number(value, "%.2e"); }

}  // namespace

std::string case_table(const CaseResult& r) {
  double fastest = std::numeric_limits<double>::infinity();
  for (const auto& [spec, run] : r.runs) {
    if (!spec.affix && run.intact()) fastest = std::min(fastest, run.measures.median_ms);
  }
  std::ostringstream s;
  s << "| engine | mode | status | steps | setup s | ms/step | joint gap m | body pen. m | ground pen. m | energy drift | intact | affix ÷ fastest intact peer | note |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& [spec, run] : r.runs) {
    const Measures& m = run.measures;
    const bool ran = m.steps > 0;
    std::string ratio = "";
    if (spec.affix && ran) ratio = std::isfinite(fastest) ? number(m.median_ms / fastest, "%.2f") : "no intact peer";
    s << "| " << spec.engine << " | " << spec.mode << " | " << run.status << " | " << m.steps << "/" << r.steps
      << " | " << number(run.setup_s, "%.2f") << " | " << (ran ? number(m.median_ms, "%.3g") : "") << " | "
      << (ran ? metres(m.max_joint_gap) : "") << " | " << (ran ? metres(m.max_body_penetration) : "") << " | "
      << (ran ? metres(m.max_ground_penetration) : "") << " | " << (ran ? number(m.energy_drift, "%+.3f") : "")
       << " | " << (run.intact() ? "yes" : run.kept_so_far() ? "so far" : "no") << " | " << ratio << " | " << run.note << " |\n";
  }
  return s.str();
}

std::string benchmarks_page(const std::string& header, const std::vector<CaseResult>& results) {
  std::ostringstream s;
  s << header;
  std::string family;
  for (const CaseResult& r : results) {
    if (r.bench.family != family) {
      family = r.bench.family;
      s << "\n## " << family << "\n";
    }
    s << "\n### " << r.bench.family << ", " << r.bench.size << "\n\n`" << r.bench.command << "`: " << r.bodies
      << " bodies, " << r.joints << " joints, " << r.triangles << " triangles (affix's meshes), h = "
      << number(r.dt, "%.4g") << " s, " << r.steps << " steps, blow-up radius " << number(r.blow_up_radius, "%.3g")
      << " m.\n\n"
      << case_table(r);
  }
  return s.str();
}

}  // namespace affix::peers
