"""Team mode against the sandbox: everyone's presence, live changes, teams, sort, filter, no
repaint for a poll that changes nothing, and the offline path."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Select, Static

from frontdesk.api.errors import ApiError
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.team.team import TeamScreen
from frontdesk.tui.widgets.status_bar import StatusBar

Console = Any  # the `console` fixture of tests/tui/conftest.py


async def open_team(console: Any, pilot: Any) -> FrontdeskApp:
    """Signed in, in Team mode, with the Team topics fetched (every shown agent's load
    counted)."""
    app = pilot.app
    await console.ready(pilot)
    await pilot.press("3")
    await pilot.pause()
    assert isinstance(app.screen, TeamScreen)
    await app.session.live.refresh("team:list")
    await app.session.live.refresh("team:presence")
    await pilot.pause()
    for _ in range(30):
        loads = await app.session.live.refresh("team:load")
        if set(app.session.team.shown_agents()) <= {load.agent_id for load in loads}:
            break
    await pilot.pause()
    return app  # type: ignore[no-any-return]


def app_of(pilot: Pilot[Any]) -> Any:
    return pilot.app


def table(app: FrontdeskApp) -> DataTable[Any]:
    return app.screen.query_one("#team-table", DataTable)


def cell(app: FrontdeskApp, agent_id: str, column: str) -> str:
    return str(table(app).get_cell(agent_id, column).plain)


def shown(app: FrontdeskApp, widget_id: str) -> str:
    return str(app.screen.query_one(f"#{widget_id}", Static).render().plain)  # type: ignore[union-attr]


def first_column(app: FrontdeskApp) -> list[str]:
    return [str(value.plain) for value in table(app).get_column("name")]


def http(console: Any) -> httpx2.Client:
    return httpx2.Client(base_url=console.sandbox.base_url,
                        headers={"Authorization": console.sandbox.key}, timeout=10)


async def everyone_with_counts_at_the_top(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    agents = console.sandbox.query(
        "SELECT u.id, COALESCE(p.connection_status, 'Offline') AS c, p.presence_status AS s "
        "FROM users u LEFT JOIN presence p ON p.user_id = u.id WHERE u.kind = 'agent'")
    assert table(app).row_count == len(agents)
    online = sum(1 for a in agents if a["c"] == "Online")
    working = sum(1 for a in agents if a["c"] == "Online" and a["s"] == "Working")
    assert f"{online} of {len(agents)} online" in shown(app, "team-counts")
    assert f"{working} working" in shown(app, "team-counts")
    assert "Working on Email" in shown(app, "team-channels")
    me = app.session.me_id
    assert cell(app, me, "name") == "Demo Agent"
    assert cell(app, me, "status") == "● Online · Working"
    assert cell(app, me, "channels") == "Email, Chat"


def open_assigned(console: Any, agent_id: str) -> int:
    rows = console.sandbox.query("SELECT COUNT(*) AS n FROM conversations WHERE state = 'Open' "
                                 "AND assigned_agent_id = ?", (agent_id,))
    return int(rows[0]["n"])


async def test_each_agent_shows_their_load_and_it_follows_a_claim(console: Any) -> None:
    app = console.app()
    async with app.run_test(size=(100, 40)) as pilot:  # every agent on screen
        await open_team(console, pilot)
        agents = console.sandbox.query("SELECT id FROM users WHERE kind = 'agent'")
        for agent in agents:
            assert cell(app, agent["id"], "load") == str(open_assigned(console, agent["id"]))
        me = app.session.me_id
        before = open_assigned(console, me)
        waiting = console.sandbox.query(
            "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
            "AND queue_id IS NOT NULL ORDER BY id LIMIT 1")[0]["id"]
        with http(console) as client:
            reply = client.put(f"/v1/conversations/{waiting}/claim",
                               json={"agentId": me, "force": False})
            assert reply.status_code == 204
        await app.session.live.refresh("team:load")  # one tick counts everyone again
        await pilot.pause()
        assert cell(app, me, "load") == str(before + 1)


async def a_presence_change_over_http_shows_without_a_key_press(console: Console,
                                                                pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    away = console.sandbox.query(
        "SELECT p.user_id FROM presence p JOIN users u ON u.id = p.user_id "
        "WHERE u.kind = 'agent' AND p.presence_status = 'Away' ORDER BY p.user_id LIMIT 1")
    agent_id = away[0]["user_id"]
    assert "Working" not in cell(app, agent_id, "status")
    with http(console) as client:
        reply = client.put(f"/v1/agents/{agent_id}/presence/working-channel",
                           json={"channel": "Speak", "working": True})
        assert reply.status_code == 204
    await app.session.live.refresh("team:presence")
    await pilot.pause()
    assert cell(app, agent_id, "status") == "● Online · Working"
    assert cell(app, agent_id, "channels") == "Speak"


async def picking_a_team_shows_only_its_members(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    teams = console.sandbox.query("SELECT id, name FROM teams ORDER BY name COLLATE NOCASE")
    team = teams[0]
    members = console.sandbox.query(
        "SELECT agent_id FROM team_members WHERE team_id = ?", (team["id"],))
    select = app.screen.query_one("#team-pick", Select)
    await pilot.press("t")
    await pilot.pause()
    await pilot.press("down", "enter")  # the first team after "Everyone"
    await pilot.pause()
    assert select.value == team["id"]
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert app.session.team.team_id == team["id"]
    assert table(app).row_count == len(members)
    assert {str(key.value) for key in table(app).rows} == {m["agent_id"] for m in members}
    assert f"of {len(members)} online" in shown(app, "team-counts")


async def s_cycles_the_sort_and_slash_filters_as_you_type(console: Console,
                                                          pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    names = first_column(app)
    assert names == sorted(names, key=str.casefold)
    await pilot.press("s")
    assert "sorted by presence" in shown(app, "team-info")
    statuses = [str(v.plain) for v in table(app).get_column("status")]
    ranks = [0 if "Working" in s else 1 if "Online" in s else 2 for s in statuses]
    assert ranks == sorted(ranks)
    await pilot.press("s")
    assert "sorted by load" in shown(app, "team-info")
    loads = [str(v.plain) for v in table(app).get_column("load")]
    assert [int(n) for n in loads] == sorted((int(n) for n in loads), reverse=True)
    await pilot.press("s")
    assert "sorted by last seen" in shown(app, "team-info")
    await pilot.press("s")
    assert "sorted by name" in shown(app, "team-info")

    await pilot.press("slash", *"holm")
    await pilot.pause()
    assert first_column(app) == ["Alice Holm"]
    assert "1 of" in shown(app, "team-info")
    await pilot.press("escape")
    await pilot.pause()
    assert len(first_column(app)) == len(names)
    assert app.focused is table(app)


@pytest.fixture
def refresh_counter(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts ``Widget.refresh`` and ``DataTable.render_line`` calls, by widget id."""
    counts: Counter[str] = Counter()
    original_refresh = Widget.refresh
    original_render_line = DataTable.render_line

    def refresh(self: Widget, *args: Any, **kwargs: Any) -> Any:
        counts[f"refresh:{self.id or type(self).__name__}"] += 1
        return original_refresh(self, *args, **kwargs)

    def render_line(self: DataTable[Any], y: int) -> Any:
        counts[f"render_line:{self.id}"] += 1
        return original_render_line(self, y)

    monkeypatch.setattr(Widget, "refresh", refresh)
    monkeypatch.setattr(DataTable, "render_line", render_line)
    yield counts


async def test_a_poll_that_changes_nothing_repaints_nothing(
        console: Any, refresh_counter: Counter[str]) -> None:
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_team(console, pilot)
        live = app.session.live
        await pilot.pause()
        before = live.stats()["team:presence"]
        refresh_counter.clear()
        await live.refresh("team:presence")
        await live.refresh("team:list")
        await pilot.pause()
        after = live.stats()["team:presence"]
        assert after["polls"] == before["polls"] + 1
        assert after["changes"] == before["changes"]
        screen_ids = {f"{kind}:{w.id}" for w in app.screen.query("*") if w.id
                      for kind in ("refresh", "render_line")}
        touched = {key: n for key, n in refresh_counter.items() if key in screen_ids}
        assert touched == {}

        # a real change touches the changed cells, not the whole screen
        me = app.session.me_id
        with http(console) as client:
            client.put(f"/v1/agents/{me}/presence/working-channel",
                       json={"channel": "Speak", "working": True})
        await live.refresh("team:presence")
        await pilot.pause()
        assert refresh_counter["refresh:team-table"] >= 1
        assert cell(app, me, "channels") == "Email, Chat, Speak"


async def offline_keeps_the_last_rows_and_comes_back_live(console: Console,
                                                          pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    live = app.session.live
    rows = table(app).row_count
    counts = shown(app, "team-counts")
    bar = app.screen.query_one(StatusBar)
    assert bar.connection == "live"

    console.sandbox.refuse_connections()
    try:
        # offline after two failed polls in a row; another topic's timer may take a turn
        # between them (its success or failure counts too), so poll until it says so
        for _ in range(5):
            with pytest.raises(ApiError):
                await live.refresh("team:presence")
            await pilot.pause()
            if bar.connection.startswith(("offline", "retrying")):
                break
        assert bar.connection.startswith(("offline", "retrying"))
        assert table(app).row_count == rows
        assert shown(app, "team-counts") == counts
    finally:
        console.sandbox.accept_connections()

    await live.refresh("team:presence")
    await pilot.pause()
    assert bar.connection == "live"
    assert table(app).row_count == rows


async def test_team_mode_walked(console: Console) -> None:
    """Team mode on one console: everyone with the counts, sorting and filtering, offline and
    back, a presence change arriving, a team picked."""
    async def start(pilot: Pilot[Any]) -> None:
        await open_team(console, pilot)

    await console.walk((100, 30),
                       everyone_with_counts_at_the_top,
                       s_cycles_the_sort_and_slash_filters_as_you_type,
                       offline_keeps_the_last_rows_and_comes_back_live,
                       a_presence_change_over_http_shows_without_a_key_press,
                       picking_a_team_shows_only_its_members,
                       start=start)
