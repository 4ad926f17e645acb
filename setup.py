"""What pre-commit's `language: python` installs (pip install of this repository).

It gives the hook entry point `sparkcheck-hook` and, on Linux x86_64/aarch64, depends
on the prebuilt binary wheel `sparkcheck` of the same version (python/setup.py builds
it). Where no wheel fits (other platforms), or with SPARKCHECK_FROM_SOURCE=1, the hook
builds sparkcheck from this checkout on its first run instead (python/sparkcheck_hook).
"""
import os
import re

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "CMakeLists.txt"), encoding="utf-8") as f:
    VERSION = re.search(r"project\(sparkcheck VERSION ([0-9.]+)", f.read()).group(1)

WHEEL = ("sparkcheck==" + VERSION +
         "; sys_platform == 'linux' and (platform_machine == 'x86_64' or platform_machine == 'aarch64')")


class BuildPyWithSource(build_py):
    """Records where this checkout is, for the fallback source build."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "sparkcheck_hook", "_source.py")
        with open(target, "w", encoding="utf-8") as f:
            f.write("SOURCE_DIR = %r\n" % HERE)


setup(
    name="sparkcheck-pre-commit",
    version=VERSION,
    description="pre-commit hook entry for sparkcheck (installs the prebuilt sparkcheck wheel)",
    package_dir={"": "python"},
    packages=["sparkcheck_hook"],
    install_requires=[] if os.environ.get("SPARKCHECK_FROM_SOURCE") else [WHEEL],
    entry_points={"console_scripts": ["sparkcheck-hook = sparkcheck_hook:main"]},
    cmdclass={"build_py": BuildPyWithSource},
    python_requires=">=3.8",
)
