#include "trial.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <sstream>

#include <oneapi/tbb/global_control.h>

#include "affix/error.hpp"
#include "primitives.hpp"

namespace affix::peers {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string clean(std::string text) {
  for (char& c : text) {
    if (c == '\t' || c == '\n' || c == '\r' || c == '|') c = ' ';
  }
  return text.substr(0, 300);
}

// The child's state, for fail_trial.
int g_fd = -1;
const MeasureRecorder* g_recorder = nullptr;
double g_setup_s = 0.0;

/// One snapshot: tab-separated fields on one line.
void send(const std::string& status, const std::string& note, const Measures& m, double setup_s) {
  std::ostringstream s;
  s.precision(17);
  s << status << '\t' << clean(note) << '\t' << setup_s << '\t' << m.steps << '\t' << m.median_ms << '\t'
    << m.max_joint_gap << '\t' << m.max_body_penetration << '\t' << m.max_ground_penetration << '\t'
    << m.unmeasured_pairs << '\t' << m.energy_drift << '\t' << m.energy_moved << '\t' << m.blew_up << '\t'
    << clean(m.blow_up_reason) << '\t' << "end\n";
  const std::string line = s.str();
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = write(g_fd, line.data() + done, line.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

bool parse(const std::string& line, TrialResult& r) {
  std::istringstream s(line);
  std::string f[14];
  for (std::string& field : f) {
    if (!std::getline(s, field, '\t')) return false;
  }
  if (f[13] != "end") return false;
  r.status = f[0];
  r.note = f[1];
  r.setup_s = std::atof(f[2].c_str());
  Measures& m = r.measures;
  m.steps = std::atoi(f[3].c_str());
  m.median_ms = std::atof(f[4].c_str());
  m.max_joint_gap = std::atof(f[5].c_str());
  m.max_body_penetration = std::atof(f[6].c_str());
  m.max_ground_penetration = std::atof(f[7].c_str());
  m.unmeasured_pairs = std::atoll(f[8].c_str());
  m.energy_drift = std::atof(f[9].c_str());
  m.energy_moved = std::atof(f[10].c_str());
  m.blew_up = f[11] == "1";
  m.blow_up_reason = f[12];
  return true;
}

[[noreturn]] void child(const BenchInput& input, const EngineSpec& spec, const TrialLimits& limits, int steps) {
  const rlim_t bytes = static_cast<rlim_t>(limits.memory_gb * 1024.0 * 1024.0 * 1024.0);
  const rlimit limit{bytes, bytes};
  setrlimit(RLIMIT_AS, &limit);
  setenv("OMP_NUM_THREADS", "1", 1);
  tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);

  const Measures none;
  const Clock::time_point setup_start = Clock::now();
  std::unique_ptr<Engine> engine;
  try {
    engine = spec.make(input);
  } catch (const InputError& e) {
    send("refused", e.what(), none, since(setup_start));
    _exit(0);
  } catch (const std::exception& e) {
    send("failed", std::string("setup: ") + e.what(), none, since(setup_start));
    _exit(0);
  }
  g_setup_s = since(setup_start);
  send("partial", "killed in step 1", none, g_setup_s);  // set up: a kill from now on is in a step

  std::vector<std::optional<Primitive>> shapes;
  for (const BodyDef& body : input.scene.bodies) shapes.push_back(primitive_of(body));
  MeasureRecorder recorder(input.model, std::move(shapes));
  g_recorder = &recorder;
  std::vector<BodyPose> poses(input.model.bodies.size());
  const Clock::time_point start = Clock::now();
  Clock::time_point last_sent = start;
  double stepping_s = 0.0;  // the engine's own time: what the budget is of
  std::string status = "complete", note;
  // AFFIX_PEERS_TRACE=1: the running measures after every step on stderr, to see where a run goes wrong.
  const bool trace = std::getenv("AFFIX_PEERS_TRACE") != nullptr;
  try {
    for (int k = 0; k < steps; ++k) {
      const Clock::time_point t = Clock::now();
      engine->step();
      const double ms = 1e3 * since(t);
      stepping_s += 1e-3 * ms;
      engine->poses(poses);
      if (!recorder.record(poses, ms)) {
        status = "blew up";
        note = recorder.result().blow_up_reason;
        break;
      }
      if (trace) {
        const Measures m = recorder.result();
        std::fprintf(stderr, "%s %s step %d: gap %.3g body %.3g ground %.3g drift %+.3f\n", spec.engine.c_str(),
                     spec.mode.c_str(), m.steps, m.max_joint_gap, m.max_body_penetration, m.max_ground_penetration,
                     m.energy_drift);
      }
      // The budget is of stepping time; measuring a large scene's poses is not the engine's cost, but
      // it may not take the run past three budgets either.
      if ((stepping_s > limits.budget_s || since(start) > 3.0 * limits.budget_s) && k + 1 < steps) {
        status = "partial";
        note = "time budget reached";
        break;
      }
      if (since(last_sent) > 0.5) {
        send("partial", "killed in step " + std::to_string(k + 2), recorder.result(), g_setup_s);
        last_sent = Clock::now();
      }
    }
  } catch (const SimulationError& e) {
    // An affix solver's own verdict on a step (a diverged state, a system it cannot solve), as MuJoCo's
    // instability check: the scene was lost, not the harness.
    status = "blew up";
    note = e.what();
  } catch (const std::exception& e) {
    status = "failed";
    note = e.what();
  }
  if (const std::string warned = engine->warnings(); !warned.empty()) note = note.empty() ? warned : note + "; " + warned;
  send(status, note, recorder.result(), g_setup_s);
  _exit(0);
}

}  // namespace

bool TrialResult::kept_so_far() const {
  return (status == "complete" || status == "partial") && measures.steps > 0 && !measures.blew_up &&
         measures.max_joint_gap < 1e-3 && measures.max_body_penetration < 1e-2 &&
         measures.max_ground_penetration < 1e-2;
}

void fail_trial(const std::string& message, const std::string& status) {
  send(status, message, g_recorder ? g_recorder->result() : Measures{}, g_setup_s);
  _exit(1);
}

TrialResult run_trial(const BenchInput& input, const EngineSpec& spec, const TrialLimits& limits) {
  TrialResult result;
  result.steps_planned = static_cast<int>(std::llround(input.model.settings.duration / input.model.settings.dt));
  int fds[2];
  if (pipe(fds) != 0) {
    result.status = "failed";
    result.note = "pipe: " + std::string(std::strerror(errno));
    return result;
  }
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    g_fd = fds[1];
    child(input, spec, limits, result.steps_planned);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    result.status = "failed";
    result.note = "fork: " + std::string(std::strerror(errno));
    return result;
  }
  // Deadlines: the engine's setup gets setup_limit_s + grace_s; then a step (the time between two
  // snapshots, which the child sends after a step at most 0.5 s apart) gets budget_s + grace_s — a
  // single step longer than the whole budget is past saving (ODE's dense dWorldStep on thousands of
  // rows, ipc's first step of a large scene); and the run as a whole, whose child stops itself at
  // three budgets, gets setup_limit_s + 3 budgets + grace_s.
  const Clock::time_point start = Clock::now();
  Clock::time_point last_heard = start;
  const double overall = limits.setup_limit_s + 3.0 * limits.budget_s + limits.grace_s;
  std::string pending, why_killed;
  bool got = false, killed = false;
  for (;;) {
    const double waited = since(last_heard), allowed = got ? limits.budget_s + limits.grace_s : limits.setup_limit_s + limits.grace_s;
    if (since(start) >= overall || waited >= allowed) {
      kill(pid, SIGKILL);
      killed = true;
      std::ostringstream after;
      after << " after " << static_cast<int>(since(start)) << " s in all";
      why_killed = got ? " (" + std::to_string(static_cast<int>(waited)) + " s in it)" + after.str() : after.str();
      break;
    }
    const double left = std::min(overall - since(start), allowed - waited);
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::min(left, 1.0) * 1000.0) + 1) <= 0) continue;
    char buffer[4096];
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n <= 0) break;  // the child closed its end: it is done
    pending.append(buffer, static_cast<std::size_t>(n));
    for (std::size_t end; (end = pending.find('\n')) != std::string::npos;) {
      if (parse(pending.substr(0, end), result)) got = true, last_heard = Clock::now();
      pending.erase(0, end + 1);
    }
  }
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  if (killed) {
    result.status = "partial";
    result.note = (got ? result.note : std::string("killed during setup")) + why_killed;
  } else if (WIFSIGNALED(wstatus)) {
    result.status = "failed";
    result.note = std::string("crashed: ") + strsignal(WTERMSIG(wstatus)) + (got ? " (measures up to the last snapshot)" : "");
  } else if (!got) {
    result.status = "failed";
    result.note = "the child process ended without a result (exit " + std::to_string(WEXITSTATUS(wstatus)) + ")";
  }
  return result;
}

}  // namespace affix::peers
