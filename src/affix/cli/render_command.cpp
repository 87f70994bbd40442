// `affix render`: registered here; its implementation is being written (issue 5). Until then the
// command says so and exits 2, so nothing pretends to work.
#include <CLI/CLI.hpp>

#include <iostream>

#include "affix/cli/commands.hpp"
#include "affix/cli/exit_codes.hpp"

namespace affix::cli {

Action add_render(CLI::App& app) {
  app.add_subcommand("render", "(not available in this build)");
  return [] {
    std::cerr << "affix: error: 'render' is not available in this build\n";
    return kExitBadInput;
  };
}

}  // namespace affix::cli
