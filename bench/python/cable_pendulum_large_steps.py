"""A long light cable under a heavy load swinging as a pendulum on the compliant solver (README, compliant
solver, Known limits, *Added inertia*): for h = 1/60, 0.05, 0.1 the period against the closed form of the
straight cable turning about its anchor, the peak kinetic energy kept over the run, the step halvings
(stats' `warnings`) and the median `wall_ms`. Defaults: the hostile pass's 100 links of 0.02 kg and 5 cm
under 50 kg, bending and torsion 1, released 10° off the vertical, 20 s, "auto".

    PYTHONPATH=build/test/python /usr/bin/python3 bench/python/cable_pendulum_large_steps.py [--links 30 ...]
"""
import argparse
import math

import affix


def cable(dt, links, link, mass, load, bending, stabilization, tilt_deg=10.0, width=0.02, load_size=0.2):
    t = math.radians(tilt_deg)
    down = [math.sin(t), 0.0, -math.cos(t)]
    at = lambda s: [s * c for c in down]
    rotation = {"axis": [0, 1, 0], "angle_deg": -tilt_deg}
    bodies = [{"name": f"l{k}", "shape": {"box": [width, width, link]}, "mass": mass,
               "position": at((k + 0.5) * link), "rotation": rotation} for k in range(links)]
    bodies.append({"name": "load", "shape": {"box": [load_size] * 3}, "mass": load,
                   "position": at(links * link + 0.5 * load_size), "rotation": rotation})
    joints = [{"name": f"j{k}", "type": "cable", "body1": f"l{k}" if k < links else "load",
               "body2": "world" if k == 0 else f"l{k - 1}", "anchor": at(k * link), "axis": down,
               "bending": {"stiffness": bending}, "torsion": {"stiffness": bending}} for k in range(links + 1)]
    return {"version": 1, "settings": {"dt": dt, "duration": 20, "solver": "compliant",
                                       "compliant": {"stabilization": stabilization}},
            "bodies": bodies, "joints": joints}


def closed_form_period(links, link, mass, load, bending, tilt_deg=10.0, width=0.02, load_size=0.2):
    inertia = sum(mass * (((k + 0.5) * link) ** 2 + (link ** 2 + width ** 2) / 12) for k in range(links))
    moment = sum(mass * (k + 0.5) * link for k in range(links))
    r = links * link + 0.5 * load_size
    inertia += load * (r * r + load_size ** 2 / 6)
    moment += load * r
    t = math.radians(tilt_deg)
    return 2 * math.pi * math.sqrt(inertia / (9.81 * moment + bending)) * (1 + t * t / 16)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--links", type=int, default=100)
    p.add_argument("--link", type=float, default=0.05)
    p.add_argument("--mass", type=float, default=0.02)
    p.add_argument("--load", type=float, default=50.0)
    p.add_argument("--bending", type=float, default=1.0)
    p.add_argument("--duration", type=float, default=20.0)
    p.add_argument("--stabilization", default="auto")
    a = p.parse_args()
    print(f"closed form {closed_form_period(a.links, a.link, a.mass, a.load, a.bending):.4f} s")
    for dt in [1 / 60, 0.05, 0.1]:
        sim = affix.Simulator(affix.Scene.from_dict(
            cable(dt, a.links, a.link, a.mass, a.load, a.bending, a.stabilization)))
        halvings, crossings, peaks, peak, last_vx, ms = 0, [], [], 0.0, 0.0, []
        for n in range(round(a.duration / dt)):
            s = sim.step()
            halvings += s.warnings
            ms.append(s.wall_ms)
            vx = sim.velocities[a.links][0]
            if n > 0 and (vx > 0) != (last_vx > 0):
                crossings.append(sim.time - dt * vx / (vx - last_vx))
                peaks.append(peak)
                peak = 0.0
            peak, last_vx = max(peak, s.kinetic_energy), vx
        period = 2 * (crossings[-1] - crossings[0]) / (len(crossings) - 1)
        first, last = max(peaks[:2]), max(peaks[-2:])
        print(f"h = {dt:.4f} s: period {period:.4f} s, peak kinetic energy {first:.3f} -> {last:.3f} J "
              f"(kept {100 * last / first:.1f} %), {halvings} halvings, median {sorted(ms)[len(ms) // 2]:.2f} ms/step")


if __name__ == "__main__":
    main()
