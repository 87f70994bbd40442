// affix.generate(kind, **options): the scene families of `affix generate` (scene/generate/), with the
// same options under their Python names (--end-mass-ratio → end_mass_ratio) and the same checks, plus
// dt, duration and solver as `affix generate --dt --duration --solver`.
#include <pybind11/pybind11.h>

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "affix/error.hpp"
#include "affix/python/bindings.hpp"
#include "affix/scene/generate/chain.hpp"
#include "affix/scene/generate/drop.hpp"
#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/net.hpp"
#include "affix/scene/generate/pile.hpp"
#include "affix/scene/generate/pulley.hpp"
#include "affix/scene/generate/tree.hpp"
#include "affix/scene/generate/wrecking_ball.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"

namespace py = pybind11;

namespace affix::python {
namespace {

constexpr const char* kKinds = "chain, net, tree, pulley, pile, drop, wrecking-ball";

/// One keyword argument read into an option: `what` names it in messages ("generate chain: links").
long long whole_number(const py::handle& v, const std::string& what) {
  if (py::isinstance<py::bool_>(v) || !py::isinstance<py::int_>(v))
    throw InputError(what + ": expected a whole number");
  try {
    return v.cast<long long>();
  } catch (const py::cast_error&) {
    throw InputError(what + ": expected a whole number that fits in 64 bits");
  }
}
double number(const py::handle& v, const std::string& what) {
  if (py::isinstance<py::bool_>(v) || !(py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)))
    throw InputError(what + ": expected a number");
  return v.cast<double>();
}
std::string text(const py::handle& v, const std::string& what) {
  if (!py::isinstance<py::str>(v)) throw InputError(what + ": expected a str");
  return v.cast<std::string>();
}

/// The options of one kind: a setter per name, and the generator to run once they are set.
struct Family {
  std::map<std::string, std::function<void(const py::handle&, const std::string&)>> options;
  std::function<Scene()> build;
};

Scene generate_scene(const std::string& kind, const py::kwargs& kwargs) {
  generate::ChainOptions chain;
  generate::NetOptions net;
  generate::TreeOptions tree;
  generate::PulleyOptions pulley;
  generate::PileOptions pile;
  generate::DropOptions drop;
  generate::WreckingBallOptions wrecking_ball;
  std::map<std::string, Family> families;
  families["chain"] = {{{"links", [&](auto v, auto w) { chain.links = whole_number(v, w); }},
                        {"end_mass_ratio", [&](auto v, auto w) { chain.end_mass_ratio = number(v, w); }},
                        {"joint", [&](auto v, auto w) { chain.joint = generate::parse_chain_joint(text(v, w)); }}},
                       [&] { return generate::chain(chain); }};
  families["net"] = {{{"size", [&](auto v, auto w) { net.size = whole_number(v, w); }},
                      {"kind", [&](auto v, auto w) { net.kind = generate::parse_net_kind(text(v, w)); }}},
                     [&] { return generate::net(net); }};
  families["tree"] = {{{"depth", [&](auto v, auto w) { tree.depth = whole_number(v, w); }},
                       {"branching", [&](auto v, auto w) { tree.branching = whole_number(v, w); }}},
                      [&] { return generate::tree(tree); }};
  families["pulley"] = {{{"links", [&](auto v, auto w) { pulley.links = whole_number(v, w); }},
                         {"load_ratio", [&](auto v, auto w) { pulley.load_ratio = number(v, w); }}},
                        [&] { return generate::pulley(pulley); }};
  families["pile"] = {{{"boxes", [&](auto v, auto w) { pile.boxes = whole_number(v, w); }},
                       {"seed", [&](auto v, auto w) { pile.seed = whole_number(v, w); }}},
                      [&] { return generate::pile(pile); }};
  families["drop"] = {{{"bodies", [&](auto v, auto w) { drop.bodies = whole_number(v, w); }},
                       {"seed", [&](auto v, auto w) { drop.seed = whole_number(v, w); }}},
                      [&] { return generate::drop(drop); }};
  families["wrecking-ball"] = {{{"blocks", [&](auto v, auto w) { wrecking_ball.blocks = whole_number(v, w); }}},
                               [&] { return generate::wrecking_ball(wrecking_ball); }};

  const auto family = families.find(kind);
  if (family == families.end())
    throw InputError("generate: unknown kind '" + kind + "' (expected one of: " + kKinds + ")");
  std::optional<double> dt, duration;
  std::optional<std::string> solver;
  for (const auto& [key, value] : kwargs) {
    const std::string name = key.cast<std::string>();
    const std::string what = "generate " + kind + ": " + name;
    if (name == "dt") dt = number(value, what);
    else if (name == "duration") duration = number(value, what);
    else if (name == "solver") solver = text(value, what);
    else if (const auto option = family->second.options.find(name); option != family->second.options.end())
      option->second(value, what);
    else {
      std::string known;
      for (const auto& [n, set] : family->second.options) known += n + ", ";
      throw InputError(what + ": unknown option (expected one of: " + known + "dt, duration, solver)");
    }
  }
  Scene scene = family->second.build();
  // As `affix generate` does: the frame rate follows the step.
  if (dt) scene.settings.dt = *dt;
  if (duration) scene.settings.duration = *duration;
  if (solver) scene.settings.solver = *solver;
  scene.settings.output_fps = generate::output_fps_for(scene.settings.dt, scene.settings.duration);
  // Read back through the scene file's validation, which checks dt, duration and solver as a file's.
  Scene checked = parse_scene(scene_to_json(scene, "."), "generate " + kind);
  checked.name = kind;
  checked.file.clear();
  return checked;
}

}  // namespace

void bind_generate(py::module_& m) {
  m.def("generate", &generate_scene, py::arg("kind"),
        "A scene of one family, as `affix generate KIND` writes it: chain (links, end_mass_ratio, joint), net "
        "(size, kind), tree (depth, branching), pulley (links, load_ratio), pile (boxes, seed), drop (bodies, "
        "seed), wrecking-ball (blocks); every kind also takes dt, duration and solver. Raises affix.InputError "
        "for an unknown kind or option, or a value out of range.");
}

}  // namespace affix::python
