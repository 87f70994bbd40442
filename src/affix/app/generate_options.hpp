#pragma once
// The option table of `affix generate KIND [options]`, shared by the command (cli/generate_command.cpp,
// which adds --out and writes the file) and the Python module's affix.generate, so that both offer the
// same kinds and options with the same checks and messages.
#include <optional>
#include <string>
#include <vector>

#include "affix/app/settings_overrides.hpp"
#include "affix/scene/generate/chain.hpp"
#include "affix/scene/generate/drop.hpp"
#include "affix/scene/generate/net.hpp"
#include "affix/scene/generate/peaucellier.hpp"
#include "affix/scene/generate/pile.hpp"
#include "affix/scene/generate/pulley.hpp"
#include "affix/scene/generate/rod_block.hpp"
#include "affix/scene/generate/scissor_lift.hpp"
#include "affix/scene/generate/spider.hpp"
#include "affix/scene/generate/strandbeest.hpp"
#include "affix/scene/generate/tree.hpp"
#include "affix/scene/generate/wrecking_ball.hpp"
#include "affix/scene/scene.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace affix {

/// The families, for messages and --help: "chain, net, …".
extern const char* const kGenerateKinds;

/// What the user typed (but --out, which is the command's). The option structs' member initialisers are
/// the defaults (and what --help shows).
struct GenerateArgs {
  std::optional<std::string> unknown_kind;  ///< a KIND that matched no subcommand
  SettingsOverrides overrides;
  generate::ChainOptions chain;
  std::string chain_joint = generate::to_string(generate::ChainOptions{}.joint);
  std::string chain_link = generate::to_string(generate::ChainOptions{}.link);
  generate::NetOptions net;
  std::string net_kind = generate::to_string(generate::NetOptions{}.kind);
  generate::PulleyOptions pulley;
  generate::TreeOptions tree;
  generate::PileOptions pile;
  generate::DropOptions drop;
  generate::WreckingBallOptions wrecking_ball;
  std::optional<std::string> wrecking_variant;
  CLI::Option* wrecking_blocks = nullptr;  ///< to refuse --blocks beside --variant
  generate::PeaucellierOptions peaucellier;
  generate::RodBlockOptions rod_block;
  generate::SpiderOptions spider;
  generate::ScissorLiftOptions scissor_lift;
  generate::StrandbeestOptions strandbeest;
};

/// Registers on `generate` the positional KIND (to refuse an unknown one by name), --dt, --duration,
/// --solver, and every kind as a subcommand with its options, all writing into `args`.
void add_generate_options(CLI::App& generate, GenerateArgs& args);
/// The kind the parsed command line chose; InputError for an unknown kind or none.
std::string chosen_kind(CLI::App& generate, const GenerateArgs& args);
/// The scene of `kind` with the settings options applied (the frame rate following the step).
Scene generated_scene(const std::string& kind, const GenerateArgs& args);

/// The scene `affix generate KIND OPTIONS…` would write (OPTIONS as typed, e.g. {"--links", "100"}),
/// without --out and without writing it: what the Python module's affix.generate calls.
Scene generate_scene(const std::string& kind, const std::vector<std::string>& options);

}  // namespace affix
