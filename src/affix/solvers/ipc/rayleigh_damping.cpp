#include "affix/solvers/ipc/rayleigh_damping.hpp"

namespace affix {
namespace {

Vec12 displacement(const DofLayout& layout, const VecX& q, const std::vector<Vec12>& offset, int i) {
  return layout.segment<kAffineDofs>(q, i) - offset[i];
}

}  // namespace

void RayleighDamping::add_energies(const VecX& q, double scale, const std::vector<char>& include,
                                   std::vector<double>& per_body) const {
  if (empty()) return;
  const double s = scale * gamma;
  for (int i = 0; i < K.block_count(); ++i) {
    if (!include[i] || K.diagonal(i).isZero(0.0)) continue;
    const Vec12 e = displacement(layout, q, offset, i);
    per_body[i] += 0.5 * s * e.dot(K.diagonal(i) * e);
  }
  for (const auto& [key, block] : K.couplings()) {  // block (row, column) = (key.second, key.first)
    const int row = key.second, column = key.first;
    const int owner = include[row] ? row : column;
    if (!include[owner]) continue;
    per_body[owner] += s * displacement(layout, q, offset, row).dot(block * displacement(layout, q, offset, column));
  }
}

void RayleighDamping::add_derivatives(const VecX& q, double scale, VecX& gradient, BlockHessian& H) const {
  if (empty()) return;
  const double s = scale * gamma;
  for (int i = 0; i < K.block_count(); ++i) {
    if (K.diagonal(i).isZero(0.0)) continue;
    layout.segment<kAffineDofs>(gradient, i) += s * K.diagonal(i) * displacement(layout, q, offset, i);
    H.diagonal(i) += s * K.diagonal(i);
  }
  for (const auto& [key, block] : K.couplings()) {
    const int row = key.second, column = key.first;
    layout.segment<kAffineDofs>(gradient, row) += s * block * displacement(layout, q, offset, column);
    layout.segment<kAffineDofs>(gradient, column) += s * block.transpose() * displacement(layout, q, offset, row);
    H.add_coupling(row, column, s * block);
  }
}

}  // namespace affix
