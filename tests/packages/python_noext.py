"""A CPython 3.8+ whose sqlite3 cannot load extensions, for test_python.py.

Run by python.sh: `python3 python_noext.py [PYTHON...]` prints the first interpreter
that is one, looking first under pyenv's versions (CI's 3.11 first, so that every machine
with pyenv tests the same one; then the newest), then at each PYTHON given; it exits 1, printing nothing,
when none is. The test imports lacks_load_extension() to check what python.sh found.
"""

import glob
import os
import subprocess
import sys

PROBE = (
    "import sqlite3, sys; print(sys.version_info >= (3, 8) and "
    "not hasattr(sqlite3.Connection, 'enable_load_extension'))"
)


def lacks_load_extension(python):
    """True when `python` runs and is a CPython 3.8+ without enable_load_extension."""
    try:
        done = subprocess.run(
            [python, "-c", PROBE], capture_output=True, text=True, check=False
        )
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.strip() == "True"


def pyenv_candidates():
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = sorted(glob.glob(os.path.join(root, "versions", "*", "bin", "python3")))
    others = [p for p in found if "/3.11." not in p]
    return [p for p in found if "/3.11." in p] + others[::-1]


def main(args):
    for python in pyenv_candidates() + args:
        if lacks_load_extension(python):
            print(python)
            return 0
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
