#pragma once
// The exit status of `affix` (DESIGN §4): what a script can rely on.

namespace affix::cli {

enum ExitCode : int {
  kExitOk = 0,                ///< the command did what it was asked; a run completed
  kExitSimulationFailed = 1,  ///< a run stopped early (diverged, could not converge); its output stays
  kExitBadInput = 2,          ///< bad scene file, bad option or usage
};

}  // namespace affix::cli
