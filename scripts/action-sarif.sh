#!/usr/bin/env bash
# usage: action-sarif.sh SARIF CATEGORY
# Prepares the action's SARIF upload: sets every run's automationDetails.id to
# "CATEGORY/" (code scanning keeps an id already in the file over the upload's
# category, so without this two uploads in one job collide), and warns past
# GitHub's 5,000 results per run (the rest are dropped by code scanning).
# Writes results=N to $GITHUB_OUTPUT when set.
set -euo pipefail
python3 - "$1" "$2" <<'PY'
import json, os, sys
path, category = sys.argv[1], sys.argv[2].rstrip("/")
with open(path, encoding="utf-8") as f:
    log = json.load(f)
count = 0
for run in log.get("runs", []):
    run.setdefault("automationDetails", {})["id"] = category + "/"
    count = max(count, len(run.get("results", [])))
with open(path, "w", encoding="utf-8") as f:
    json.dump(log, f, ensure_ascii=False)
if count > 5000:
    print("::warning title=sparkcheck::%d results in one SARIF run; GitHub code scanning keeps only "
          "the first 5,000 (the console output and the SARIF file have all of them)" % count)
out = os.environ.get("GITHUB_OUTPUT")
if out:
    with open(out, "a", encoding="utf-8") as f:
        f.write("results=%d\n" % count)
PY
