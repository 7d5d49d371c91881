"""The demo teams, queues (with their settings and members) and tags."""

from __future__ import annotations

from .. import demo_text as text
from ..db import iso
from ..records import insert_queue, insert_tag, insert_team
from .state import DemoState
from .values import new_uuid

_QUEUE_USAGES = {
    "General": {"Email": [f"support@{text.DOMAIN}"], "PstnPhone": ["+4570201234"]},
    "Billing": {"Email": [f"billing@{text.DOMAIN}"]},
    "Nordics": {"PstnPhone": ["+4570201234"]},
}


class Groups(DemoState):
    """Seeds teams, queues and tags."""

    def _groups(self) -> None:
        """Teams and queues (the first queue is the default) with their members."""
        rng = self.rng
        created = iso(self.at(300 * 86400))
        ids = [a.id for a in self.agents]
        memberships = ([ids[0], *ids[1:8]], ids[6:14], [ids[0], *ids[14:19]], ids[18:])
        for name, members in zip(text.TEAM_NAMES, memberships, strict=True):
            insert_team(self.db, id=new_uuid(rng), name=name, created_at=created,
                        members=list(members))
        algorithms = ("AgentPriorityOneAtATimeRandom", "AllAtOnce", "LongestIdle",
                      "AgentPriorityAllAtOnce", "OneAtATimeRandom")
        for index, name in enumerate(text.QUEUE_NAMES):
            queue_id = new_uuid(rng)
            settings = {
                "queueThresholds": {"SlaTimeLimit": 3600, "WaitingConversations": 20 + index,
                                    "LongestWait": 1800, "AvailableAgents": 2,
                                    "SlaPercentage": 80},
                "slaCalculationMethod": "AbandonedIgnored",
                "offerTimeout": 30 + 15 * index,
                "offeringAlgorithm": algorithms[index],
                "memberListType": "SkillBased" if name == "VIP" else "Default",
                "wrapupTimeout": 60,
                "priority": index + 1,
                "offerAbandonedConversations": index % 2 == 0,
                "doNotOfferTimeouts": {"Email": 600, "WidgetChat": 60} if index == 2 else {},
                "isDoNotOfferEnabled": index == 2,
                "isPreferredAgentEnabled": name == "VIP",
                "preferredAgentTimeouts": {"Email": 3600} if name == "VIP" else {},
                "preferredAgentOfflineTimeout": 300,
                "personalAgentOfflineTimeout": 600,
                "isRestricted": name == "VIP",
                "usages": {"queueId": queue_id, "usages": _QUEUE_USAGES.get(name, {})},
            }
            pool = ids if index == 0 else rng.sample(ids[1:], rng.randint(5, 10))
            if name in ("General", "Technical") and ids[0] not in pool:
                pool = [ids[0], *pool]
            queue_members = [(agent, rng.choice((1, 2, 3, None))) for agent in pool]
            insert_queue(self.db, id=queue_id, name=name, created_at=created,
                         is_default=index == 0, settings=settings, members=queue_members)
            self.queues.append(queue_id)

    def _tags(self) -> None:
        """40 tags, some inactive, most with a colour."""
        rng = self.rng
        for index, name in enumerate(text.TAG_NAMES):
            active = index % 9 != 8
            color = rng.choice(text.TAG_COLORS) if rng.random() < 0.6 else None
            tag_id = insert_tag(self.db, id=new_uuid(rng), name=name,
                                created_at=iso(self.at(rng.uniform(60, 300) * 86400)),
                                color=color, state="Active" if active else "Inactive")
            self.tags.append((tag_id, active))
