#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Edits N files of a tree, as a commit would: the same N files every call (evenly spaced over
the sorted .py and .yaml files), each gaining a trailing comment line, or losing it again when it
has one, so every call changes them.  Used as hyperfine's --prepare step by bench/report.sh.

  bench/edit_files.py TREE [N]
"""
import os
import sys

MARK = "# edited by bench\n"


def candidates(tree):
    out = []
    for d, dirs, files in os.walk(tree):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        out += [os.path.join(d, f) for f in sorted(files) if f.endswith((".py", ".yaml"))]
    return out


def toggle(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    text = text[: -len(MARK)] if text.endswith(MARK) else text + MARK
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def main():
    tree, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
    files = candidates(tree)
    for k in range(min(n, len(files))):
        toggle(files[k * len(files) // n])


if __name__ == "__main__":
    main()
