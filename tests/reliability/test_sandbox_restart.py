"""The sandbox keeps everything across a restart, and its rate budget answers 429 with
Retry-After."""

from __future__ import annotations

import httpx2

from frontdesk.sandbox.server import SandboxServer


def test_nothing_is_lost_across_a_restart(sandbox: SandboxServer) -> None:
    headers = {"Authorization": sandbox.key}
    with httpx2.Client(base_url=sandbox.base_url, headers=headers, timeout=10) as client:
        tag = client.post("/v1/tags", json={"name": "survives-restart"}).json()["data"]
        user = client.post("/v1/endusers", json={"displayName": "Kept"}).json()["data"]
        before = {
            "conversations": sandbox.query("SELECT count(*) AS n FROM conversations")[0]["n"],
            "messages": sandbox.query("SELECT count(*) AS n FROM messages")[0]["n"],
        }
    sandbox.restart()
    with httpx2.Client(base_url=sandbox.base_url, headers=headers, timeout=10) as client:
        assert client.get(f"/v1/tags/{tag['id']}").json()["data"]["name"] == "survives-restart"
        assert client.get(f"/v1/endusers/{user['id']}").json()["data"]["displayName"] == "Kept"
    after = {
        "conversations": sandbox.query("SELECT count(*) AS n FROM conversations")[0]["n"],
        "messages": sandbox.query("SELECT count(*) AS n FROM messages")[0]["n"],
    }
    assert after == before


def test_the_rate_budget_answers_429_with_retry_after(limited_sandbox: SandboxServer) -> None:
    headers = {"Authorization": limited_sandbox.key}
    with httpx2.Client(base_url=limited_sandbox.base_url, headers=headers, timeout=10) as client:
        statuses = [client.get("/v1/tags") for _ in range(12)]
    refused = [r for r in statuses if r.status_code == 429]
    assert refused, "12 quick requests must exceed a burst of 4"
    assert all(int(r.headers["Retry-After"]) >= 1 for r in refused)
    assert all(r.json()["message"] for r in refused)
    assert sum(r.status_code == 200 for r in statuses) >= 4


def test_the_rate_budget_is_per_key(seeded_db, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    db = tmp_path / "sandbox.db"
    shutil.copyfile(seeded_db, db)
    with SandboxServer(db, keys=["one", "two"], rate_limit=True) as server:
        for key in ("one", "two"):
            ok = [httpx2.get(server.base_url + "/v1/tags", headers={"Authorization": key})
                  .status_code for _ in range(4)]
            assert ok == [200, 200, 200, 200]
