#include "affix/viewer/decimation.hpp"

#include <algorithm>

namespace affix::viewer {

namespace {

/// Frames kept with stride k out of n ≥ 1: 0, k, 2k, … ≤ n − 1, plus n − 1 when the stride misses it.
long long kept_count(long long n, long long k) { return (n - 1) / k + 1 + ((n - 1) % k != 0 ? 1 : 0); }

}  // namespace

FrameSelection select_frames(int source_frames, int bodies, std::size_t budget_bytes) {
  FrameSelection selection;
  selection.source_frames = source_frames;
  if (source_frames <= 0) return selection;
  const std::size_t frame_bytes = std::max<std::size_t>(1, static_cast<std::size_t>(bodies) * kPoseBytesPerBody);
  const long long most = static_cast<long long>(budget_bytes / frame_bytes);
  const long long n = source_frames;
  if (n == 1 || most <= 1) {  // one frame: the first
    selection.stride = source_frames;
    selection.frames = {0};
    return selection;
  }
  long long k = 1;
  if (n > most) k = std::max<long long>(1, (n - 1) / (most - 1));
  while (kept_count(n, k) > most) ++k;
  selection.stride = static_cast<int>(k);
  for (long long f = 0; f < n; f += k) selection.frames.push_back(static_cast<int>(f));
  if (selection.frames.back() != source_frames - 1) selection.frames.push_back(source_frames - 1);
  return selection;
}

}  // namespace affix::viewer
