# SPDX-License-Identifier: Apache-2.0
"""The sparkcheck binary installed by this wheel (it lives in the environment's bin/)."""
import os
import sys


def binary_path():
    """Path of the sparkcheck binary this wheel installed."""
    return os.path.join(sys.prefix, "bin", "sparkcheck")
