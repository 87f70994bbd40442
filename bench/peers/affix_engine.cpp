// affix's solvers through the Simulator interface (solvers/registry.hpp), measured by the same code as
// the peers: the model's settings.solver is set to each name in turn.
#include <memory>

#include "affix/solvers/registry.hpp"
#include "engine.hpp"

namespace affix::peers {

namespace {

class AffixEngine final : public Engine {
 public:
  explicit AffixEngine(std::unique_ptr<Simulator> simulator) : simulator_(std::move(simulator)) {}
  void step() override { simulator_->step(); }
  void poses(std::vector<BodyPose>& out) const override { out = simulator_->poses(); }

 private:
  std::unique_ptr<Simulator> simulator_;
};

}  // namespace

std::vector<EngineSpec> affix_engines() {
  std::vector<EngineSpec> specs;
  for (const std::string& name : solver_names()) {
    specs.push_back({"affix " + name, "Simulator", true, [name](const BenchInput& input) -> std::unique_ptr<Engine> {
                       auto model = std::make_shared<Model>(input.model);
                       model->settings.solver = name;
                       return std::make_unique<AffixEngine>(make_simulator(std::move(model)));
                     }});
  }
  return specs;
}

}  // namespace affix::peers
