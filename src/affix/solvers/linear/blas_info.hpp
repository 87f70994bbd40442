#pragma once
// Which BLAS the sparse Cholesky (CHOLMOD's supernodal kernels: dgemm, dsyrk, dtrsm) calls at run time.
// affix links OpenBLAS's single-threaded build (libopenblas0-serial, scripts/install-deps.sh) ahead of
// CHOLMOD's own libblas.so.3, so its symbols win whatever the system's BLAS alternative is; this reports
// what the dynamic linker actually bound, not what the build asked for.
#include <string>

namespace affix {

struct BlasInfo {
  std::string library;  ///< the shared object that provides dgemm_ ("" when none is loaded)
  std::string config;   ///< openblas_get_config() and the kernel (core) when the BLAS is OpenBLAS, else ""
  int threads = 1;      ///< openblas_get_num_threads() (1 for any other BLAS: affix asks for no threads)
};

BlasInfo blas_info();

/// Keeps OpenBLAS on the calling thread (affix parallelises over bodies with TBB; a BLAS thread pool
/// beside it would oversubscribe the cores and make sums depend on the thread count), unless the user
/// asked for threads with OPENBLAS_NUM_THREADS. Idempotent; the sparse Cholesky calls it once.
void limit_blas_threads();

/// One line for `affix info`: "OpenBLAS 0.3.21 ... (1 thread) from /usr/lib/.../libopenblas.so.0".
std::string blas_description();

}  // namespace affix
