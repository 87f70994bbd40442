"""examples/python/drop_and_plot.py on the MuJoCo humanoid (Debian's libmujoco-samples): it imports the
model, drops it, and writes a PNG of the height and the solver's iterations with matplotlib's Agg
backend. A short duration keeps the test quick; the plot is checked to be a real PNG of the size the
script asks for (7 × 5 inches at 100 dpi)."""
import os
import pathlib
import struct
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR

HUMANOID = pathlib.Path("/usr/share/mujoco/model/humanoid/humanoid.xml")


@pytest.mark.skipif(not HUMANOID.exists(), reason="libmujoco-samples is not installed")
def test_drops_the_humanoid_and_writes_the_png(tmp_path):
    png = tmp_path / "humanoid.png"
    env = dict(os.environ, MPLBACKEND="Agg", MPLCONFIGDIR=str(tmp_path / "mpl"))
    result = subprocess.run(
        [sys.executable, str(SOURCE_DIR / "examples/python/drop_and_plot.py"), "--duration", "0.05", "--out", str(png)],
        capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stderr
    # 16 bodies of the model, 9 virtual links; 10 steps of MuJoCo's 5 ms.
    assert "humanoid: 25 bodies, 10 steps of 0.005 s with ipc" in result.stdout, result.stdout
    assert f"wrote {png}" in result.stdout
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk
    assert (width, height) == (700, 500)
