// DofLayout: offsets, sizes and the body of a DOF for mixed body kinds (affine, rigid, deformable),
// checked against the running sum written out by hand.
#include "affix/model/dof_layout.hpp"

#include <gtest/gtest.h>

namespace affix {
namespace {

TEST(DofLayout, MixedBodiesSitOneAfterAnother) {
  // An affine body, a rigid body, a deformable body of 5 vertices, another affine body.
  const DofLayout layout({kAffineDofs, kRigidDofs, 3 * 5, kAffineDofs});
  ASSERT_EQ(layout.body_count(), 4);
  EXPECT_EQ(layout.total(), 12 + 6 + 15 + 12);
  const int offsets[] = {0, 12, 18, 33};
  const int sizes[] = {12, 6, 15, 12};
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(layout.offset(b), offsets[b]) << b;
    EXPECT_EQ(layout.size(b), sizes[b]) << b;
  }
}

TEST(DofLayout, EveryDofBelongsToTheBodyWhoseSegmentHoldsIt) {
  const DofLayout layout({kAffineDofs, kRigidDofs, 9, kAffineDofs});
  for (int dof = 0; dof < layout.total(); ++dof) {
    const int b = layout.body_of(dof);
    ASSERT_GE(b, 0);
    ASSERT_LT(b, layout.body_count());
    EXPECT_LE(layout.offset(b), dof);
    EXPECT_LT(dof, layout.offset(b) + layout.size(b));
  }
}

TEST(DofLayout, AppendedBodiesFollowTheLast) {
  DofLayout layout = DofLayout::uniform(3, kAffineDofs);
  EXPECT_EQ(layout.total(), 36);
  EXPECT_EQ(layout.append(kAffineDofs), 3);
  EXPECT_EQ(layout.append(kRigidDofs), 4);
  EXPECT_EQ(layout.offset(4), 48);
  EXPECT_EQ(layout.total(), 54);
  EXPECT_EQ(layout.body_of(53), 4);
}

TEST(DofLayout, SegmentsAddressTheBodysOwnEntries) {
  const DofLayout layout({kRigidDofs, kAffineDofs});
  VecX x = VecX::LinSpaced(layout.total(), 0.0, layout.total() - 1.0);
  EXPECT_EQ(layout.segment<kRigidDofs>(x, 0)[0], 0.0);
  EXPECT_EQ(layout.segment<kAffineDofs>(x, 1)[0], 6.0);
  EXPECT_EQ(layout.segment<kAffineDofs>(x, 1)[11], 17.0);
  layout.segment<kAffineDofs>(x, 1).setZero();
  EXPECT_EQ(x.head<6>().sum(), 15.0);
  EXPECT_EQ(x.tail<12>().squaredNorm(), 0.0);
}

TEST(DofLayout, AnEmptyLayoutHasNoDofs) {
  const DofLayout layout;
  EXPECT_EQ(layout.body_count(), 0);
  EXPECT_EQ(layout.total(), 0);
}

}  // namespace
}  // namespace affix
