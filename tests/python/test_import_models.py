"""Models read from Python through the importer, as `affix run` reads them: a URDF, an MJCF whose mesh
geom becomes an inline mesh that survives a dict round trip, and a refused weld raising InputError
with the model's file and the equality's name."""
import pathlib

import pytest

import affix

from conftest import SOURCE_DIR

MUG = pathlib.Path("/usr/share/mujoco/model/mug/mug.obj")


def test_load_reads_a_urdf():
    scene = affix.load(str(SOURCE_DIR / "tests/data/ur5/ur5.urdf"))
    assert "wrist_3_link" in scene.body_names
    assert len(scene.joint_names) == 6


@pytest.mark.skipif(not MUG.exists(), reason="libmujoco-samples is not installed")
def test_mesh_geom_is_an_inline_mesh_that_round_trips():
    scene = affix.load(str(SOURCE_DIR / "examples/import/mug_mesh.xml"))
    data = scene.to_dict()
    (part,) = data["bodies"][0]["shape"]["compound"]
    mesh = part["shape"]["mesh"]
    assert "file" not in mesh
    assert len(mesh["triangles"]) == 24544
    assert all(0 <= i < len(mesh["vertices"]) for t in mesh["triangles"] for i in t)
    (again,) = affix.Scene.from_dict(data).to_dict()["bodies"][0]["shape"]["compound"]
    assert again["shape"] == part["shape"]  # every vertex and triangle, exactly
    assert again["position"] == part["position"]
    # A quaternion is normalised again when read, which may move its last digit.
    assert again["rotation"] == pytest.approx(part["rotation"], abs=1e-15)


def test_refused_weld_raises_input_error_naming_the_equality(tmp_path):
    model = tmp_path / "weld.xml"
    model.write_text("""<mujoco><worldbody>
  <body name="a" pos="0 0 1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
  <body name="b" pos="0.5 0 1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
</worldbody><equality><weld name="glue" body1="a" body2="b" relpose="0.2 0 0 1 0 0 0"/></equality></mujoco>""")
    with pytest.raises(affix.InputError, match=r"weld\.xml: equality 'glue' \(weld of 'a' and 'b'\)"):
        affix.load(str(model))
