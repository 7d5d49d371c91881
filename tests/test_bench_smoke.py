"""``python -m bench --quick`` runs every benchmark end to end and writes valid JSON.

A smoke test of the plumbing (tiny sizes, one run, benchmarks side by side), never of the
budgets: the figures of a quick run mean nothing and are not checked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ("startup", "thread", "inbox", "poll", "idle", "client", "memory", "sandbox",
              "local", "slow", "fill", "search", "gateway", "team", "soak")


@pytest.mark.slow
@pytest.mark.timeout(960)
def test_quick_bench_writes_results(tmp_path: Path) -> None:
    # the timeout only guards against a hung run: a quick run is some 15-18 s of CPU, minutes
    # on a machine busy with other work
    out = tmp_path / "results.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src")])}
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--out", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["quick"] is True
    for key in ("platform", "cpu_count", "python", "date"):
        assert report["machine"][key], key
    rows = report["results"]
    assert rows
    for row in rows:
        assert {"key", "metric", "budget", "median", "p10", "p90", "ratio", "met"} <= set(row)
    broken = [r for r in rows if r["key"].endswith((".error", ".server"))]
    assert not broken, broken
    measured = {r["key"].split(".")[0] for r in rows if r["median"] is not None}
    assert set(BENCHMARKS) <= measured
    assert set(report["details"]) == set(BENCHMARKS)
    assert "metric" in done.stdout and "budget" in done.stdout  # the table was printed
