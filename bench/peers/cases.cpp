#include "cases.hpp"

#include "affix/math/number_text.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/generate/chain.hpp"
#include "affix/scene/generate/net.hpp"
#include "affix/scene/generate/peaucellier.hpp"
#include "affix/scene/generate/pile.hpp"
#include "affix/scene/generate/wrecking_ball.hpp"

namespace affix::peers {

namespace {

constexpr double kDuration = 2.0;          // s, chain, net and pile
constexpr double kWreckingDuration = 0.5;  // s: the ball is in the wall after 0.03 s

Scene timed(Scene scene, double dt, double duration) {
  scene.settings.dt = dt;
  scene.settings.duration = duration;
  return scene;
}

}  // namespace

std::vector<BenchCase> bench_cases(bool quick) {
  using namespace generate;
  std::vector<BenchCase> cases;
  const std::vector<long long> chains = quick ? std::vector<long long>{10} : std::vector<long long>{10, 100, 1000};
  for (const long long n : chains) {
    cases.push_back({"chain", "N = " + std::to_string(n),
                     "affix generate chain --links " + std::to_string(n) + " --link box --end-mass-ratio 1000",
                     [n] {
                       return timed(chain({.links = n, .end_mass_ratio = 1000.0, .link = ChainLink::box}), 0.01, kDuration);
                     }});
  }
  const std::vector<long long> nets = quick ? std::vector<long long>{10} : std::vector<long long>{10, 30, 100};
  for (const long long n : nets) {
    cases.push_back({"net", "n = " + std::to_string(n),
                     "affix generate net --size " + std::to_string(n) + " --dt " + number_text(1.0 / 60.0),
                     [n] { return timed(net({.size = n}), 1.0 / 60.0, kDuration); }});
  }
  const std::vector<long long> piles = quick ? std::vector<long long>{10} : std::vector<long long>{10, 100, 1000};
  for (const long long k : piles) {
    cases.push_back({"pile", "K = " + std::to_string(k), "affix generate pile --boxes " + std::to_string(k),
                     [k] { return timed(pile({.boxes = k}), 0.01, kDuration); }, false, true});
  }
  const std::vector<WreckingBallVariant> variants =
      quick ? std::vector<WreckingBallVariant>{WreckingBallVariant::light}
            : std::vector<WreckingBallVariant>{WreckingBallVariant::light, WreckingBallVariant::medium,
                                               WreckingBallVariant::full};
  const std::vector<int> rates = quick ? std::vector<int>{100} : std::vector<int>{100, 240, 1000};
  for (const WreckingBallVariant variant : variants) {
    for (const int rate : rates) {
      const std::string name = to_string(variant);
      cases.push_back({"wrecking-ball", name + ", h = 1/" + std::to_string(rate),
                       "affix generate wrecking-ball --variant " + name + " --free-ball --dt " + number_text(1.0 / rate) +
                           " --duration 0.5",
                       [variant, rate] {
                         return timed(wrecking_ball({.blocks = variant_blocks(variant), .free_ball = true}),
                                      1.0 / rate, kWreckingDuration);
                       },
                       true, true});
    }
  }
  // One scene per affix solver that shows what it is for, each as its generator or file gives it (its
  // own dt, duration and solver settings; every solver reads only its own settings block).
  cases.push_back({"showcase", "Peaucellier linkage (impulse)", "affix generate peaucellier",
                   [] { return peaucellier({}); }});
  if (quick) return cases;
  cases.push_back({"showcase", "crane (compliant)", "examples/compliant/crane.json",
                   [] { return load_scene(AFFIX_SOURCE_DIR "/examples/compliant/crane.json"); }});
  // He 2026 Fig. 14 at 2 s of h = 1/60 like the other nets.
  cases.push_back({"showcase", "30K-link net (mabd)",
                   "affix generate net --kind links --size 123 --dt " + number_text(1.0 / 60.0),
                   [] { return timed(net({.size = 123, .kind = NetKind::links}), 1.0 / 60.0, kDuration); }});
  return cases;
}

}  // namespace affix::peers
