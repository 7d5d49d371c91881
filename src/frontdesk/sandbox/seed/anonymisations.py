"""A few processed anonymisation requests in the demo data, scrubbed by the sandbox's
own anonymisation code."""

from __future__ import annotations

from datetime import datetime, timedelta

from .. import scrub
from ..clock import ManualClock
from ..context import SandboxContext
from ..db import iso
from ..records import insert_anonymization_request
from .state import DemoState, Person, Plan
from .values import new_uuid


class Anonymisations(DemoState):
    """Seeds processed anonymisation requests."""

    def _anonymisations(self, written: list[tuple[int, Plan, Person, str | None]]) -> None:
        """A few processed anonymisation requests: two conversations, a message, an end user.

        Scrubbed by the sandbox's own anonymisation code, with the clock at processing time.
        """
        rng = self.rng
        demo_id = self.demo.id if self.demo else ""
        closed = [(cid, closed_at) for cid, plan, _requester, closed_at in written
                  if closed_at is not None and (plan.agent is None or plan.agent.id != demo_id)]
        clock = ManualClock(self.now)
        ctx = SandboxContext(db=self.db, clock=clock)

        def request(type_: str, target: str, at: datetime) -> None:
            clock.set(at)
            insert_anonymization_request(
                self.db, id=new_uuid(rng), type=type_, target_entity_id=target,
                requested_by=self.fixed.admin_id, initiated_at=iso(at - timedelta(seconds=2)),
                processed_at=iso(at))

        for cid, closed_at in closed[:2]:
            at = datetime.fromisoformat(str(closed_at).replace("Z", "+00:00")) + \
                timedelta(hours=1)
            request("Conversation", str(cid), at)
            scrub.scrub_conversation(ctx, cid)
        if len(closed) > 2:
            cid = closed[2][0]
            row = self.db.one("SELECT id FROM messages WHERE conversation_id = ? "
                              "ORDER BY seq LIMIT 1", (cid,))
            if row is not None:
                request("Message", f"{cid}_{row['id']}", self.now - timedelta(days=1))
                scrub.scrub_message(ctx, cid, str(row["id"]))
        # an end user whose conversations are all closed (and none the demo agent's)
        busy = {requester.id for _cid, plan, requester, _c in written
                if plan.state != "Closed" or (plan.agent and plan.agent.id == demo_id)}
        asked = {requester.id for _cid, _plan, requester, _c in written}
        for person in self.endusers:
            if person.id in asked and person.id not in busy:
                request("User", person.id, self.now - timedelta(days=3))
                scrub.scrub_user(ctx, person.id)
                break
