// The option table of `affix generate` (and of affix.generate in Python): every scene family of
// scene/generate/ as a CLI11 subcommand owning its options, and the scene it builds.
#include "affix/app/generate_options.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/number_text.hpp"
#include "affix/scene/generate/chain.hpp"
#include "affix/scene/generate/drop.hpp"
#include "affix/scene/generate/generated_scene.hpp"
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

namespace affix {

const char* const kGenerateKinds = "chain, net, tree, pulley, pile, drop, wrecking-ball, peaucellier, rod-block, spider, scissor-lift, strandbeest";

namespace {

CLI::App* add_kind(CLI::App& generate, const char* name, const char* description) {
  CLI::App* kind = generate.add_subcommand(name, description);
  kind->fallthrough();  // --out, --dt, … are generate's
  return kind;
}

void add_kinds(CLI::App& generate, GenerateArgs& a) {
  CLI::App* chain = add_kind(generate, "chain", "A chain of capsule links hanging from the world");
  chain->add_option("--links", a.chain.links, "Number of links")->capture_default_str();
  chain->add_option("--end-mass-ratio", a.chain.end_mass_ratio,
                    "Mass of the last link over the first; masses graded geometrically")
      ->capture_default_str();
  chain->add_option("--joint", a.chain_joint, "Joint between links: ball or hinge")->capture_default_str();
  chain->add_option("--link", a.chain_link, "Link shape: capsule, or box (0.1 x 0.02 x 0.02 m)")->capture_default_str();

  CLI::App* net = add_kind(generate, "net", "A square net of spheres on ball joints, pinned at its corners");
  net->add_option("--size", a.net.size, "Knots per side")->capture_default_str();
  net->add_option("--kind", a.net_kind, "spheres (a sphere per knot) or links (a capsule per edge, He 2026 Fig. 14)")
      ->capture_default_str();

  CLI::App* tree = add_kind(generate, "tree", "A tree of spheres on ball joints hanging from a pinned root");
  tree->add_option("--depth", a.tree.depth, "Levels below the root")->capture_default_str();
  tree->add_option("--branching", a.tree.branching, "Children per node")->capture_default_str();

  CLI::App* pulley = add_kind(generate, "pulley", "Two loads on ropes over a hinged wheel, tied below by a bar: a loop");
  pulley->add_option("--links", a.pulley.links, "Links per rope")->capture_default_str();
  pulley->add_option("--load-ratio", a.pulley.load_ratio, "Mass of the left load over the right")->capture_default_str();

  CLI::App* pile = add_kind(generate, "pile", "Boxes dropped from a loose jittered block onto the ground");
  pile->add_option("--boxes", a.pile.boxes, "Number of boxes")->capture_default_str();
  pile->add_option("--seed", a.pile.seed, "Seed of the sizes, orientations and jitter")->capture_default_str();

  CLI::App* drop = add_kind(generate, "drop", "Bodies of mixed shapes falling onto the ground");
  drop->add_option("--bodies", a.drop.bodies, "Number of bodies (box, sphere, capsule, cylinder, torus in turn)")
      ->capture_default_str();
  drop->add_option("--seed", a.drop.seed, "Seed of the orientations and jitter")->capture_default_str();

  CLI::App* wrecking = add_kind(generate, "wrecking-ball", "A ball on a jointed rope swinging into a wall of blocks");
  a.wrecking_blocks =
      wrecking->add_option("--blocks", a.wrecking_ball.blocks, "Number of blocks in the wall")->capture_default_str();
  wrecking->add_option("--variant", a.wrecking_variant,
                       "Blocks of Lan 2022 Table 1: light (15), medium (141) or full (561); not with --blocks");
  wrecking->add_flag("--free-ball", a.wrecking_ball.free_ball,
                     "No rope: the ball is thrown at the wall at 4 m/s (Lan 2022 Sec. 5.2)");

  CLI::App* peaucellier = add_kind(generate, "peaucellier", "A Peaucellier-Lipkin straight-line linkage (impulse solver)");
  peaucellier->add_option("--angle", a.peaucellier.angle_deg, "Crank angle at release (degrees, within +-29)")
      ->capture_default_str();
  CLI::App* rod_block = add_kind(generate, "rod-block", "A 7.5 t block held by a light hinged rod (impulse solver)");
  rod_block->add_option("--rod-mass", a.rod_block.rod_mass, "Mass of the rod (kg)")->capture_default_str();
  rod_block->add_option("--block-mass", a.rod_block.block_mass, "Mass of the block (kg)")->capture_default_str();
  CLI::App* spider = add_kind(generate, "spider", "A body carrying many two-part legs (impulse solver)");
  spider->add_option("--legs", a.spider.legs, "Number of legs")->capture_default_str();
  CLI::App* lift = add_kind(generate, "scissor-lift", "A scissor lift locked open, dropped 0.4 m (impulse solver)");
  lift->add_option("--segments", a.scissor_lift.segments, "Number of X segments")->capture_default_str();
  lift->add_option("--angle", a.scissor_lift.angle_deg, "Bar angle from the horizontal (degrees)")->capture_default_str();
  CLI::App* beest = add_kind(generate, "strandbeest", "Theo Jansen's walking machine, dropped 0.4 m (impulse solver)");
  beest->add_option("--legs", a.strandbeest.legs, "Number of legs (mirrored pairs on a three-phase crank)")->capture_default_str();
  beest->add_option("--load", a.strandbeest.load, "k: k times the machine's own mass added to its frame")->capture_default_str();
}

Scene build(const std::string& kind, const GenerateArgs& a) {
  if (kind == "chain") {
    generate::ChainOptions options = a.chain;
    options.joint = generate::parse_chain_joint(a.chain_joint);
    options.link = generate::parse_chain_link(a.chain_link);
    return generate::chain(options);
  }
  if (kind == "net") {
    generate::NetOptions options = a.net;
    options.kind = generate::parse_net_kind(a.net_kind);
    return generate::net(options);
  }
  if (kind == "pulley") return generate::pulley(a.pulley);
  if (kind == "tree") return generate::tree(a.tree);
  if (kind == "pile") return generate::pile(a.pile);
  if (kind == "drop") return generate::drop(a.drop);
  if (kind == "peaucellier") return generate::peaucellier(a.peaucellier);
  if (kind == "rod-block") return generate::rod_block(a.rod_block);
  if (kind == "spider") return generate::spider(a.spider);
  if (kind == "scissor-lift") return generate::scissor_lift(a.scissor_lift);
  if (kind == "strandbeest") return generate::strandbeest(a.strandbeest);
  generate::WreckingBallOptions options = a.wrecking_ball;
  if (a.wrecking_variant) {
    const generate::WreckingBallVariant variant = generate::parse_wrecking_ball_variant(*a.wrecking_variant);
    if (a.wrecking_blocks->count() > 0) {
      throw InputError("--variant " + excerpt(*a.wrecking_variant) + ": sets the blocks itself (give --variant or --blocks, not both)");
    }
    options.blocks = generate::variant_blocks(variant);
  }
  return generate::wrecking_ball(options);
}

}  // namespace

Scene generated_scene(const std::string& kind, const GenerateArgs& args) {
  Scene scene = build(kind, args);
  // The frame rate follows the step: a --dt too large for 50 frames per second writes every step.
  scene.settings.output_fps.reset();
  (void)apply_overrides(args.overrides, scene.settings);  // no output_fps: nothing to lower, no note
  scene.settings.output_fps = generate::output_fps_for(scene.settings.dt, scene.settings.duration);
  return scene;
}

void add_generate_options(CLI::App& generate, GenerateArgs& args) {
  // A KIND that is not a subcommand lands here, so that it can be refused by name rather than as
  // an unexpected argument.
  generate.add_option("kind", args.unknown_kind, std::string("Scene family: ") + kGenerateKinds);
  generate.add_option("--dt", args.overrides.dt, "Time step in s (default " + number_text(generate::kTimeStep) + ")");
  generate.add_option("--duration", args.overrides.duration, "Simulated time in s (default " + number_text(generate::kDuration) + ")");
  generate.add_option("--solver", args.overrides.solver, "Solver (default ipc)");
  add_kinds(generate, args);
}

std::string chosen_kind(CLI::App& generate, const GenerateArgs& args) {
  if (args.unknown_kind) {
    throw InputError("generate: unknown kind '" + excerpt(*args.unknown_kind) + "' (expected one of: " + kGenerateKinds + ")");
  }
  const std::vector<CLI::App*> kinds = generate.get_subcommands();
  if (kinds.empty()) throw InputError(std::string("generate: which kind? (expected one of: ") + kGenerateKinds + ")");
  return kinds.front()->get_name();
}

Scene generate_scene(const std::string& kind, const std::vector<std::string>& options) {
  GenerateArgs args;
  CLI::App generate("generate");
  add_generate_options(generate, args);
  std::vector<std::string> reversed(options.rbegin(), options.rend());  // CLI11 parses a vector from its back
  reversed.push_back(kind);
  try {
    generate.parse(reversed);
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    std::replace(message.begin(), message.end(), '\n', ' ');  // one line, as every error
    throw InputError("generate " + excerpt(kind) + ": " + message);
  }
  return generated_scene(chosen_kind(generate, args), args);
}

}  // namespace affix
