"""The demo agents (with presence) and end users (with custom attributes)."""

from __future__ import annotations

from typing import Any

from .. import demo_text as text
from ..db import dumps, iso
from ..records import insert_user, set_presence
from .names import DEMO_AGENT_EMAIL, WORKING_CHANNELS
from .state import DemoState, Person
from .values import ascii_slug, new_uuid


class People(DemoState):
    """Seeds agents and end users."""

    def _agents(self) -> None:
        """The demo agent first, then the others, with a mix of presence."""
        rng = self.rng
        names = [("Demo", "Agent"), *text.AGENT_NAMES]
        for index, (first, last) in enumerate(names):
            demo = index == 0
            email = DEMO_AGENT_EMAIL if demo else \
                f"{ascii_slug(first)}.{ascii_slug(last)}@{text.DOMAIN}"
            roles = ["Admin"] if index in (3, 9) else ["Agent"]
            if index == 15:
                roles = ["Agent", "Admin"]
            phone = f"+4560{rng.randint(100000, 999999)}" if rng.random() < 0.6 else None
            agent_id = insert_user(
                self.db, kind="agent", id=new_uuid(rng),
                created_at=iso(self.at(rng.uniform(100, 380) * 86400)),
                display_name=f"{first} {last}", email=email, phone_number=phone,
                first_name=first, last_name=last, roles=roles,
                avatar_url=f"https://avatars.{text.DOMAIN}/{ascii_slug(first)}.png"
                if rng.random() < 0.5 else None)
            if demo:
                online, status, channels = True, "Working", ["Email", "InteractiveChat"]
            else:
                online = rng.random() < 0.65
                status = "Working" if online and rng.random() < 0.75 else "Away"
                channels = sorted(rng.sample(WORKING_CHANNELS, rng.randint(1, 3))) \
                    if status == "Working" else []
            seen = self.at(rng.uniform(5, 600) if online else rng.uniform(3600, 5 * 86400))
            set_presence(self.db, agent_id, connection="Online" if online else "Offline",
                         status=status, channels=channels, last_seen=iso(seen))
            person = Person(agent_id, first, f"{first} {last}", email, phone)
            self.agents.append(person)
            if demo:
                self.demo = person

    def _person_rows(self, count: int, *, start: int, full: bool
                     ) -> tuple[list[Person], list[tuple[Any, ...]]]:
        """End users: people and their ``users`` rows (not yet written)."""
        rng = self.rng
        people: list[Person] = []
        rows: list[tuple[Any, ...]] = []
        for n in range(start, start + count):
            first, last = rng.choice(text.FIRST_NAMES), rng.choice(text.LAST_NAMES)
            name = f"{first} {last}"
            local = f"{ascii_slug(first)}.{ascii_slug(last)}".strip(".") or "customer"
            email = f"{local}{n}@{rng.choice(('example.com', 'example.org', 'example.net'))}" \
                if full or rng.random() < 0.9 else None
            phone = self._phone() if full or rng.random() < 0.8 else None
            external = f"crm-{n:06d}" if rng.random() < 0.3 else None
            middle = dumps([rng.choice(text.MIDDLE_NAMES)]) if rng.random() < 0.1 else None
            extra = dumps([f"{local}.work{n}@example.com"]) if rng.random() < 0.1 else None
            user_id = new_uuid(rng)
            rows.append((user_id, "enduser", iso(self.at(rng.uniform(61, 700) * 86400)),
                         name, email, phone, external, first, last, middle, extra))
            people.append(Person(user_id, first, name, email, phone))
        return people, rows

    def _phone(self) -> str:
        """A plausible E.164 number from one of a few countries."""
        rng = self.rng
        country = rng.choice(("45", "45", "1", "44", "81", "34", "49"))
        digits = {"45": 8, "1": 10, "44": 10, "81": 10, "34": 9, "49": 10}[country]
        if country == "1":
            return f"+1{rng.choice(('202', '212', '415'))}555{rng.randint(0, 9999):04d}"
        return f"+{country}{rng.randint(10 ** (digits - 1), 10 ** digits - 1)}"

    def _endusers(self) -> None:
        """200 customers, half of them with custom attributes."""
        people, rows = self._person_rows(200, start=1, full=False)
        self._write_users(rows)
        self.endusers = people
        tier_id, _, tiers = self.fixed.attributes["customer_tier"]
        account_id, _, _ = self.fixed.attributes["account_number"]
        language_id, _, languages = self.fixed.attributes["preferred_language"]
        values: list[tuple[str, str, str, Any]] = []
        for person in people:
            if self.rng.random() < 0.5:
                values.append(("Contact", person.id, tier_id, self.rng.choice(tiers or [[]])))
            if self.rng.random() < 0.4:
                values.append(("Contact", person.id, account_id,
                               f"ACC-{self.rng.randint(100000, 999999)}"))
            if self.rng.random() < 0.2:
                values.append(("Contact", person.id, language_id,
                               self.rng.choice(languages or [[]])))
        self._write_values(values)
