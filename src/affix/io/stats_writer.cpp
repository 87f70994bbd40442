#include "affix/io/stats_writer.hpp"

#include <string>

#include "affix/io/number_format.hpp"

namespace affix {

namespace {

void append_field(std::string& row, int value) {
  row += ',';
  row += std::to_string(value);
}

void append_field(std::string& row, double value) {
  row += ',';
  append_number(row, value);
}

}  // namespace

StatsWriter::StatsWriter(const std::filesystem::path& path) : file_(path, kHeader) {}

void StatsWriter::write_step(const StepStats& s) {
  // Same order as kHeader.
  std::string row = std::to_string(s.step);
  append_field(row, s.time);
  append_field(row, s.iterations);
  append_field(row, s.residual);
  append_field(row, s.min_distance);
  append_field(row, s.active_contacts);
  append_field(row, s.max_joint_error);
  append_field(row, s.kinetic_energy);
  append_field(row, s.potential_energy);
  append_field(row, s.wall_ms);
  append_field(row, s.hit_iteration_cap ? 1 : 0);
  append_field(row, s.line_search_evaluations);
  append_field(row, s.barrier_stiffness);
  append_field(row, s.warnings);
  append_field(row, s.max_penetration);
  row += '\n';
  file_.write(row);
}

}  // namespace affix
