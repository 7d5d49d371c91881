"""The gateway's member table: keys kept as hashes, revocation and rotation seen at once."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from frontdesk.api.roles import Role
from frontdesk.gateway.members import MemberError, Members


def test_a_member_signs_in_with_the_key_shown_once_and_only_a_hash_is_kept(
    tmp_path: Path,
) -> None:
    db = tmp_path / "gw" / "gateway.db"
    members = Members(db)
    member, key = members.add("a1", "ana@example.com", "Ana", Role.SUPERVISOR)
    assert members.authenticate(key) == member
    assert members.authenticate(key + "x") is None
    assert key.encode() not in db.read_bytes()
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    with pytest.raises(MemberError):
        members.add("a1", "ana@example.com", "Ana", Role.AGENT)


def test_revoke_and_rotate_are_seen_at_once_by_another_handle_on_the_same_file(
    tmp_path: Path,
) -> None:
    db = tmp_path / "gateway.db"
    serving, command = Members(db), Members(db)
    _, key = command.add("a2", "bo@example.com", None, Role.AGENT)
    assert serving.authenticate(key) is not None
    command.revoke("BO@example.com")
    assert serving.authenticate(key) is None
    member, fresh = command.rotate("a2")
    assert not member.revoked
    assert serving.authenticate(key) is None
    assert serving.authenticate(fresh) == member
    assert [m.email for m in serving.all()] == ["bo@example.com"]
    with pytest.raises(MemberError):
        command.find("nobody@example.com")
