#!/usr/bin/env python3
"""Writes the joint scenes examples/joints/*.json (after Chen et al. 2022, §6.1–6.3 and Fig. 11–13).

Usage:  python3 scripts/make_joint_scenes.py [OUT_DIR]
        (default OUT_DIR: examples/joints beside this script's folder; regenerates every file there.
        tests/cli/test_joint_fixtures.cpp writes into a temporary OUT_DIR and requires the committed
        files to match byte for byte.)

The output is deterministic (no randomness, fixed rounding), pretty-printed JSON with a 2-space indent
(a list of numbers, such as a vector, on one line).
Before writing, every scene is checked here: each pair of bodies that may touch (not joined by a joint,
collision filters allowing it) must be at least MIN_GAP apart, and every dynamic body at least MIN_GAP
above the ground. The distance used is a conservative lower bound (exact for capsule–capsule and
sphere pairs; for other pairs the largest gap between the two shapes' projections over many axes).

Conventions (DESIGN §3): Z is up; joint anchors, axes and frames are world coordinates at t = 0; angles
and displacements are 0 at t = 0, for body1 relative to body2, right-handed about the axis; capsules and
cylinders lie along their body z axis; bodies joined by a joint do not collide with each other.

The scenes:

triple_rod_pendulum.json (Fig. 12a)
    Three rods (boxes 0.04 x 0.04 x 0.6 m, 0.96 kg each) joined end to end by two ball joints; the free
    end of the first is held by a ball joint to the world. They start in a zig-zag in the xz-plane
    (30 deg down, 30 deg up, 30 deg down) and swing chaotically. No ground; dt 0.01, 5 s.

hinge_boards.json (Fig. 12b)
    A fixed shaft (cylinder r 0.03 m along x) carries three hanging boards (0.3 x 0.02 x 0.5 m, 1.5 kg)
    on hinges (body2 = the shaft, axis x): unlimited, [-90, 90] deg (180 deg range), [-45, 45] deg
    (90 deg range). Three balls (r 0.05 m, density 2000: 1.02 kg as meshed) thrown along +y at 6, 4 and 3 m/s hit each board
    0.38 m below the axis after 0.09, 0.135 and 0.18 s (their upward velocity g*t/2 brings them back to
    the aim height at impact). No ground; dt 0.01, 3 s.

monocular.json (Fig. 12c)
    Three telescoping sections (boxes 0.12, 0.09, 0.06 m square, 0.5 m long; 7.2, 4.05, 1.8 kg) on a
    common axis tilted 30 deg below the horizontal. Section 1 hangs from the world by a hinge (axis y)
    at its upper end; sections 2 and 3 slide in the one outside them by prismatic joints along the
    axis. Each inner section starts half extended (0.225 m out of 0.45 m of travel), so its limits are
    [-0.225, 0.225] m: fully retracted at -0.225, 0.05 m of overlap left at +0.225. The sections
    overlap geometrically, so all three are in collision group 2 with mask 1 (no section touches
    another). No ground; dt 0.01, 3 s.

nunchaku.json (Fig. 13)
    Two cuboids 0.04 x 0.04 x 0.35 m (0.56 kg) along x, 0.01 m apart end to end, joined by a cone twist
    with frame [x, y, z] = world axes: twist (about the long axis) [-20, 20], swing1 (about y, bending
    up/down) [-30, 30], swing2 (about z, bending sideways) [-60, 60] deg. Section 1 is kinematic:
    0-1 s it moves 0.5 m sideways (+y), 1-2 s 0.5 m up, 2-3 s it twists 180 deg about its long axis
    (keys every 0.1 s with a smoothstep profile, so it starts and stops gently); section 2 hangs from it
    (it sags onto its swing1 stop first). No ground; dt 0.01, 3.5 s.

physical_pendulum.json
    One uniform rod (box 1.0 x 0.05 x 0.05 m along x, density 1000: m = 2.5 kg) hinged to the world at
    one end (axis y), released from horizontal (theta0 = 90 deg). Gravity -9.81, bdf2, dt 0.001, 3 s.
    Analytic period, with I the moment of inertia about the pivot and d the pivot-centre distance:
        T = 4 sqrt(I / (m g d)) K(sin(theta0 / 2)),  K(sin 45 deg) = 1.854075 (complete elliptic
        integral of the first kind).
    Here I = m (L^2 + a^2) / 12 + m d^2 with L = 1.0, a = 0.05 (the rod's extent in the swing plane),
    d = 0.5, so I/m = 0.33354167 m^2 and T = 4 sqrt(0.33354167 / (9.81 * 0.5)) * 1.854075 = 1.93394 s
    (the small-angle period 2 pi sqrt(I/(m g d)) is 1.63846 s). The rod is back at horizontal after T.

chain_100.json
    100 links (boxes 0.1 x 0.02 x 0.02 m, density 1000: 0.04 kg each) along x joined by ball joints at
    their shared ends, link 0 held at its free end by a ball joint to the world; at the far end hangs a
    sphere (r 0.1 m) of mass 40 kg = 1000 x a link, on a ball joint. The chain starts horizontal and is
    released. All chain bodies are in collision group 2 with mask 1 (no self-contact). No ground;
    dt 0.01, 2 s.

rotating_board.json (Chen §6.2 "Rotating Board")
    A board (box 0.6 x 0.05 x 0.3 m, 9 kg) hinged to the world about the vertical line x = y = 0
    through the middle of its end face (axis z), limits [-30, 30] deg, no gravity, angular velocity
    1.25 rad/s about z and the matching velocity of its centre, w x (centre - anchor) = (0, 0.375, 0)
    m/s. It reaches +30 deg at about 0.42 s and bounces back (-30 deg at about 1.26 s if elastic).
    bdf2, dt 0.001, 2 s.

falling_box.json (Chen §6.2.1 restitution study, Fig. 14-16)
    A 1 m cube (density 1000, stiffness 1e9) whose bottom face starts 1 m above the ground, gravity
    (0, 0, -8), no friction anywhere; bdf2, dt 0.001, 2 s; ipc dhat 0.064 m, kappa 24414062.5.
    Chen's kappa = 1e5 multiplies his dimensionless barrier b(c) = -(c/c^ - 1)^2 ln(c/c^) (Eq. 14),
    while affix's contact barrier is IPC's b(d) = -(d - d^)^2 ln(d/d^), which carries a factor d^^2
    (m^2): -(d - d^)^2 ln(d/d^) = d^^2 * [-(d/d^ - 1)^2 ln(d/d^)]. The same potential therefore needs
    kappa = 1e5 / d^^2 = 1e5 / 0.064^2 = 24414062.5. (The body stiffness 1e9 is affix's kappa of
    kappa*V*||AA^T - I||^2; Chen's Y/8 form would give Y = 8e9, in the range where Chen found the
    bounce no longer depends on Y.) Free fall: the bottom face reaches the ground at t = 0.5 s.

ragdoll.json and ragdolls_10.json (Fig. 11)
    A ragdoll of 11 capsules (density 1000; 71.4 kg in all as meshed, 72.7 kg for exact capsules): pelvis
    9.0, torso 25.8, head 5.3, upper arms 2.3, lower arms 1.8, thighs 7.9, shins 3.7 kg; 1.76 m tall. It stands straight, facing +x with its
    left on +y, arms hanging 8 deg out from the body. Clearances at the start: lower arm-pelvis 0.04 m,
    lower arm-thigh 0.06 m, thigh-torso 0.03 m, thigh-thigh 0.06 m (upper arm-torso 0.019 m, though
    the shoulder joint keeps that pair from colliding anyway). 10 cone twist joints (body1 = the child, farther from the
    pelvis; body2 = the parent): spine (torso-pelvis), neck, shoulders, elbows, hips, knees.
    Frame x = the child bone's long axis pointing away from the joint (the twist axis), z = the main
    bending axis, y = z x x. The solver composes the relative rotation as
    R_z(swing2) R_y(swing1) R_x(twist), so swing1 is kept within +-70 deg (away from gimbal lock) and
    every large range is on swing2. Ranges in degrees (twist, swing1, swing2), each containing 0:
        spine     z = left (+y): swing2 [-25, 60] (+ bends forward), swing1 [-25, 25] (side bend),
                  twist [-30, 30]
        neck      z = left: swing2 [-40, 50] (+ nods forward), swing1 [-30, 30], twist [-60, 60]
        shoulder  z = right (-y, tilted with the arm): swing2 [-60, 150] (+ raises the arm forward),
                  swing1 (about +x, forward) left [-20, 70] / right [-70, 20] (+70 / -70 = abduction),
                  twist [-60, 60]
        elbow     z = left: swing2 [-135, 0] (negative bends the forearm forward), swing1 [-5, 5],
                  twist [-10, 10] (as in Fig. 11)
        hip       z = right: swing2 [-30, 120] (+ raises the thigh forward), swing1 (about +x)
                  left [-20, 45] / right [-45, 20] (abduction outward), twist [-35, 35]
        knee      z = left: swing2 [0, 140] (+ takes the shin backward), swing1 [-3, 3], twist [-5, 5]
    ragdoll.json: one ragdoll tilted 30 deg about a horizontal axis, lowest point 0.5 m above the
    ground (friction 0.5); dt 0.01, 3 s.
    ragdolls_10.json: ten ragdolls (names suffixed _0 ... _9) over a 2 x 5 grid 0.9 m apart, each with
    its own tilt (15-90 deg), tilt direction and heading, lowest point 0.5 + 0.2 i m for ragdoll i,
    raised in 0.1 m steps where needed to keep every two ragdolls 0.05 m apart at the start (the lowest
    points end up between 0.5 and 3.3 m); they fall onto the ground and onto each other.
    Same settings.
"""
import json
import math
import os
import sys

OUT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples", "joints")
MIN_GAP = 0.005  # m: least clearance between bodies that may touch, and from the ground
DIGITS = 10      # decimals kept in the files


# ---------------------------------------------------------------------------------------------------
# Small vector and quaternion helpers (quaternions [w, x, y, z]).

def add(a, b):
    return [a[i] + b[i] for i in range(3)]


def sub(a, b):
    return [a[i] - b[i] for i in range(3)]


def scale(a, s):
    return [a[i] * s for i in range(3)]


def dot(a, b):
    return sum(a[i] * b[i] for i in range(3))


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def norm(a):
    return math.sqrt(dot(a, a))


def unit(a):
    return scale(a, 1.0 / norm(a))


def q_axis_angle(axis, angle_deg):
    axis = unit(axis)
    h = math.radians(angle_deg) / 2
    return [math.cos(h)] + [math.sin(h) * c for c in axis]


def q_mul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return [w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2]


def q_rotate(q, v):
    w, x, y, z = q
    u = [x, y, z]
    t = scale(cross(u, v), 2.0)
    return add(add(v, scale(t, w)), cross(u, t))


def q_from_to(a, b):
    """The shortest rotation taking direction a to direction b."""
    a, b = unit(a), unit(b)
    c = dot(a, b)
    if c < -1.0 + 1e-12:  # opposite: half a turn about any perpendicular axis
        other = [1.0, 0.0, 0.0] if abs(a[0]) < 0.9 else [0.0, 1.0, 0.0]
        return q_axis_angle(cross(a, other), 180.0)
    axis = cross(a, b)
    if norm(axis) < 1e-15:
        return [1.0, 0.0, 0.0, 0.0]
    return q_axis_angle(axis, math.degrees(math.atan2(norm(axis), c)))


def q_matrix_columns(q):
    return [q_rotate(q, e) for e in ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0])]


Z = [0.0, 0.0, 1.0]


def frame(x_axis, z_hint):
    """Right-handed orthonormal [x, y, z]: x as given, z the part of z_hint perpendicular to x."""
    x = unit(x_axis)
    z = unit(sub(z_hint, scale(x, dot(z_hint, x))))
    return [x, cross(z, x), z]


# ---------------------------------------------------------------------------------------------------
# Bodies and joints as plain dicts, with the geometry kept aside for the clearance check.

def body(name, shape, position, rotation=None, **fields):
    b = {"name": name, "shape": shape}
    for key in ("density", "mass"):
        if key in fields:
            b[key] = fields.pop(key)
    b["position"] = list(position)
    if rotation is not None and rotation != [1.0, 0.0, 0.0, 0.0]:
        b["rotation"] = list(rotation)
    b.update(fields)
    return b


def capsule_between(name, a, b, radius, resolution=None, **fields):
    """A capsule whose axis segment (the centres of its caps) runs from a to b."""
    d = sub(b, a)
    shape = {"capsule": {"radius": radius, "length": norm(d)}}
    if resolution is not None:
        shape["resolution"] = resolution
    return body(name, shape, scale(add(a, b), 0.5), q_from_to(Z, d), **fields)


def box_along(name, size_xy, length, start, direction, **fields):
    """A box of cross-section size_xy and the given length along its body z, from start along direction."""
    d = unit(direction)
    return body(name, {"box": [size_xy[0], size_xy[1], length]}, add(start, scale(d, length / 2)),
                q_from_to(Z, d), **fields)


def joint(name, kind, body1, body2, **fields):
    j = {"name": name, "type": kind, "body1": body1, "body2": body2}
    j.update(fields)
    return j


def cone_limits(twist, swing1, swing2):
    return {"twist": list(twist), "swing1": list(swing1), "swing2": list(swing2)}


def scene(settings, bodies, joints, ground=None):
    s = {"version": 1, "settings": settings}
    if ground is not None:
        s["ground"] = ground
    s["bodies"] = bodies
    s["joints"] = joints
    return s


# ---------------------------------------------------------------------------------------------------
# 1. Triple-rod pendulum (Fig. 12a).

def triple_rod_pendulum():
    rod = 0.6
    point = [0.0, 0.0, 2.5]
    bodies, joints = [], []
    for i, slope_deg in enumerate((-30.0, 30.0, -30.0)):  # zig-zag in the xz-plane
        s = math.radians(slope_deg)
        d = [math.cos(s), 0.0, math.sin(s)]
        bodies.append(box_along(f"rod{i}", (0.04, 0.04), rod, point, d, density=1000))
        joints.append(joint(f"ball{i}", "ball", f"rod{i}", "world" if i == 0 else f"rod{i - 1}",
                            anchor=list(point)))
        point = add(point, scale(d, rod))
    return scene({"dt": 0.01, "duration": 5.0}, bodies, joints)


# ---------------------------------------------------------------------------------------------------
# 2. Hinge boards with rotation ranges (Fig. 12b).

def hinge_boards():
    g = 9.81
    axis_z = 1.5
    bodies = [body("shaft", {"cylinder": {"radius": 0.03, "length": 1.6}}, [0.0, 0.0, axis_z],
                   q_axis_angle([0, 1, 0], 90), fixed=True)]
    joints = []
    board = [0.3, 0.02, 0.5]
    hang = 0.22  # board centre below the axis; its top edge is 0.03 above the axis
    ranges = (None, [-90, 90], [-45, 45])
    # The hits are nearly inelastic at dt = 0.01 (d̂/h = 0.1 m/s, Chen Eq. 23), so the balls hand over
    # about half their energy: 8 m/s swings the free board over the top, 6.5 m/s the 180° one to its
    # stop, and 3 m/s the 90° one to its stop.
    speeds = (8.0, 6.5, 3.0)
    ball_r, ball_y0, hit_depth = 0.05, -0.6, 0.38
    for i, (x, limits, speed) in enumerate(zip((-0.5, 0.0, 0.5), ranges, speeds)):
        bodies.append(body(f"board{i}", {"box": board}, [x, 0.0, axis_z - hang], density=500))
        fields = {"anchor": [x, 0.0, axis_z], "axis": [1.0, 0.0, 0.0]}
        if limits is not None:
            fields["limits_deg"] = limits
        joints.append(joint(f"hinge{i}", "hinge", f"board{i}", "shaft", **fields))
    for i, (x, speed) in enumerate(zip((-0.5, 0.0, 0.5), speeds)):
        # Thrown along +y so that it is back at the aim height (0.38 m below the axis) on impact.
        travel = (-board[1] / 2 - ball_r) - ball_y0
        t_hit = travel / speed
        bodies.append(body(f"ball{i}", {"sphere": ball_r}, [x, ball_y0, axis_z - hit_depth], density=2000,
                           velocity=[0.0, speed, g * t_hit / 2]))
    return scene({"dt": 0.01, "duration": 3.0}, bodies, joints)


# ---------------------------------------------------------------------------------------------------
# 3. Three-section monocular with bounded sliding (Fig. 12c).

def monocular():
    tilt = math.radians(30.0)
    u = [math.cos(tilt), 0.0, -math.sin(tilt)]  # the common axis, pointing away from the hinge
    hinge = [0.0, 0.0, 1.6]
    length, overlap_min = 0.5, 0.05
    travel = length - overlap_min  # 0.45: from fully retracted to 0.05 m of overlap
    start = travel / 2             # each inner section starts half extended
    no_touch = {"group": 2, "mask": 1}
    bodies, joints = [], []
    offset = 0.0
    for i, side in enumerate((0.12, 0.09, 0.06)):
        if i > 0:
            offset += start
        bodies.append(box_along(f"section{i + 1}", (side, side), length, add(hinge, scale(u, offset)), u,
                                density=1000, collision=dict(no_touch)))
        if i == 0:
            joints.append(joint("hinge", "hinge", "section1", "world", anchor=list(hinge),
                                axis=[0.0, 1.0, 0.0]))
        else:
            joints.append(joint(f"slide{i + 1}", "prismatic", f"section{i + 1}", f"section{i}",
                                anchor=bodies[-1]["position"], axis=list(u), limits=[-start, travel - start]))
    return scene({"dt": 0.01, "duration": 3.0}, bodies, joints)


# ---------------------------------------------------------------------------------------------------
# 4. Nunchaku with cone twist ranges (Fig. 13).

def smoothstep(s):
    return s * s * (3 - 2 * s)


def nunchaku():
    size = [0.35, 0.04, 0.04]
    gap = 0.01
    height = 1.5
    c1 = [-(size[0] + gap) / 2, 0.0, height]
    c2 = [(size[0] + gap) / 2, 0.0, height]
    shift = 0.5
    keys = []
    for k in range(31):  # every 0.1 s from 0 to 3 s
        t = k / 10
        side = shift * smoothstep(min(t, 1.0))
        up = shift * smoothstep(min(max(t - 1.0, 0.0), 1.0))
        turn = 180.0 * smoothstep(min(max(t - 2.0, 0.0), 1.0))
        keys.append({"time": t, "position": [c1[0], side, height + up],
                     "rotation": {"axis": [1.0, 0.0, 0.0], "angle_deg": turn}})
    bodies = [body("section1", {"box": size}, c1, density=1000, kinematic={"keyframes": keys}),
              body("section2", {"box": size}, c2, density=1000)]
    joints = [joint("cone", "cone_twist", "section2", "section1", anchor=[0.0, 0.0, height],
                    frame=[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                    limits_deg=cone_limits([-20, 20], [-30, 30], [-60, 60]))]
    return scene({"dt": 0.01, "duration": 3.5}, bodies, joints)


# ---------------------------------------------------------------------------------------------------
# 5. Physical pendulum (analytic period in the module docstring).

def physical_pendulum():
    L = 1.0
    pivot = [0.0, 0.0, 2.0]
    bodies = [body("rod", {"box": [L, 0.05, 0.05]}, [L / 2, 0.0, pivot[2]], density=1000)]
    joints = [joint("pivot", "hinge", "rod", "world", anchor=pivot, axis=[0.0, 1.0, 0.0])]
    return scene({"dt": 0.001, "duration": 3.0, "gravity": [0.0, 0.0, -9.81], "integrator": "bdf2"},
                 bodies, joints)


def pendulum_period():
    m_per = 1.0
    L, a, d, g = 1.0, 0.05, 0.5, 9.81
    I = m_per * (L * L + a * a) / 12 + m_per * d * d
    return 4 * math.sqrt(I / (m_per * g * d)) * 1.854075, 2 * math.pi * math.sqrt(I / (m_per * g * d))


# ---------------------------------------------------------------------------------------------------
# 6. A 100-link chain with a heavy end mass.

def chain_100():
    n, link, side, height = 100, 0.1, 0.02, 11.0
    link_mass = 1000 * link * side * side
    no_touch = {"group": 2, "mask": 1}
    bodies, joints = [], []
    for i in range(n):
        bodies.append(body(f"link{i}", {"box": [link, side, side]}, [link * (i + 0.5), 0.0, height],
                           density=1000, collision=dict(no_touch)))
        joints.append(joint(f"ball{i}", "ball", f"link{i}", "world" if i == 0 else f"link{i - 1}",
                            anchor=[link * i, 0.0, height]))
    r = 0.1
    bodies.append(body("weight", {"sphere": r}, [link * n + r, 0.0, height], mass=1000 * link_mass,
                       collision=dict(no_touch)))
    joints.append(joint(f"ball{n}", "ball", "weight", f"link{n - 1}", anchor=[link * n, 0.0, height]))
    return scene({"dt": 0.01, "duration": 2.0}, bodies, joints)


# ---------------------------------------------------------------------------------------------------
# 7. Rotating board (Chen §6.2).

def rotating_board():
    size = [0.6, 0.05, 0.3]
    anchor = [0.0, 0.0, 1.0]
    centre = [size[0] / 2, 0.0, 1.0]
    w = [0.0, 0.0, 1.25]
    bodies = [body("board", {"box": size}, centre, density=1000, velocity=cross(w, sub(centre, anchor)),
                   angular_velocity=w)]
    joints = [joint("hinge", "hinge", "board", "world", anchor=anchor, axis=[0.0, 0.0, 1.0],
                    limits_deg=[-30, 30])]
    # A wider, softer limit barrier than the defaults (ĉ = d̂ = 1 cm, κ = 1e5 N/m) makes the bounce
    # elastic, as in Chen's Fig. 19: ĉ/h = 10 m/s is far above the probe's speed (Chen Eq. 23).
    return scene({"dt": 0.001, "duration": 2.0, "gravity": [0.0, 0.0, 0.0], "integrator": "bdf2",
                  "ipc": {"dhat": 0.01, "kappa": 1e5}},
                 bodies, joints)


# ---------------------------------------------------------------------------------------------------
# 8. Falling box (Chen §6.2.1).

def falling_box():
    dhat = 0.064
    kappa = 1e5 / (dhat * dhat)  # Chen's dimensionless barrier -> IPC's barrier in m^2
    bodies = [body("box", {"box": [1.0, 1.0, 1.0]}, [0.0, 0.0, 1.5], density=1000, friction=0.0,
                   stiffness=1e9)]
    return scene({"dt": 0.001, "duration": 2.0, "gravity": [0.0, 0.0, -8.0], "integrator": "bdf2",
                  "ipc": {"dhat": dhat, "kappa": kappa}},
                 bodies, [], ground={"height": 0.0, "friction": 0.0})


# ---------------------------------------------------------------------------------------------------
# 9. Ragdolls (Fig. 11).

# 12 segments around each capsule: a coarse surface, as Chen's ragdolls (about 10 nodes per body), so
# that a ragdoll lying on the ground has few vertices hovering near d̂.
RAGDOLL_RESOLUTION = 12
ARM_SPREAD_DEG = 8.0  # arms hang this far out from vertical (a slight A-pose)


def ragdoll_parts():
    """The standing ragdoll in its own frame (feet near z = 0, facing +x, left = +y).

    Returns (capsules, joints): capsules as (name, a, b, radius) with a the distal end; joints as
    (name, child, parent, anchor, x_axis, z_hint, (twist, swing1, swing2))."""
    caps, joints = [], []
    caps.append(("pelvis", [0.0, -0.08, 0.97], [0.0, 0.08, 0.97], 0.10))
    caps.append(("torso", [0.0, 0.0, 1.14], [0.0, 0.0, 1.38], 0.14))
    caps.append(("head", [0.0, 0.0, 1.65], [0.0, 0.0, 1.69], 0.10))
    up, left, right, fwd = [0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [0.0, -1.0, 0.0], [1.0, 0.0, 0.0]
    joints.append(("spine", "torso", "pelvis", [0.0, 0.0, 1.05], up, left,
                   ([-30, 30], [-25, 25], [-25, 60])))
    joints.append(("neck", "head", "torso", [0.0, 0.0, 1.54], up, left,
                   ([-60, 60], [-30, 30], [-40, 50])))
    s = math.radians(ARM_SPREAD_DEG)
    for side, sy in (("l", 1.0), ("r", -1.0)):
        down_arm = [0.0, sy * math.sin(s), -math.cos(s)]
        shoulder = [0.0, sy * 0.20, 1.42]
        elbow = add(shoulder, scale(down_arm, 0.30))
        wrist = add(elbow, scale(down_arm, 0.30))
        hip = [0.0, sy * 0.10, 0.92]
        knee = [0.0, sy * 0.10, 0.49]
        ankle = [0.0, sy * 0.10, 0.08]
        caps.append((f"upper_arm_{side}", elbow, shoulder, 0.045))
        caps.append((f"lower_arm_{side}", wrist, elbow, 0.04))
        caps.append((f"thigh_{side}", knee, hip, 0.07))
        caps.append((f"shin_{side}", ankle, knee, 0.05))
        # swing1 is about frame y = z x x = +x (forward) for shoulder and hip: + moves a left limb
        # outward and a right limb inward, hence the mirrored ranges.
        abduct = (lambda lo, hi: [lo, hi]) if sy > 0 else (lambda lo, hi: [-hi, -lo])
        joints.append((f"shoulder_{side}", f"upper_arm_{side}", "torso", shoulder, down_arm, right,
                       ([-60, 60], abduct(-20, 70), [-60, 150])))
        joints.append((f"elbow_{side}", f"lower_arm_{side}", f"upper_arm_{side}", elbow, down_arm, left,
                       ([-10, 10], [-5, 5], [-135, 0])))
        joints.append((f"hip_{side}", f"thigh_{side}", "pelvis", hip, [0.0, 0.0, -1.0], right,
                       ([-35, 35], abduct(-20, 45), [-30, 120])))
        joints.append((f"knee_{side}", f"shin_{side}", f"thigh_{side}", knee, [0.0, 0.0, -1.0], left,
                       ([-5, 5], [-3, 3], [0, 140])))
    return caps, joints


def ragdoll(q, lowest, xy=(0.0, 0.0), suffix=""):
    """One ragdoll turned by quaternion q, its lowest point at height `lowest` above (x, y) = xy."""
    caps, joint_defs = ragdoll_parts()
    placed = [(name, q_rotate(q, a), q_rotate(q, b), r) for name, a, b, r in caps]
    bottom = min(min(a[2], b[2]) - r for _, a, b, r in placed)
    shift = [xy[0], xy[1], lowest - bottom]
    bodies = [capsule_between(name + suffix, add(a, shift), add(b, shift), r, resolution=RAGDOLL_RESOLUTION,
                              density=1000)
              for name, a, b, r in placed]
    joints = []
    for name, child, parent, anchor, x_axis, z_hint, (twist, swing1, swing2) in joint_defs:
        f = [q_rotate(q, v) for v in frame(x_axis, z_hint)]
        joints.append(joint(name + suffix, "cone_twist", child + suffix, parent + suffix,
                            anchor=add(q_rotate(q, anchor), shift), frame=f,
                            limits_deg=cone_limits(twist, swing1, swing2)))
    return bodies, joints


RAGDOLL_SETTINGS = {"dt": 0.01, "duration": 3.0}
RAGDOLL_GROUND = {"height": 0.0, "friction": 0.5}


def ragdoll_scene():
    q = q_axis_angle([1.0, 1.0, 0.0], 30.0)
    bodies, joints = ragdoll(q, 0.5)
    return scene(dict(RAGDOLL_SETTINGS), bodies, joints, ground=dict(RAGDOLL_GROUND))


# (tilt deg, azimuth of the tilt axis deg, heading deg) per ragdoll: a fixed, varied table.
TEN_POSES = [(30, 0, 0), (90, 90, 45), (60, 200, 120), (15, 45, 200), (75, 300, 270),
             (45, 150, 30), (90, 10, 160), (20, 250, 300), (50, 100, 80), (80, 330, 220)]


def ragdolls_10():
    bodies, joints = [], []
    spacing = 0.9
    for i, (tilt, azimuth, heading) in enumerate(TEN_POSES):
        a = math.radians(azimuth)
        q = q_mul(q_axis_angle([math.cos(a), math.sin(a), 0.0], tilt), q_axis_angle(Z, heading))
        xy = ((i % 5 - 2) * spacing, (i // 5 - 0.5) * spacing)
        lowest = 0.5 + 0.2 * i
        while True:
            b, j = ragdoll(q, lowest, xy, suffix=f"_{i}")
            if all(min_distance(x, y) >= 0.05 for x in b for y in bodies):
                break
            lowest = round(lowest + 0.1, 6)
        bodies += b
        joints += j
    return scene(dict(RAGDOLL_SETTINGS), bodies, joints, ground=dict(RAGDOLL_GROUND))


# ---------------------------------------------------------------------------------------------------
# Clearance check: a conservative lower bound of the distance between two bodies' shapes.

def geometry(b):
    """(kind, centre, body axes (columns), parameters) of a body's shape at t = 0."""
    q = b.get("rotation", [1.0, 0.0, 0.0, 0.0])
    if isinstance(q, dict):
        q = q_axis_angle(q["axis"], q["angle_deg"])
    n = math.sqrt(sum(c * c for c in q))
    axes = q_matrix_columns([c / n for c in q])
    (kind, p), = [(k, v) for k, v in b["shape"].items() if k != "resolution"]
    return kind, b.get("position", [0.0, 0.0, 0.0]), axes, p


def support_radius(g, n):
    """Half-width of the shape's projection on unit direction n (all shapes here are centred)."""
    kind, _, axes, p = g
    if kind == "box":
        return sum(p[k] / 2 * abs(dot(axes[k], n)) for k in range(3))
    if kind == "sphere":
        return p
    c = dot(axes[2], n)
    if kind == "capsule":
        return p["length"] / 2 * abs(c) + p["radius"]
    if kind == "cylinder":
        return p["length"] / 2 * abs(c) + p["radius"] * math.sqrt(max(0.0, 1 - c * c))
    raise ValueError(kind)


def segment(g):
    """A sphere or capsule as (a, b, radius): its core segment."""
    kind, c, axes, p = g
    if kind == "sphere":
        return c, c, p
    h = p["length"] / 2
    return sub(c, scale(axes[2], h)), add(c, scale(axes[2], h)), p["radius"]


def closest_points(p1, q1, p2, q2):
    """Closest points of segments p1q1 and p2q2 (Ericson, Real-Time Collision Detection §5.1.9)."""
    d1, d2, r = sub(q1, p1), sub(q2, p2), sub(p1, p2)
    a, e, f = dot(d1, d1), dot(d2, d2), dot(d2, r)
    clamp = lambda v: min(1.0, max(0.0, v))
    if a <= 1e-18 and e <= 1e-18:
        return p1, p2
    if a <= 1e-18:
        s, t = 0.0, clamp(f / e)
    else:
        c = dot(d1, r)
        if e <= 1e-18:
            s, t = clamp(-c / a), 0.0
        else:
            b = dot(d1, d2)
            denom = a * e - b * b
            s = clamp((b * f - c * e) / denom) if denom > 1e-18 else 0.0
            t = (b * s + f) / e
            if t < 0.0:
                s, t = clamp(-c / a), 0.0
            elif t > 1.0:
                s, t = clamp((b - c) / a), 1.0
    return add(p1, scale(d1, s)), add(p2, scale(d2, t))


def fibonacci_directions(n):
    out = []
    for k in range(n):
        zc = 1 - (2 * k + 1) / n
        r = math.sqrt(1 - zc * zc)
        phi = k * math.pi * (3 - math.sqrt(5))
        out.append([r * math.cos(phi), r * math.sin(phi), zc])
    return out


DIRECTIONS = fibonacci_directions(400)


def min_distance(b1, b2):
    g1, g2 = geometry(b1), geometry(b2)
    round_kinds = ("sphere", "capsule")
    if g1[0] in round_kinds and g2[0] in round_kinds:  # exact
        a1, e1, r1 = segment(g1)
        a2, e2, r2 = segment(g2)
        x, y = closest_points(a1, e1, a2, e2)
        return norm(sub(x, y)) - r1 - r2
    # Separating axes: any direction's projection gap is a lower bound of the distance.
    candidates = list(DIRECTIONS)
    delta = sub(g2[1], g1[1])
    if norm(delta) > 1e-12:
        candidates.append(unit(delta))
    body_axes = g1[2] + g2[2]
    candidates += body_axes
    for u in g1[2]:
        for v in g2[2]:
            w = cross(u, v)
            if norm(w) > 1e-9:
                candidates.append(unit(w))
    best = -math.inf
    for n in candidates:
        best = max(best, abs(dot(delta, n)) - support_radius(g1, n) - support_radius(g2, n))
    return best


def check(name, s):
    bodies = s["bodies"]
    index = {b["name"]: i for i, b in enumerate(bodies)}
    jointed = set()
    for j in s["joints"]:
        if j["body2"] != "world" and not j.get("collide_connected", False):
            jointed.add(frozenset((index[j["body1"]], index[j["body2"]])))

    def still(b):
        return b.get("fixed", False) or "kinematic" in b

    def may_touch(i, k):
        a, b = bodies[i], bodies[k]
        if still(a) and still(b) or frozenset((i, k)) in jointed:
            return False
        ca, cb = a.get("collision", {}), b.get("collision", {})
        return (ca.get("group", 1) & cb.get("mask", -1)) != 0 and (cb.get("group", 1) & ca.get("mask", -1)) != 0

    closest = math.inf
    for i in range(len(bodies)):
        for k in range(i + 1, len(bodies)):
            if may_touch(i, k):
                d = min_distance(bodies[i], bodies[k])
                closest = min(closest, d)
                if d < MIN_GAP:
                    raise SystemExit(f"{name}: {bodies[i]['name']} and {bodies[k]['name']} are only {d:.4f} m apart")
    if "ground" in s:
        h = s["ground"].get("height", 0.0)
        for b in bodies:
            if not still(b):
                g = geometry(b)
                z = g[1][2] - support_radius(g, Z) - h
                if z < MIN_GAP:
                    raise SystemExit(f"{name}: {b['name']} is only {z:.4f} m above the ground")
    return closest


# ---------------------------------------------------------------------------------------------------
# Output.

def clean(value):
    """Rounds floats to DIGITS decimals (no -0.0, integral values kept as floats)."""
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean(v) for v in value]
    if isinstance(value, float):
        v = round(value, DIGITS)
        return 0.0 if v == 0 else v
    return value


def dumps(value, level=0):
    """json.dumps(value, indent=2), except that a list of plain numbers stays on one line."""
    pad, inner = "  " * level, "  " * (level + 1)
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {dumps(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and not all(isinstance(v, (int, float)) for v in value):
        return "[\n" + ",\n".join(inner + dumps(v, level + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value)


def write(name, s, out_dir=OUT_DIR):
    s = clean(s)
    closest = check(name, s)
    os.makedirs(out_dir, exist_ok=True)
    text = dumps(s)
    assert json.loads(text) == s
    with open(os.path.join(out_dir, name), "w") as f:
        f.write(text + "\n")
    gap = f", closest touchable pair {closest:.3f} m" if closest < math.inf else ""
    shown = f"examples/joints/{name}" if out_dir == OUT_DIR else os.path.join(out_dir, name)
    print(f"{shown}: {len(s['bodies'])} bodies, {len(s['joints'])} joints{gap}")


def main():
    if len(sys.argv) > 2:
        sys.exit("usage: python3 scripts/make_joint_scenes.py [OUT_DIR]")
    out_dir = sys.argv[1] if len(sys.argv) == 2 else OUT_DIR
    write("triple_rod_pendulum.json", triple_rod_pendulum(), out_dir)
    write("hinge_boards.json", hinge_boards(), out_dir)
    write("monocular.json", monocular(), out_dir)
    write("nunchaku.json", nunchaku(), out_dir)
    write("physical_pendulum.json", physical_pendulum(), out_dir)
    write("chain_100.json", chain_100(), out_dir)
    write("rotating_board.json", rotating_board(), out_dir)
    write("falling_box.json", falling_box(), out_dir)
    write("ragdoll.json", ragdoll_scene(), out_dir)
    write("ragdolls_10.json", ragdolls_10(), out_dir)
    period, small = pendulum_period()
    print(f"physical pendulum: T = {period:.5f} s (small-angle {small:.5f} s)")


if __name__ == "__main__":
    main()
