#!/usr/bin/env python3
"""Writes examples/ring_chain.json and examples/wrecking_ball.json (after Lan 2022 Fig. 3).

A chain of steel rings (major radius 0.1 m, tube 0.015 m) hangs from a fixed top ring, each ring turned
90 degrees from the last and 0.13 m below it, so that neighbours thread each other with 0.055 m between
tubes and rings two apart (same plane) stay 0.03 m apart. The chain starts swung up by 70 degrees. In
the wrecking ball the last link is a thick steel ring, the weight (tube 0.04 m, 25 kg: a ball needs a
joint to hang from a chain, which the joints issue brings), and it swings into a tower of wooden blocks.
Usage: scripts/make_chain_scenes.py  (writes both files)"""
import json
import math

PIVOT = (0.0, 0.0, 2.2)
PITCH = 0.13
SWING_DEG = 70.0


def chain(n_rings, weight):
    s = math.radians(SWING_DEG)
    down = (-math.sin(s), 0.0, -math.cos(s))  # the chain's direction, swung up about y
    bodies = []
    for i in range(n_rings + (1 if weight else 0)):
        is_weight = weight and i == n_rings
        centre = [PIVOT[k] + PITCH * i * down[k] for k in range(3)]
        # The torus lies in its body xy-plane: turn it upright into the swing plane (about x), or
        # across it (about x, then about the chain direction), alternately; then swing it up.
        upright = {"axis": [1, 0, 0], "angle_deg": 90}
        ring = {
            "name": "weight" if is_weight else f"ring{i}",
            "shape": {"torus": {"major": 0.1, "minor": 0.04 if is_weight else 0.015}, "resolution": 16},
            "density": 7800,
            "position": [round(c, 6) for c in centre],
            "rotation": quaternion_for(i % 2 == 1, s),
            "friction": 0.3,
        }
        if i == 0:
            ring["fixed"] = True
        bodies.append(ring)
    return bodies


def quat_mul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return [w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2]


def axis_angle(axis, angle):
    h = angle / 2
    return [math.cos(h)] + [math.sin(h) * a for a in axis]


def quaternion_for(across, swing):
    """Ring normal along y (in the swing plane) or along x (across it), then swung about y."""
    plane = axis_angle((1, 0, 0), math.pi / 2) if not across else axis_angle((0, 1, 0), math.pi / 2)
    return [round(c, 9) for c in quat_mul(axis_angle((0, 1, 0), swing), plane)]


def tower():
    blocks = []
    size = 0.2
    for level in range(6):
        for column in range(2):
            blocks.append({
                "name": f"block{level}_{column}",
                "shape": {"box": [size, size, size]},
                "density": 600,
                "position": [0.35, (column - 0.5) * (size + 0.004), size / 2 + 0.001 + level * (size + 0.002)],
                "friction": 0.5,
            })
    return blocks


def write(path, bodies, duration):
    scene = {"version": 1,
             "settings": {"dt": 0.01, "duration": duration, "output_fps": 50},
             "ground": {"height": 0.0, "friction": 0.5},
             "bodies": bodies}
    with open(path, "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")


write("examples/ring_chain.json", chain(10, weight=False), 2.0)
write("examples/wrecking_ball.json", chain(8, weight=True) + tower(), 2.0)
