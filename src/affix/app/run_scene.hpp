#pragma once
// The one place that puts the layers together for a run: compile the scene, build the back-end it
// names, run the loop. Above both the solvers and io, so that neither knows the other.
#include "affix/io/run.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// Compiles `scene` and builds its simulator (an InputError from either propagates before anything is
/// written), then runs it (io/run.hpp), writing meshes.json before the first step so that a viewer can
/// open a run that is still going or that failed.
RunResult run_scene(const Scene& scene, const RunOptions& options);

/// The same, dropping the scene once its model is compiled and before the solver is built: what the run
/// still needs of it (names, joints) is moved out first (RunInputs), so that a 10⁶-body run never holds
/// the scene, the model and the factorised solver at once.
RunResult run_scene(Scene&& scene, const RunOptions& options);

}  // namespace affix
