"""Scenes in and out of Python: affix.load, Scene.from_dict / to_dict, save, generate, and bad input."""
import json
import math

import pytest

import affix
from conftest import box_scene


def test_load_reads_a_scene_file_like_the_cli(source_dir):
    scene = affix.load(source_dir / "examples" / "drop.json")
    with open(source_dir / "examples" / "drop.json") as f:
        data = json.load(f)
    assert scene.name == "drop"
    assert scene.body_names == [b["name"] for b in data["bodies"]]
    assert scene.dt == data["settings"]["dt"]


def assert_same(a, b, path="scene"):
    """Equal dicts, numbers to 1e-12 relative: reading renormalises axes and frames, and turns degrees into
    radians and back, which may move the last digit (scene_writer.hpp)."""
    assert type(a) is type(b), path
    if isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for key in a:
            assert_same(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for k, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{path}[{k}]")
    elif isinstance(a, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-15), path
    else:
        assert a == b, path


def test_dict_round_trip(source_dir):
    scene = affix.load(source_dir / "examples" / "joints" / "ragdoll.json")
    data = scene.to_dict()
    again = affix.Scene.from_dict(data, file=str(source_dir / "examples" / "joints" / "ragdoll.json"))
    assert_same(again.to_dict(), data)
    assert again.joint_names == scene.joint_names


def test_integer_settings_written_as_floats_come_back_as_integers(tmp_path):
    # Python's json writes 3.0 where a scene meant 3; the readers take it as 3 (README, Conventions,
    # Integers) and so does to_dict now, as it does for a body's `resolution` (issue 15: it echoed 3.0).
    data = box_scene(solver="compliant")
    data["settings"]["compliant"] = {"projection_iterations": 2e0, "pgs_iterations": 3.0, "alpha": 1.0}
    data["settings"]["impulse"] = {"max_iterations": 40.0}
    scene = affix.Scene.from_dict(data)
    for settings in [scene.to_dict()["settings"],
                     (scene.save(tmp_path / "s.json"), affix.load(tmp_path / "s.json").to_dict()["settings"])[1]]:
        compliant = settings["compliant"]
        assert type(compliant["projection_iterations"]) is int and compliant["projection_iterations"] == 2
        assert type(compliant["pgs_iterations"]) is int and compliant["pgs_iterations"] == 3
        assert type(compliant["alpha"]) is float  # a number field keeps its float
        assert type(settings["impulse"]["max_iterations"]) is int


def test_from_dict_fills_in_the_defaults():
    data = affix.Scene.from_dict(box_scene()).to_dict()
    body = data["bodies"][0]
    assert body["density"] == 1000 and body["friction"] == 0.5
    assert data["settings"]["solver"] == "ipc"
    assert data["ground"]["height"] == 0


def test_save_and_load_round_trip(tmp_path):
    scene = affix.Scene.from_dict(box_scene())
    scene.save(tmp_path / "cube.json")
    loaded = affix.load(str(tmp_path / "cube.json"))
    assert loaded.name == "cube"
    assert_same(loaded.to_dict(), scene.to_dict())


def test_generate_builds_the_cli_families():
    chain = affix.generate("chain", links=7, joint="hinge")
    assert len(chain.body_names) == 7 and len(chain.joint_names) == 7
    assert chain.to_dict()["joints"][0]["type"] == "hinge"
    tree = affix.generate("tree", depth=2, branching=3, dt=0.005, duration=0.5)
    assert len(tree.body_names) == 1 + 3 + 9
    assert tree.dt == 0.005 and tree.duration == 0.5
    assert len(affix.generate("wrecking-ball", blocks=3).body_names) > 3


def test_generate_has_every_kind_and_option_of_the_command_line():
    # One option table for both: the impulse mechanisms, --link, --variant and the --free-ball flag.
    assert len(affix.generate("peaucellier").body_names) == 7
    assert len(affix.generate("spider", legs=4).body_names) == 1 + 2 * 4
    assert len(affix.generate("scissor-lift", segments=2, angle=45).body_names) == 2 * 2 + 2
    assert len(affix.generate("strandbeest", legs=4, load=1).body_names) == 2 + 6 * 4
    box = affix.generate("chain", links=2, link="box").to_dict()["bodies"][0]["shape"]
    assert "box" in box
    roped = affix.generate("wrecking-ball", variant="light")
    thrown = affix.generate("wrecking-ball", variant="light", free_ball=True)
    assert len(thrown.body_names) < len(roped.body_names)  # no rope links
    assert len(thrown.joint_names) == 0 < len(roped.joint_names)


@pytest.mark.parametrize(
    "kind, options, says",
    [
        ("rope", {}, "generate: unknown kind 'rope' (expected one of: chain, net, tree, pulley, pile, drop, wrecking-ball, peaucellier"),
        ("chain", {"colour": 3}, "generate chain: The following argument was not expected: --colour"),
        ("chain", {"links": 2.5}, "generate chain: Could not convert: --links = 2.5"),
        ("chain", {"links": [3]}, "generate chain: links: expected a number, a str or a bool, got [3]"),
        ("wrecking-ball", {"variant": "light", "blocks": 3}, "--variant light: sets the blocks itself"),
        ("chain", {"links": 0}, "--links 0: expected a whole number from 1"),
        ("chain", {"joint": "weld"}, "weld"),
        ("chain", {"dt": -1.0}, "--dt -1: expected a finite number > 0"),
        ("chain", {"dt": math.inf}, "--dt inf: expected a finite number > 0"),
    ],
)
def test_generate_refuses_bad_options(kind, options, says):
    with pytest.raises(affix.InputError) as error:
        affix.generate(kind, **options)
    assert says in str(error.value)


def test_bad_input_raises_input_error_with_the_json_path():
    data = box_scene()
    data["bodies"][0]["shape"] = {"box": [0.5, 0.5]}
    with pytest.raises(affix.InputError) as error:
        affix.Scene.from_dict(data, file="cube.json")
    message = str(error.value)
    assert message.startswith("cube.json: bodies[0].shape.box")
    assert "expected" in message
    assert isinstance(error.value, ValueError)  # affix.InputError is a ValueError


def test_bad_input_names_the_dict_when_there_is_no_file():
    data = box_scene()
    data["settings"]["dt"] = "fast"
    with pytest.raises(affix.InputError, match=r"^<dict>: settings\.dt"):
        affix.Scene.from_dict(data)
    data = box_scene()
    data["bodies"][0]["position"] = [0, 0, float("nan")]
    with pytest.raises(affix.InputError) as error:
        affix.Scene.from_dict(data)
    # One line naming the JSON path, no json-encoder traceback (hostile16 #14).
    assert str(error.value) == "<dict>: bodies[0].position[2]: expected a finite number, got nan"
    data = box_scene()
    data["settings"]["compliant"] = {"restitution": float("-inf")}
    with pytest.raises(affix.InputError) as error:
        affix.Scene.from_dict(data, file="x.json")
    assert str(error.value) == "x.json: settings.compliant.restitution: expected a finite number, got -inf"
    data = box_scene()
    data["bodies"][0]["tags"] = {1, 2}
    with pytest.raises(affix.InputError) as error:
        affix.Scene.from_dict(data)
    assert str(error.value) == "<dict>: bodies[0].tags: expected a dict, list, str, finite number, bool or None, got a set"
    with pytest.raises(affix.InputError, match="expected a dict"):
        affix.Scene.from_dict([1, 2])


def test_load_of_a_bad_file_names_file_and_path(tmp_path):
    path = tmp_path / "bad.json"
    data = box_scene()
    data["bodies"][0]["mass"] = -1
    path.write_text(json.dumps(data))
    with pytest.raises(affix.InputError) as error:
        affix.load(path)
    assert str(error.value).startswith(str(path) + ": bodies[0].mass")
    with pytest.raises(affix.InputError, match="missing.json"):
        affix.load(tmp_path / "missing.json")


def test_from_dict_and_load_validate_the_solvers_settings_blocks(tmp_path):
    # settings.compliant is read by its solver; from_dict and load read it at once, as `affix validate`
    # does a file's, and the message names the source: '<dict>' (not a bare ':') or the file.
    data = box_scene()
    data["settings"]["solver"] = "compliant"
    data["settings"]["compliant"] = {"stabilization": "magic"}
    with pytest.raises(affix.InputError, match=r'^<dict>: settings\.compliant\.stabilization: expected one of "none"'):
        affix.Scene.from_dict(data)
    with pytest.raises(affix.InputError, match=r"^cube\.json: settings\.compliant\.stabilization"):
        affix.Scene.from_dict(data, file="cube.json")
    data["settings"]["solver"] = "ipc"  # a block of a solver not chosen is read too, as a file's is
    data["settings"]["compliant"] = {"alpha": -1}
    with pytest.raises(affix.InputError, match=r"^<dict>: settings\.compliant\.alpha"):
        affix.Scene.from_dict(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(affix.InputError, match="^" + str(path) + r": settings\.compliant\.alpha"):
        affix.load(path)


def test_integral_floats_are_integers_and_compliance_is_bounded():
    # Python's json and a dict both carry 3.0 where a file may say 3: every integer field takes it (issue 15).
    data = box_scene()
    data["settings"]["solver"] = "compliant"
    data["settings"]["compliant"] = {"projection_iterations": 3.0, "pgs_iterations": 1e2}
    affix.Simulator(affix.Scene.from_dict(data)).step()
    data["settings"]["compliant"] = {"projection_iterations": 3.5}
    with pytest.raises(affix.InputError,
                       match=r"^<dict>: settings\.compliant\.projection_iterations: expected an integer, got 3\.5"):
        affix.Scene.from_dict(data)
    # A compliance above 1 (a lost minus sign: 1e12 for 1e-12) made every joint hold nothing, silently.
    for compliance in (1e300, 1e12):
        data["settings"]["compliant"] = {"compliance": compliance}
        with pytest.raises(affix.InputError, match=r"settings\.compliant\.compliance: expected a number from 0 to 1"):
            affix.Scene.from_dict(data)
    data["settings"]["compliant"] = {"compliance": 1.0}
    affix.Scene.from_dict(data)


def test_later_errors_of_a_dict_scene_name_the_dict():
    # A scene from a dict that a solver refuses when built: the message starts with '<dict>', not ':'.
    data = box_scene()
    data["settings"]["solver"] = "compliant"
    data["settings"]["integrator"] = "bdf2"
    scene = affix.Scene.from_dict(data)
    with pytest.raises(affix.InputError, match=r"^<dict>: settings\.integrator"):
        affix.Simulator(scene)
