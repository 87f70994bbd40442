#!/usr/bin/env python3
"""Writes examples/drop_1000.json: a 10 x 10 x 10 grid of boxes, spheres and capsules, randomly
turned, falling onto the ground. The bodies do not touch at the start; the ten bodies of each column
land on one another, so the scene ends as 100 small piles.
Usage: scripts/make_drop_grid.py [N_PER_SIDE] > examples/drop_1000.json"""
import json
import math
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
rng = random.Random(7)
bodies = []
for i in range(n):
    for j in range(n):
        for k in range(n):
            kind = (i + j + k) % 3
            if kind == 0:
                shape = {"box": [0.4, 0.3, 0.2]}
            elif kind == 1:
                shape = {"sphere": 0.18, "resolution": 12}
            else:
                shape = {"capsule": {"radius": 0.1, "length": 0.2}, "resolution": 12}
            axis = [rng.uniform(-1, 1) for _ in range(3)]
            if math.sqrt(sum(a * a for a in axis)) < 1e-3:
                axis = [0, 0, 1]
            bodies.append({
                "name": f"b{i}_{j}_{k}",
                "shape": shape,
                "position": [1.0 * i, 1.0 * j, 0.5 + 0.6 * k],
                "rotation": {"axis": axis, "angle_deg": round(rng.uniform(0, 180), 3)},
                "angular_velocity": [round(rng.uniform(-2, 2), 3) for _ in range(3)],
            })
scene = {
    "version": 1,
    "settings": {"dt": 0.01, "duration": 1.0, "output_fps": 25},
    "ground": {"height": 0.0, "friction": 0.5},
    "bodies": bodies,
}
json.dump(scene, sys.stdout, indent=1)
sys.stdout.write("\n")
