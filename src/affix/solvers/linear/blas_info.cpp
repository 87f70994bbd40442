#include "affix/solvers/linear/blas_info.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

extern "C" {
// OpenBLAS's own entry points (cblas.h); referencing one makes the link keep libopenblas as a direct
// dependency of every affix binary, loaded before CHOLMOD's libblas.so.3.
char* openblas_get_config(void);
char* openblas_get_corename(void);
int openblas_get_num_threads(void);
void openblas_set_num_threads(int threads);
}

namespace affix {

BlasInfo blas_info() {
  BlasInfo info;
  // dgemm_ is what CHOLMOD's supernodal factorisation spends its time in: ask the loader who provides it.
  if (void* dgemm = dlsym(RTLD_DEFAULT, "dgemm_")) {
    Dl_info where{};
    if (dladdr(dgemm, &where) != 0 && where.dli_fname) info.library = where.dli_fname;
  }
  // The symbol that gave dgemm_ is OpenBLAS's when its config entry point resolves to the same object.
  if (void* config = dlsym(RTLD_DEFAULT, "openblas_get_config")) {
    Dl_info where{};
    if (dladdr(config, &where) != 0 && where.dli_fname && info.library == where.dli_fname) {
      info.config = std::string(openblas_get_config()) + ", core " + openblas_get_corename();
      info.threads = openblas_get_num_threads();
    }
  }
  return info;
}

void limit_blas_threads() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!std::getenv("OPENBLAS_NUM_THREADS")) openblas_set_num_threads(1);
  });
}

std::string blas_description() {
  const BlasInfo info = blas_info();
  if (info.library.empty()) return "none loaded";
  if (info.config.empty()) return "reference or unknown BLAS from " + info.library;
  return info.config + " (" + std::to_string(info.threads) + (info.threads == 1 ? " thread" : " threads") +
         ") from " + info.library;
}

}  // namespace affix
