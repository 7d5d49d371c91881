"""The start-up benchmark makes only the measures ``FRONTDESK_BENCH_STARTUP`` names (all by
default), and refuses a name it does not know rather than measuring nothing."""

from __future__ import annotations

import pytest
from bench.bench_startup import MEASURES, chosen_measures


def test_every_measure_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FRONTDESK_BENCH_STARTUP", raising=False)
    assert chosen_measures() == frozenset(MEASURES)


def test_the_measures_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRONTDESK_BENCH_STARTUP", " instructions, terminal ,")
    assert chosen_measures() == frozenset({"instructions", "terminal"})


def test_an_unknown_measure_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRONTDESK_BENCH_STARTUP", "instruction")
    with pytest.raises(ValueError, match="instruction"):
        chosen_measures()
