"""Entry point of the `language: python` pre-commit hooks: runs sparkcheck with the
hook's arguments. The binary, in this order: $SPARKCHECK, the one the `sparkcheck`
wheel put into this environment's bin/, else a build of the hook's checkout made on
the first run. Parallel hook processes share that build through a lock file: one
builds (with a visible progress line), the others wait for it."""
import fcntl
import os
import re
import subprocess
import sys


def say(msg):
    print("sparkcheck: " + msg, file=sys.stderr, flush=True)


def wheel_binary():
    path = os.path.join(sys.prefix, "bin", "sparkcheck")
    return path if os.access(path, os.X_OK) else None


def source_dir():
    try:
        from ._source import SOURCE_DIR
    except ImportError:  # running from a checkout (python/sparkcheck_hook)
        SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return SOURCE_DIR


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
            say("building sparkcheck, first run only (no prebuilt wheel for this platform; "
                "needs cmake, g++ and the libraries from scripts/setup.sh)")
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
            return 2
    os.execv(binary, [binary] + sys.argv[1:])
    return 2
