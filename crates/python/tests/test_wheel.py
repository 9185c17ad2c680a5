"""The wheel in a fresh virtual environment: `pip install`, then the README's first model and
`csp queens 8` run there, with no Rust toolchain on PATH. CSP_WHEEL names the wheel (set by
the cargo test that runs these tests); without it this is skipped."""

import os
import pathlib
import shutil
import subprocess
import sys
import venv

import pytest

from readme import block

WHEEL = os.environ.get("CSP_WHEEL")


@pytest.mark.skipif(not WHEEL, reason="CSP_WHEEL names no wheel")
def test_a_fresh_environment_gets_the_module_and_the_command(tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", WHEEL],
                   check=True, timeout=300)
    # Only the environment and the system's own directories: no cargo, no rustc.
    path = os.pathsep.join([str(bindir), "/usr/bin", "/bin"])
    for tool in ("cargo", "rustc"):
        assert shutil.which(tool, path=path) is None, f"{tool} on the test's PATH"
    env = {"PATH": path, "HOME": str(tmp_path)}
    out = subprocess.run([str(python), "-c", block("## Python")], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "9567 + 1085 = 10652\n"
    queens = subprocess.run(["csp", "queens", "8"], env=env, capture_output=True, text=True,
                            timeout=120)
    assert queens.returncode == 0, queens.stderr
    boards = [b for b in queens.stdout.split("\n\n") if b.strip()]
    assert len(boards) == 92  # OEIS A000170
    assert all(b.count("Q") == 8 for b in boards)
    assert pathlib.Path(shutil.which("csp", path=path)).parent == bindir
