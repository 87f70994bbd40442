"""affix.Simulator: stepping, the documented array shapes, state edits, records and errors."""
import math

import numpy as np
import pytest

import affix
from conftest import box_scene


def two_bodies():
    """A cube above the ground and a kinematic paddle moving along x, away from it."""
    data = box_scene(gravity=[0, 0, -9.81])
    data["bodies"].append({"name": "paddle", "shape": {"box": [1, 0.1, 0.1]}, "position": [3, 0, 1],
                           "kinematic": {"velocity": [1, 0, 0]}})
    return affix.Scene.from_dict(data)


@pytest.mark.parametrize("solver", ["ipc", "mabd"])
def test_arrays_have_the_documented_shapes_and_are_read_only(solver):
    sim = affix.Simulator(two_bodies(), solver=solver)
    assert sim.solver == solver
    for name, shape in [("positions", (2, 3)), ("rotations", (2, 3, 3)), ("velocities", (2, 6))]:
        array = getattr(sim, name)
        assert array.shape == shape and array.dtype == np.float64, name
        assert not array.flags.writeable, name
        with pytest.raises(ValueError):
            array[0, 0] = 1.0
    np.testing.assert_array_equal(sim.positions, [[0, 0, 1], [3, 0, 1]])
    np.testing.assert_array_equal(sim.rotations, [np.eye(3), np.eye(3)])
    np.testing.assert_array_equal(sim.velocities[0], np.zeros(6))


def test_step_returns_statistics_and_advances_time():
    sim = affix.Simulator(two_bodies())
    stats = sim.step()
    assert isinstance(stats, affix.StepStats)
    assert stats.step == 1 and stats.time == pytest.approx(0.01) and stats.iterations >= 1
    assert sim.time == pytest.approx(0.01)
    many = sim.step(4)
    assert [s.step for s in many] == [2, 3, 4, 5]
    assert sim.step_count == 5 and sim.time == pytest.approx(0.05)
    assert sim.step(0) == []
    # Free fall by implicit Euler: v = n h g, exactly (nothing is near the ground yet).
    assert sim.velocities[0, 2] == pytest.approx(-5 * 0.01 * 9.81, rel=1e-9)
    assert sim.positions[1, 0] == pytest.approx(3.05, abs=1e-12)


ALL_SOLVERS = ["ipc", "mabd", "impulse", "compliant"]


@pytest.mark.parametrize("solver", ALL_SOLVERS)
def test_set_state_round_trips(solver):
    sim = affix.Simulator(two_bodies(), solver=solver)
    sim.step()
    positions = sim.positions.copy()
    positions[0] = [0.5, -0.5, 2.0]
    rotations = sim.rotations.copy()
    c, s = math.cos(0.3), math.sin(0.3)
    rotations[0] = [[c, -s, 0], [s, c, 0], [0, 0, 1]]
    velocities = sim.velocities.copy()
    velocities[0] = [1, 2, 3, 0.1, 0.2, 0.3]
    sim.set_state(positions, rotations, velocities)
    np.testing.assert_allclose(sim.positions, positions, atol=1e-15)  # rigid: via the centre of mass
    np.testing.assert_allclose(sim.rotations, rotations, atol=1e-15)
    np.testing.assert_allclose(sim.velocities, velocities, atol=1e-14)
    sim.set_state(velocities=np.zeros((2, 6)) + [0, 0, 0, 0, 0, 0])  # positions and rotations kept
    np.testing.assert_allclose(sim.positions, positions, atol=1e-15)


@pytest.mark.parametrize("solver", ALL_SOLVERS)
def test_set_state_refuses_bad_shapes_and_prescribed_moves(solver):
    sim = affix.Simulator(two_bodies(), solver=solver)
    with pytest.raises(affix.InputError, match=r"set_state: positions: expected an array of shape \(2, 3\), got \(3,\)"):
        sim.set_state(positions=[1, 2, 3])
    with pytest.raises(affix.InputError, match=r"got a str"):
        sim.set_state(velocities="fast")
    moved = sim.positions.copy()
    moved[1, 2] += 1
    with pytest.raises(affix.InputError, match=r"bodies\[1\] \('paddle'\) is kinematic"):
        sim.set_state(positions=moved)
    inside = sim.positions.copy()
    inside[0, 2] = 0.1
    with pytest.raises(affix.InputError, match="on or below the ground"):
        sim.set_state(positions=inside)
    if solver in ("impulse", "compliant"):  # rigid bodies: a rotation, not a strained map
        strained = sim.rotations.copy()
        strained[0] *= 1.01
        with pytest.raises(affix.InputError, match=r"bodies\[0\] \('cube'\)\.rotation: expected a rotation matrix"):
            sim.set_state(rotations=strained)


def pendulum(dt):
    """A 1 kg sphere of 5 cm hanging at rest 1 m below a ball joint to the world (the hostile pass's)."""
    return affix.Scene.from_dict({
        "version": 1, "settings": {"dt": dt, "duration": 10, "solver": "compliant"},
        "bodies": [{"name": "bob", "shape": {"sphere": 0.05}, "mass": 1.0, "position": [0, 0, 1]}],
        "joints": [{"name": "rod", "type": "ball", "body1": "bob", "body2": "world", "anchor": [0, 0, 2]}]})


@pytest.mark.parametrize("dt", [1 / 60, 0.1])
def test_compliant_set_state_off_a_joint_is_projected_onto_it(dt):
    # Set 5 cm and 14.6 cm up the rod, the bob is moved back onto its joint at once: the radial gap is
    # closed by translation alone (a turn moves the anchor across the rod), so it hangs at z = 1 at rest
    # and stays there. Before, the next step closed the gap at φ/h and kept that velocity: 3 m/s at
    # h = 1/60, a SimulationError (energy line) on the step after.
    for off in [0.05, 0.146]:
        sim = affix.Simulator(pendulum(dt))
        sim.step()
        sim.set_state(positions=[[0, 0, 1 + off]])
        assert sim.positions[0] == pytest.approx([0, 0, 1], abs=1e-9)
        history = sim.step(round(1 / dt))
        assert sim.positions[0] == pytest.approx([0, 0, 1], abs=1e-7)
        assert max(s.kinetic_energy for s in history) < 1e-10
    # Set sideways and given a velocity, it swings from a pose on the joint: the anchors meet, and the
    # swing never rises above the energy it was given (the caller's velocity kept, ½mv² + mg z).
    sim = affix.Simulator(pendulum(dt))
    sim.set_state(positions=[[0.3, 0, 1.2]], velocities=[[0, 0.5, 0, 0, 0, 0]])
    gap = np.linalg.norm(sim.joints[0].anchor1 - sim.joints[0].anchor2)
    assert gap < 1e-9
    assert sim.velocities[0][:3] == pytest.approx([0, 0.5, 0])
    start = 0.5 * 0.5 ** 2 + 9.81 * sim.positions[0][2]
    for stats in sim.step(round(2 / dt)):
        assert stats.max_joint_error < 1e-6
        assert stats.kinetic_energy + stats.potential_energy < start + 1e-9 + 0.5 * dt * 9.81 * 3


def test_compliant_set_state_the_projection_cannot_close_is_refused_naming_the_joint():
    # A 10-link chain's links scattered in a zigzag 2 m wide, 1 m apart (links of 0.1 m): the projection
    # (Gauss–Newton on the poses) does not bring them back onto their joints, and the state is refused,
    # naming a joint, with nothing changed; the simulator steps on from where it was.
    sim = affix.Simulator(affix.generate("chain", links=10, solver="compliant"))
    sim.step()
    positions, rotations = sim.positions.copy(), sim.rotations.copy()
    zigzag = [[2.0 * (k % 2), 0, 5 + k] for k in range(len(positions))]
    with pytest.raises(affix.InputError, match=r"^set_state: joints\[\d\] \('link\d-link\d'\): the bodies given cannot "
                                               r"be moved onto the joint \([0-9.e-]+ m apart after projecting"):
        sim.set_state(positions=zigzag)
    assert np.array_equal(sim.positions, positions) and np.array_equal(sim.rotations, rotations)
    assert sim.step().max_joint_error < 1e-6


@pytest.mark.parametrize("solver", ALL_SOLVERS)
def test_apply_force_acts_for_one_step(solver):
    # Δv = hF/m for one step, on every solver (implicit Euler, symplectic Euler and the impulse step all
    # give a free body the impulse hF).
    sim = affix.Simulator(two_bodies(), solver=solver)
    h, m = 0.01, 1000 * 0.5 ** 3
    sim.apply_force("cube", [m * 9.81, 0, 0])  # at its origin
    sim.step()
    assert sim.velocities[0, 0] == pytest.approx(h * 9.81, rel=1e-9)
    sim.step()
    assert sim.velocities[0, 0] == pytest.approx(h * 9.81, rel=1e-9)  # no more push: unchanged
    sim.apply_force(0, [0, 100, 0], point=sim.positions[0] + [0.25, 0, 0])  # off-centre: it turns
    sim.step()
    assert sim.velocities[0, 5] > 0
    with pytest.raises(affix.InputError, match="no body named 'lid'"):
        sim.apply_force("lid", [0, 0, 1])
    with pytest.raises(affix.InputError, match=r"apply_force: force: expected an array of shape \(3,\)"):
        sim.apply_force(0, [0, 1])


@pytest.mark.parametrize("solver", ALL_SOLVERS)
def test_kinematic_target_is_reached_and_held(solver):
    sim = affix.Simulator(two_bodies(), solver=solver)
    sim.set_kinematic_target("paddle", [3, 0.1, 1.1], rotation=[math.cos(0.1), 0, 0, math.sin(0.1)])
    sim.step(2)
    np.testing.assert_allclose(sim.positions[1], [3, 0.1, 1.1], atol=1e-12)
    np.testing.assert_allclose(sim.rotations[1][:2, :2], [[math.cos(0.2), -math.sin(0.2)],
                                                          [math.sin(0.2), math.cos(0.2)]], atol=1e-12)
    with pytest.raises(affix.InputError, match="is dynamic"):
        sim.set_kinematic_target(0, [0, 0, 1])


def test_joint_and_contact_records(source_dir):
    chain = affix.Simulator(affix.generate("chain", links=3))
    chain.step(3)
    records = chain.joints
    assert len(records) == 3 and [r.joint for r in records] == [0, 1, 2]
    for r in records:
        assert r.anchor1.shape == (3,) and np.linalg.norm(r.anchor1 - r.anchor2) < 1e-6
    cube = affix.Simulator(affix.Scene.from_dict(box_scene()))
    assert cube.contacts == []
    data = box_scene()
    data["bodies"][0]["position"] = [0, 0, 0.2505]  # 0.5 mm above the ground: within d̂ = 1 mm
    near = affix.Simulator(affix.Scene.from_dict(data))
    near.step()
    contacts = near.contacts
    assert contacts and all(c.body1 == 0 and c.body2 == -1 for c in contacts)
    assert all(c.distance > 0 and c.normal[2] == pytest.approx(1) for c in contacts)


def test_solver_errors_raise_input_error():
    with pytest.raises(affix.InputError, match="solver 'euler': expected one of: ipc, mabd"):
        affix.Simulator(two_bodies(), solver="euler")
    data = box_scene()
    data["bodies"].append({"name": "twin", "shape": {"box": [0.5, 0.5, 0.5]}, "position": [0.1, 0, 1]})
    with pytest.raises(affix.InputError, match="intersect"):
        affix.Simulator(affix.Scene.from_dict(data))


def test_divergence_raises_simulation_error_with_the_step():
    sim = affix.Simulator(affix.Scene.from_dict(box_scene()))
    sim.step()
    sim.apply_force(0, [1e300, 0, 0])
    with pytest.raises(affix.SimulationError, match=r"^step 2 \(t = 0\.02 s\): body 'cube'") as error:
        sim.step()
    assert isinstance(error.value, RuntimeError)
    with pytest.raises(affix.SimulationError, match="failed earlier: step 2"):
        sim.step()


def test_a_joint_that_comes_apart_raises_simulation_error_naming_it():
    # The hostile pass's 10⁻¹² kg link under a 10⁶ kg block at h = 0.1 s on compliant (10¹⁸:1, past what
    # doubles resolve): its lower joint tears at step 2, as `affix run` reports it (io/joint_tear.hpp).
    box = {"box": [0.2, 0.2, 0.2]}
    scene = affix.Scene.from_dict({
        "version": 1, "settings": {"dt": 0.1, "duration": 10, "solver": "compliant"},
        "bodies": [{"name": "a", "shape": box, "mass": 1e-12, "position": [0, 0, -0.1]},
                   {"name": "b", "shape": box, "mass": 1e6, "position": [0, 0, -0.4]}],
        "joints": [{"name": "top", "type": "ball", "body1": "a", "body2": "world", "anchor": [0, 0, 0]},
                   {"name": "hook", "type": "ball", "body1": "b", "body2": "a", "anchor": [0, 0, -0.2]}]})
    sim = affix.Simulator(scene)
    sim.step()
    with pytest.raises(affix.SimulationError,
                       match=r"^step 2 \(t = 0\.2 s\): joint 'hook' \(between 'b' and 'a'\) came apart"):
        sim.step()
