#!/usr/bin/env bash
# Bare-metal setup on the Spark host, without a container.
set -euo pipefail
python3 -m venv .venv
. .venv/bin/activate
pip install torch torchvision
pip install "trl>=0.25" "transformers>=4.57" flashinfer-python
