"""A thousand step() calls, reading every array and record after each, leak no memory (resident set)."""
import os

import affix

PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def step_and_read(sim, steps, keep=None):
    for _ in range(steps):
        stats = sim.step()
        arrays = (sim.positions, sim.rotations, sim.velocities, sim.joints, sim.contacts, stats)
        if keep is not None:
            keep.append(arrays)


def growth(steps, keep=None):
    # 40 links: each read copies 40 × (3 + 9 + 6) doubles, so a leaked read would cost ~6 kB a step. The
    # mabd solver keeps the loop quick (one Newton iteration a step); the bindings are the same for all.
    sim = affix.Simulator(affix.generate("chain", links=40), solver="mabd")
    step_and_read(sim, 100)  # warm up: allocator pools, numpy's caches, the solver's workspaces
    before = resident_bytes()
    step_and_read(sim, steps, keep)
    return resident_bytes() - before


def test_a_thousand_steps_leak_nothing():
    grew = growth(1000)
    print(f"resident set grew by {grew / 1024:.0f} kB over 1000 steps")
    assert grew < 1 << 20


def test_the_measurement_sees_a_leak():
    # The same loop holding on to what it reads (a leak of 6 kB a step) is caught by the same bound.
    kept = []
    assert growth(1000, kept) > 1 << 20
