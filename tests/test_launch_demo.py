"""The demo's target is made without loading the sandbox (it starts after the first frame)."""

from __future__ import annotations

from frontdesk import launch
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL


def test_the_demo_signs_in_as_the_seeded_demo_agent() -> None:
    assert launch.DEMO_IDENTITY == DEMO_AGENT_EMAIL
