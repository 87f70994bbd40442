"""affix.run: the whole pipeline of `affix run`, from a Scene or a path, writing the run output contract."""
import csv
import json

import pytest

import affix
from conftest import box_scene


def test_run_writes_the_contract_files(tmp_path):
    scene = affix.Scene.from_dict(box_scene(duration=0.1))
    summary = affix.run(scene, tmp_path / "out")
    assert summary["completed"] is True and summary["steps"] == 10 and summary["solver"] == "ipc"
    for name in ["trajectory.csv", "stats.csv", "summary.json", "meshes.json"]:
        assert (tmp_path / "out" / name).is_file(), name
    assert json.loads((tmp_path / "out" / "summary.json").read_text()) == summary
    with open(tmp_path / "out" / "stats.csv") as f:
        assert len(list(csv.DictReader(f))) == 10


def test_run_from_a_path_with_options(tmp_path, source_dir):
    path = tmp_path / "chain.json"
    affix.generate("chain", links=4, duration=0.05).save(path)
    summary = affix.run(str(path), tmp_path / "out", solver="mabd", contacts=True)
    assert summary["solver"] == "mabd" and summary["completed"]
    assert (tmp_path / "out" / "joints.csv").is_file() and (tmp_path / "out" / "contacts.csv").is_file()


def test_run_refuses_bad_input(tmp_path):
    scene = affix.Scene.from_dict(box_scene(duration=0.1))
    with pytest.raises(affix.InputError, match="format"):
        affix.run(scene, tmp_path / "out", format="xml")
    with pytest.raises(affix.InputError, match="settings.solver"):
        affix.run(scene, tmp_path / "out", solver="euler")
