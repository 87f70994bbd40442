#pragma once
// Which frames of a run the page embeds. Poses are 12 float32 numbers per body per frame (48 bytes);
// when all frames would exceed the budget, the page keeps every k-th frame — 0, k, 2k, … — and the
// last one, with the smallest k that fits. The full-resolution trajectory.csv can still be loaded into
// the page from disk.
#include <cstddef>
#include <vector>

namespace affix::viewer {

/// Bytes of one body's pose in the page: x y z a00 a01 a02 a10 a11 a12 a20 a21 a22 as float32.
inline constexpr std::size_t kPoseBytesPerBody = 12 * sizeof(float);

/// The default budget of embedded pose data, before base64 (which adds a third): 20 MB.
inline constexpr std::size_t kDefaultPoseBudgetBytes = 20'000'000;

struct FrameSelection {
  int source_frames = 0;   ///< frames in trajectory.csv
  int stride = 1;          ///< k: every k-th frame is kept (1: all of them)
  std::vector<int> frames; ///< the kept frame indices, increasing: 0, k, 2k, …, and source_frames − 1
};

/// The frames to keep so that frames.size() · bodies · kPoseBytesPerBody ≤ budget_bytes, with the
/// smallest stride that does it. Frame 0 is always kept, even when one frame alone is over budget.
FrameSelection select_frames(int source_frames, int bodies, std::size_t budget_bytes);

}  // namespace affix::viewer
