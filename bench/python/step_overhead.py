#!/usr/bin/env python3
"""ms per step from Python, and what the module adds to the solver's own time.

    PYTHONPATH=build/release/python taskset -c 0 python3 bench/python/step_overhead.py

For each scene and solver: the median wall time of `sim.step()` as Python sees it, the median of the
solver's own `StepStats.wall_ms` (timed around Simulator::step in C++), and the median time to read
positions, rotations and velocities after a step. Not part of any test's pass/fail.
"""
import statistics
import time

import affix

CASES = [("chain", {"links": 100}, "ipc"), ("chain", {"links": 100}, "mabd"), ("pile", {"boxes": 20}, "ipc")]
STEPS = 100


def measure(kind, options, solver):
    sim = affix.Simulator(affix.generate(kind, **options), solver=solver)
    sim.step(5)  # warm-up
    python_ms, solver_ms, read_ms = [], [], []
    for _ in range(STEPS):
        start = time.perf_counter()
        stats = sim.step()
        middle = time.perf_counter()
        sim.positions, sim.rotations, sim.velocities
        end = time.perf_counter()
        python_ms.append(1e3 * (middle - start))
        solver_ms.append(stats.wall_ms)
        read_ms.append(1e3 * (end - middle))
    return statistics.median(python_ms), statistics.median(solver_ms), statistics.median(read_ms)


def main():
    print(f"{'scene':<16} {'solver':<6} {'step() ms':>10} {'solver ms':>10} {'overhead ms':>12} {'read ms':>8}")
    for kind, options, solver in CASES:
        py, own, read = measure(kind, options, solver)
        label = kind + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{label:<16} {solver:<6} {py:>10.3f} {own:>10.3f} {py - own:>12.3f} {read:>8.3f}")


if __name__ == "__main__":
    main()
