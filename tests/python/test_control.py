"""Driving the compliant solver's motors and servos from Python between steps (sim.set_motor_speed,
sim.set_servo_target, by joint name or index), against closed forms: a box on a hinge about its own centre,
without gravity, so the hinge's angle obeys I θ̈ = τ with I = m(a² + b²)/12."""
import math

import numpy as np
import pytest

import affix

H = 0.01
MASS = 1000 * 0.4 * 0.2 * 0.1          # kg
INERTIA = MASS * (0.4 ** 2 + 0.2 ** 2) / 12  # about the hinge (z), kg·m²


def hinged_box(drive):
    return affix.Scene.from_dict({
        "version": 1, "settings": {"dt": H, "duration": 20, "gravity": [0, 0, 0], "solver": "compliant"},
        "bodies": [{"name": "arm", "shape": {"box": [0.4, 0.2, 0.1]}, "position": [0, 0, 1]}],
        "joints": [{"name": "axle", "type": "hinge", "body1": "arm", "body2": "world", "anchor": [0, 0, 1],
                    "axis": [0, 0, 1], **drive}]})


def angle(sim):
    rotation = sim.rotations[0]
    return math.atan2(rotation[1, 0], rotation[0, 0])


def test_a_motor_set_to_omega_turns_at_omega_from_the_next_step():
    sim = affix.Simulator(hinged_box({"motor": {"velocity": 1.0}}))
    sim.step(5)
    assert sim.velocities[0, 5] == pytest.approx(1.0, abs=1e-6)
    for omega in (3.0, -2.0, 0.0):
        sim.set_motor_speed("axle", omega)
        before = angle(sim)
        sim.step()
        assert sim.velocities[0, 5] == pytest.approx(omega, abs=1e-6)
        assert math.remainder(angle(sim) - before - H * omega, 2 * math.pi) == pytest.approx(0, abs=1e-8)
    sim.set_motor_speed(0, 0.5)  # by index
    sim.step(3)
    assert sim.velocities[0, 5] == pytest.approx(0.5, abs=1e-6)


def test_a_servo_set_to_a_target_takes_the_implicit_pd_step_and_settles_there():
    k, d, target = 50.0, 5.0, 0.5
    sim = affix.Simulator(hinged_box({"servo": {"stiffness": k, "damping": d}}))  # holds 0
    sim.step(3)
    assert angle(sim) == pytest.approx(0, abs=1e-12)
    sim.set_servo_target("axle", target)
    sim.step()
    # From rest at s = 0: I ω₊ = −h(k(s + hω₊ − s*) + d ω₊), so ω₊ = h k s* / (I + h²k + h d), s₊ = h ω₊.
    omega = H * k * target / (INERTIA + H * H * k + H * d)
    assert sim.velocities[0, 5] == pytest.approx(omega, rel=1e-6)
    assert angle(sim) == pytest.approx(H * omega, rel=1e-6)
    sim.step(500)  # ζ ≈ 0.97, √(k/I) ≈ 19 rad/s: settled within 5 s
    assert angle(sim) == pytest.approx(target, abs=1e-6)
    sim.set_servo_target(0, -0.25)
    sim.step(500)
    assert angle(sim) == pytest.approx(-0.25, abs=1e-6)


def test_drive_setters_refuse_what_the_joint_or_the_solver_does_not_have():
    sim = affix.Simulator(hinged_box({"motor": {"velocity": 1.0}}))
    assert sim.joint_names == ["axle"]
    with pytest.raises(affix.InputError, match=r"set_servo_target: joints\[0\] \('axle'\) has no servo"):
        sim.set_servo_target("axle", 0.1)
    with pytest.raises(affix.InputError, match="set_motor_speed: no joint named 'elbow'"):
        sim.set_motor_speed("elbow", 1.0)
    with pytest.raises(affix.InputError, match=r"set_motor_speed: joint 3: expected an index from -1 to 0"):
        sim.set_motor_speed(3, 1.0)
    with pytest.raises(affix.InputError, match="expected a finite number within ±1e6"):
        sim.set_motor_speed("axle", math.nan)
    # A value that is not a number is an InputError naming the argument, as every other bad argument is
    # (pybind11's own conversion raised TypeError: issue 15).
    for bad, given in [("fast", "a str"), (None, "a NoneType"), ([1.0, 2.0], "an array of 2 values"), (True, "a bool")]:
        with pytest.raises(affix.InputError, match=f"set_motor_speed: speed: expected a number, got {given}"):
            sim.set_motor_speed("axle", bad)
    servo = affix.Simulator(hinged_box({"servo": {"stiffness": 10.0}}))
    with pytest.raises(affix.InputError, match="set_servo_target: position: expected a number, got a str"):
        servo.set_servo_target("axle", "0.1")
    servo.set_servo_target("axle", np.float32(0.25))  # numpy scalars are numbers
    servo.set_servo_target(0, 1)                       # and so are ints
    chain = affix.Simulator(affix.generate("chain", links=2), solver="ipc")
    with pytest.raises(affix.InputError, match="set_motor_speed is not supported by the ipc solver"):
        chain.set_motor_speed(0, 1.0)
