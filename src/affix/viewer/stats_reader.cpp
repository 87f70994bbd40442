#include "affix/viewer/stats_reader.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "affix/error.hpp"
#include "affix/io/csv_reader.hpp"

namespace affix::viewer {

namespace {

enum class Reduce { kLast, kMax, kMin };

Reduce reduction(const std::string& column) {
  if (column == "min_distance") return Reduce::kMin;
  if (column == "time" || column == "kinetic_energy" || column == "potential_energy") return Reduce::kLast;
  return Reduce::kMax;
}

/// Combines a bucket's running value with the next step's; NaN never wins over a number.
double combine(Reduce r, double acc, double v) {
  if (std::isnan(acc)) return v;
  if (std::isnan(v)) return acc;
  switch (r) {
    case Reduce::kLast: return v;
    case Reduce::kMax: return std::max(acc, v);
    case Reduce::kMin: return std::min(acc, v);
  }
  return v;
}

}  // namespace

StatsSeries read_stats(const std::filesystem::path& file, std::size_t max_points) {
  CsvReader reader(file);
  const std::string header_line = reader.read_header();
  const std::vector<std::string> header = split_csv_line(header_line);
  StatsSeries out;
  std::vector<std::size_t> source;  // the file column of each name
  std::vector<Reduce> reduce;
  for (const std::string& name : kStatsColumns) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) continue;
    out.names.push_back(name);
    source.push_back(static_cast<std::size_t>(it - header.begin()));
    reduce.push_back(reduction(name));
  }
  if (out.names.empty() || out.names.front() != "time")
    reader.fail("expected a stats.csv header with a `time` column, got " + quoted_field(header_line));
  out.columns.resize(out.names.size());

  const std::size_t rows = reader.count_rows();
  if (rows > static_cast<std::size_t>(INT_MAX)) reader.fail("more than " + std::to_string(INT_MAX) + " rows");
  out.source_rows = static_cast<int>(rows);
  const std::size_t points = std::max<std::size_t>(1, max_points);
  out.stride = static_cast<int>(std::max<std::size_t>(1, (rows + points - 1) / points));

  std::string line;
  std::vector<double> bucket(out.names.size(), std::nan(""));
  std::vector<double> values(out.names.size());
  int in_bucket = 0;
  double last_time = 0.0;
  while (reader.next_row(line)) {
    const std::vector<std::string> fields = split_csv_line(line);
    if (fields.size() != header.size())
      reader.fail("expected " + std::to_string(header.size()) + " fields, got " + std::to_string(fields.size()));
    for (std::size_t c = 0; c < source.size(); ++c) {
      if (!parse_number(fields[source[c]], values[c]))
        reader.fail(out.names[c] + ": expected a number, got " + quoted_field(fields[source[c]]));
    }
    // `time` (column 0 of names) is the plots' x axis, which the page searches: steps come in order.
    if (!std::isfinite(values[0]) || values[0] < last_time)
      reader.fail("time: expected a finite number no earlier than the step before, got " + quoted_field(fields[source[0]]));
    last_time = values[0];
    for (std::size_t c = 0; c < source.size(); ++c) bucket[c] = combine(reduce[c], bucket[c], values[c]);
    if (++in_bucket == out.stride) {
      for (std::size_t c = 0; c < bucket.size(); ++c) out.columns[c].push_back(bucket[c]);
      std::fill(bucket.begin(), bucket.end(), std::nan(""));
      in_bucket = 0;
    }
  }
  if (in_bucket > 0)
    for (std::size_t c = 0; c < bucket.size(); ++c) out.columns[c].push_back(bucket[c]);
  return out;
}

}  // namespace affix::viewer
