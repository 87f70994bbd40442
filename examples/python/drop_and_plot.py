#!/usr/bin/env python3
"""Drop a model onto the ground and plot its height and the solver's iterations per step.

    PYTHONPATH=build/release/python python3 examples/python/drop_and_plot.py [MODEL] [--out drop.png]

MODEL is anything `affix run` reads: a scene file (JSON), or an MJCF/URDF model where the importer is
built (default: the MuJoCo humanoid that Debian's libmujoco-samples installs). The model is lifted so
that its lowest body starts `--height` above the ground, released at rest, and simulated for
`--duration` seconds; the plot shows the height of its mass centre (bodies' origins weighted alike when
no masses are known) and the iterations of every step.
"""
import argparse
import pathlib
import sys

import numpy as np

import affix

HUMANOID = pathlib.Path("/usr/share/mujoco/model/humanoid/humanoid.xml")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", nargs="?", default=str(HUMANOID), help=f"scene or model file (default {HUMANOID})")
    parser.add_argument("--out", default="drop.png", help="PNG to write (default drop.png)")
    parser.add_argument("--solver", default=None, help="solver back-end (default: the scene's)")
    parser.add_argument("--duration", type=float, default=1.0, help="simulated seconds (default 1)")
    parser.add_argument("--height", type=float, default=0.3, help="lift above the ground (m, default 0.3)")
    args = parser.parse_args()

    try:
        scene = affix.load(args.model)
    except affix.InputError as error:
        sys.exit(f"drop_and_plot: {error}")
    # Lift the whole model and make sure there is a ground to land on.
    data = scene.to_dict()
    data.setdefault("ground", {"height": 0.0})
    for body in data["bodies"]:
        body["position"][2] += args.height
    scene = affix.Scene.from_dict(data, file=args.model)

    sim = affix.Simulator(scene, solver=args.solver)
    steps = round(args.duration / sim.dt)
    times, heights, iterations = [0.0], [sim.positions[:, 2].mean()], [0]
    for _ in range(steps):
        stats = sim.step()
        times.append(stats.time)
        heights.append(sim.positions[:, 2].mean())
        iterations.append(stats.iterations)
    print(f"{scene.name}: {len(scene.body_names)} bodies, {steps} steps of {sim.dt} s with {sim.solver}; "
          f"height {heights[0]:.3f} m → {heights[-1]:.3f} m, {np.mean(iterations[1:]):.1f} iterations a step")

    import matplotlib
    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    figure, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 5))
    top.plot(times, heights)
    top.set_ylabel("mean body height (m)")
    top.set_title(f"{scene.name} dropped ({sim.solver})")
    bottom.step(times[1:], iterations[1:], where="post")
    bottom.set_ylabel("iterations per step")
    bottom.set_xlabel("time (s)")
    figure.tight_layout()
    figure.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
