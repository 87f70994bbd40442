#pragma once
// Where each body's degrees of freedom sit in a solver's stacked state vector. The layout is the
// solver's choice, not the model's: an affine body has 12 (p and the rows of A, Lan 2022 Eq. 1), a rigid
// body 6 (a twist), a deformable body 3 per vertex (Chen 2022 §6). Assembly, CCD and output address a
// body's DOFs through `offset` and `segment`, never through literal multiples.
#include <algorithm>
#include <cassert>
#include <numeric>
#include <vector>

#include "affix/math/types.hpp"

namespace affix {

inline constexpr int kAffineDofs = 12;  ///< p ∈ R³ and A ∈ R³ˣ³ (Lan 2022 Eq. 1)
inline constexpr int kRigidDofs = 6;    ///< a twist (v, ω)

class DofLayout {
 public:
  DofLayout() = default;
  /// sizes[i]: the DOF count of body i.
  explicit DofLayout(std::vector<int> sizes) : offsets_(sizes.size() + 1, 0) {
    std::inclusive_scan(sizes.begin(), sizes.end(), offsets_.begin() + 1);
  }
  /// `bodies` bodies of `dofs` DOFs each.
  static DofLayout uniform(int bodies, int dofs) { return DofLayout(std::vector<int>(bodies, dofs)); }

  int body_count() const { return static_cast<int>(offsets_.size()) - 1; }
  int offset(int body) const { return offsets_[body]; }
  int size(int body) const { return offsets_[body + 1] - offsets_[body]; }
  int total() const { return offsets_.back(); }
  /// The body whose segment holds global DOF `dof`.
  int body_of(int dof) const {
    return static_cast<int>(std::upper_bound(offsets_.begin(), offsets_.end(), dof) - offsets_.begin()) - 1;
  }
  /// Adds a body of `dofs` DOFs after the last; returns its index.
  int append(int dofs) {
    offsets_.push_back(total() + dofs);
    return body_count() - 1;
  }

  /// Body i's segment of a stacked vector, with its size N known at compile time.
  template <int N>
  auto segment(VecX& x, int body) const {
    assert(size(body) == N);
    return x.segment<N>(offset(body));
  }
  template <int N>
  auto segment(const VecX& x, int body) const {
    assert(size(body) == N);
    return x.segment<N>(offset(body));
  }

 private:
  std::vector<int> offsets_{0};  // offsets_[i]: first DOF of body i; offsets_.back(): the total
};

}  // namespace affix
