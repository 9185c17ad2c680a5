"""The README's Python examples run as they stand, with answers from elsewhere."""

import importlib.util
import itertools
import subprocess
import sys

import pytest

from readme import block


def run(script, tmp_path):
    # From a file: PyCSP3 names the instance it compiles after the script.
    path = tmp_path / "example.py"
    path.write_text(script, encoding="utf-8")
    out = subprocess.run([sys.executable, str(path)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_first_model(tmp_path):
    # Dudeney's SEND + MORE = MONEY (1924): 9567 + 1085 = 10652, the only solution.
    assert run(block("## A first model"), tmp_path) == "9567 + 1085 = 10652\n"


def test_cpmpy_example(tmp_path):
    pytest.importorskip("cpmpy")
    assert run(block("## CPMpy"), tmp_path) == "92\n"  # OEIS A000170


def test_pycsp3_example(tmp_path):
    if importlib.util.find_spec("pycsp3") is None:  # importing it would read pytest's argv
        pytest.skip("pycsp3 is not installed")
    marks = eval(run(block("## PyCSP3"), tmp_path))
    # A shortest Golomb ruler of 7 marks is 25 long (OEIS A003022).
    assert marks[0] == 0 and marks[-1] == 25 and marks == sorted(marks)
    differences = [b - a for a, b in itertools.combinations(marks, 2)]
    assert len(set(differences)) == len(differences)
