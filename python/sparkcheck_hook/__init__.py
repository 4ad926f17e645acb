# SPDX-License-Identifier: Apache-2.0
"""Entry point of the `language: python` pre-commit hooks: runs sparkcheck with the
hook's arguments. The binary, in this order: $SPARKCHECK; the one the `sparkcheck`
wheel put into this environment's bin/, when the wheel was built from the hook's own
commit; else a build of the hook's checkout made on the first run. Parallel hook
processes share that build through a lock file: one builds (with a visible progress
line), the others wait for it."""
import fcntl
import os
import re
import shutil
import subprocess
import sys


def say(msg):
    print("sparkcheck: " + msg, file=sys.stderr, flush=True)


def source_info():
    """(checkout folder, its commit) as setup.py recorded them."""
    try:
        from ._source import SOURCE_DIR, COMMIT
    except ImportError:  # running from a checkout (python/sparkcheck_hook)
        SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        COMMIT = ""
    return SOURCE_DIR, COMMIT


def source_dir():
    return source_info()[0]


def wheel_commit():
    """The commit the installed `sparkcheck` wheel was built from; None without the wheel."""
    try:
        from sparkcheck_wheel._commit import COMMIT
    except ImportError:
        return None
    return COMMIT


def wheel_binary():
    """The wheel's binary, only when the wheel comes from the hook's own commit."""
    path = os.path.join(sys.prefix, "bin", "sparkcheck")
    built_from = wheel_commit()
    if built_from is None or not os.access(path, os.X_OK):
        return None
    commit = source_info()[1]
    if commit and built_from != commit:
        say("the sparkcheck wheel in additional_dependencies was built from %s, the hook's rev is %s: "
            "using a build of the hook's rev instead" % (built_from[:12] or "an unknown commit", commit[:12]))
        return None
    return path


def missing_tools():
    """What the source build needs and this machine lacks."""
    need = [("cmake", ["cmake"]), ("a C++20 compiler (g++ 12 or newer)", ["c++", "g++"]),
            ("pkg-config", ["pkg-config"])]
    return [name for name, progs in need if not any(shutil.which(p) for p in progs)]


def run_build(src, build):
    """cmake configure + build of the sparkcheck target, printing the build's percentage."""
    subprocess.run(["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                    "-DSPARKCHECK_TESTS=OFF"], check=True, stdout=subprocess.DEVNULL)
    cmd = ["cmake", "--build", build, "--target", "sparkcheck", "-j%d" % (os.cpu_count() or 2)]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as p:
        last = None
        for line in p.stdout:
            m = re.match(r"\[\s*(\d+)%\]", line)
            if m and m.group(1) != last:
                last = m.group(1)
                say("building sparkcheck, first run only: %s%%" % last)
            elif "error" in line.lower():
                sys.stderr.write(line)
    if p.returncode != 0:
        raise subprocess.CalledProcessError(p.returncode, cmd)


def built_binary():
    """The checkout's build, made once under an exclusive lock."""
    src = source_dir()
    build = os.path.join(src, "build-hook")
    binary, done = os.path.join(build, "sparkcheck"), os.path.join(build, ".complete")
    if os.path.exists(done):
        return binary
    os.makedirs(build, exist_ok=True)
    with open(os.path.join(src, "build-hook.lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say("waiting for another hook process that is building sparkcheck")
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(done):
            missing = missing_tools()
            if missing:
                raise OSError("needs %s; on Debian/Ubuntu %s/scripts/setup.sh installs them and "
                              "the libraries" % (", ".join(missing), src))
            say("building sparkcheck, first run only (a few minutes; later runs start at once)")
            run_build(src, build)
            open(done, "w").close()
    return binary


def main():
    binary = os.environ.get("SPARKCHECK") or wheel_binary()
    if not binary:
        try:
            binary = built_binary()
        except (OSError, subprocess.CalledProcessError) as e:
            say("could not build sparkcheck: %s" % e)
            if isinstance(e, subprocess.CalledProcessError):
                say("the build's messages are above; %s/scripts/setup.sh installs what it needs "
                    "(Debian/Ubuntu), or set SPARKCHECK to a sparkcheck binary" % source_dir())
            return 2
    os.execv(binary, [binary] + sys.argv[1:])
    return 2
