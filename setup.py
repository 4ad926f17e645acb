# SPDX-License-Identifier: Apache-2.0
"""What pre-commit's `language: python` installs (pip install of this repository).

It gives the hook entry point `sparkcheck-hook` and nothing else: no prebuilt wheel is
required, so the hook installs from any commit on any machine. The hook then runs, in
this order, $SPARKCHECK, the `sparkcheck` wheel's binary where the user lists that wheel
in `additional_dependencies` and it was built from this same commit, else a build of
this checkout made on the first run (python/sparkcheck_hook).
"""
import os
import re

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "CMakeLists.txt"), encoding="utf-8") as f:
    VERSION = re.search(r"project\(sparkcheck VERSION ([0-9.]+)", f.read()).group(1)


def git_dir():
    """This checkout's git folder (a `.git` file points to it in worktrees)."""
    path = os.path.join(HERE, ".git")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            line = f.read().strip()
        path = os.path.join(HERE, line[len("gitdir:"):].strip()) if line.startswith("gitdir:") else ""
    return path if os.path.isdir(path) else ""


def resolve_ref(gdir, ref):
    """A ref's commit from its loose file or packed-refs; "" when neither names it."""
    loose = os.path.join(gdir, ref)
    if os.path.isfile(loose):
        with open(loose, encoding="utf-8") as f:
            return f.read().strip()
    packed = os.path.join(gdir, "packed-refs")
    if os.path.isfile(packed):
        with open(packed, encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and parts[1] == ref:
                    return parts[0]
    return ""


def checkout_commit():
    """The commit this checkout is at, read from .git without running git ("" outside git)."""
    gdir = git_dir()
    head = os.path.join(gdir, "HEAD")
    if not gdir or not os.path.isfile(head):
        return ""
    with open(head, encoding="utf-8") as f:
        text = f.read().strip()
    commit = resolve_ref(gdir, text[5:].strip()) if text.startswith("ref:") else text
    return commit if re.fullmatch(r"[0-9a-f]{40,64}", commit) else ""


COMMIT = checkout_commit()


class BuildPyWithSource(build_py):
    """Records where this checkout is and its commit, for the source build and the wheel check."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "sparkcheck_hook", "_source.py")
        with open(target, "w", encoding="utf-8") as f:
            f.write("SOURCE_DIR = %r\nCOMMIT = %r\n" % (HERE, COMMIT))


setup(
    name="sparkcheck-pre-commit",
    version=VERSION + ("+g" + COMMIT[:12] if COMMIT else ""),
    description="pre-commit hook entry for sparkcheck (runs or builds the sparkcheck of this commit)",
    license="Apache-2.0",
    package_dir={"": "python"},
    packages=["sparkcheck_hook"],
    entry_points={"console_scripts": ["sparkcheck-hook = sparkcheck_hook:main"]},
    cmdclass={"build_py": BuildPyWithSource},
    python_requires=">=3.8",
)
