#pragma once
// Software prefetch of the per-body and per-joint records a step's passes walk. Each pass reads them in
// order, but does enough arithmetic between one record and the next (hundreds of cycles) that the
// hardware prefetcher, which keys on the rate of misses, fell behind: at 10⁵ links the first read of each
// KktBody or KktJoint was 30–40 % of BallChain::solve's samples (perf annotate). Asking for the record a
// few bodies ahead hides that latency; it changes no result.
#include <cstddef>

namespace affix {

/// How many records ahead of its use a pass asks for one: about 0.5 µs of a chain step's work.
constexpr int kPrefetchAhead = 6;

/// Asks for every cache line of the T at `storage`, constructed or not yet (a vector's capacity beyond its
/// size), for reading or `for_write`.
template <class T>
inline void prefetch_storage(const T* storage, bool for_write = false) {
  const char* p = reinterpret_cast<const char*>(storage);
  for (std::size_t line = 0; line < sizeof(T); line += 64) {
    if (for_write)
      __builtin_prefetch(p + line, 1);
    else
      __builtin_prefetch(p + line);
  }
}

/// Asks for every cache line of `object`.
template <class T>
inline void prefetch(const T& object, bool for_write = false) {
  prefetch_storage(&object, for_write);
}

}  // namespace affix
