"""The agents the suite runs, installed from npm once into target/agents/NAME-VERSION.

The pinned versions are written once, in versions.json; docs/testing.md names them and
run.py checks that it does. `--ignore-scripts`: neither package needs its postinstall
(each brings its native binary as an optional dependency of the same registry).
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VERSIONS = os.path.join(HERE, "versions.json")
# The file an agent's folder gets once npm finished: a folder without it is a broken
# install (interrupted download) and is installed again.
DONE = ".installed"


def pinned():
    """{"claude-code": {"package": …, "version": …}, "codex": {…}} from versions.json."""
    with open(VERSIONS, encoding="utf-8") as f:
        return json.load(f)


def newest(package, timeout=120):
    """The version npm's registry calls latest for a package."""
    out = subprocess.run(
        ["npm", "view", package, "version"],
        capture_output=True, text=True, timeout=timeout, check=True,
    )
    return out.stdout.strip()


def binary(name, folder):
    """The command a person runs, inside an install folder."""
    if name == "claude-code":
        # The platform package's native binary; the npm wrapper only finds and runs it.
        return os.path.join(
            folder, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
    if name == "codex":
        return os.path.join(folder, "node_modules", ".bin", "codex")
    raise ValueError(f"no agent named {name!r}: claude-code or codex")


def install(name, package, version, root, timeout=1800):
    """The agent's binary under ROOT/NAME-VERSION, installed when it is not there yet."""
    folder = os.path.join(root, f"{name}-{version}")
    exe = binary(name, folder)
    if os.path.exists(os.path.join(folder, DONE)) and os.access(exe, os.X_OK):
        return exe
    os.makedirs(folder, exist_ok=True)
    print(f"installing {package}@{version} into {folder}", flush=True)
    subprocess.run(
        ["npm", "install", "--prefix", folder, f"{package}@{version}", "--ignore-scripts",
         "--no-audit", "--no-fund", "--loglevel=error"],
        check=True, timeout=timeout,
    )
    if not os.access(exe, os.X_OK):
        raise RuntimeError(f"npm installed {package}@{version} but {exe} is not there")
    with open(os.path.join(folder, DONE), "w", encoding="utf-8") as f:
        f.write(f"{package}@{version}\n")
    return exe


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(HERE, "..", "..", "target", "agents")
    for name, spec in pinned().items():
        print(install(name, spec["package"], spec["version"], os.path.abspath(root)))


if __name__ == "__main__":
    main(sys.argv)
