"""Shared fixtures of the Python tests (run by ctest with PYTHONPATH=<build>/python, cmake/python.cmake)."""
import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("AFFIX_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def source_dir():
    return SOURCE_DIR


def box_scene(**settings):
    """A 0.5 m cube resting 1 m above the ground, as a scene file's dict."""
    return {
        "version": 1,
        "settings": {"dt": 0.01, "duration": 1.0, **settings},
        "ground": {},
        "bodies": [{"name": "cube", "shape": {"box": [0.5, 0.5, 0.5]}, "position": [0, 0, 1]}],
    }
