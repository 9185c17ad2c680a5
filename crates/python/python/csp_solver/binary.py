"""Where the `csp` command this package installed is."""

import os
import shutil
import sys
import sysconfig


def binary() -> str:
    """The path of the `csp` executable installed with this package (for PyCSP3's route,
    `csp xcsp3`, and MiniZinc's, `csp minizinc-setup`)."""
    name = "csp.exe" if os.name == "nt" else "csp"
    for scheme_dir in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        candidate = os.path.join(scheme_dir, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("csp")
    if found is None:
        raise FileNotFoundError("the csp command is not installed beside this package")
    return found
