"""Hostile strings shared by the security tests (docs/quality.md checks 1-3), and how to plant them
in a running sandbox as a customer would: an end user's name, a conversation's subject,
message bodies in every content type, email headers, a tag and attachments.

Each escape is given with what :func:`frontdesk.text.clean` shows instead (the visible,
inert placeholder a person sees), so a test can assert both that the dangerous form never
reaches the terminal and that the person can still tell something odd was sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

# ----------------------------------------------------------------------------- escapes

#: OSC 52: write "evil" to the clipboard.
OSC52: Final = "\x1b]52;c;ZXZpbA==\x07"
#: OSC 0 and OSC 2: set the window title (BEL and ST terminated).
OSC0_TITLE: Final = "\x1b]0;pwned-title\x07"
OSC2_TITLE: Final = "\x1b]2;pwned-title\x1b\\"
#: OSC 8: a hyperlink whose text hides its target.
OSC8_LINK: Final = "\x1b]8;;http://evil.example/\x1b\\click me\x1b]8;;\x1b\\"
#: CSI 2 J: clear the screen.
CLEAR_SCREEN: Final = "\x1b[2J"
#: CSI 6 n: device status report (the terminal answers on the app's input).
DEVICE_STATUS: Final = "\x1b[6n"
#: The 8-bit CSI (U+009B) asking the same.
CSI_8BIT: Final = "\x9b6n"
#: NUL.
NUL: Final = "\x00"
#: RIGHT-TO-LEFT OVERRIDE: makes ``exe.doc`` look like ``cod.exe``.
RLO: Final = "\u202e"

ESCAPES: Final[dict[str, str]] = {
    "osc52": OSC52,
    "osc0": OSC0_TITLE,
    "osc2": OSC2_TITLE,
    "osc8": OSC8_LINK,
    "clear": CLEAR_SCREEN,
    "dsr": DEVICE_STATUS,
    "csi8": CSI_8BIT,
    "nul": NUL,
    "rlo": RLO,
}

#: What ``clean`` shows for each escape (a part of it that survives one-line cutting).
PLACEHOLDERS: Final[dict[str, str]] = {
    "osc52": "␛]52;c;ZXZpbA==␇",
    "osc0": "␛]0;pwned-title␇",
    "osc2": "␛]2;pwned-title␛\\",
    "osc8": "␛]8;;http://evil.example/␛\\click me",
    "clear": "␛[2J",
    "dsr": "␛[6n",
    "csi8": "⟨U+009B⟩6n",
    "nul": "␀",
    "rlo": "⟨U+202E⟩",
}

# ----------------------------------------------------------------------------- markup

BOLD: Final = "[bold red]"
LINK: Final = "[link=http://evil.example/]"
CLICK_QUIT: Final = "[@click=app.quit]"
CLOSE: Final = "[/foo]"

#: Markup a customer may type; the click first, so even a name cut to 40 cells carries it.
#: The unquoted ``[link=…]`` is a MarkupError in Textual: parsed, it would crash the app.
MARKUP: Final[dict[str, str]] = {
    "click": CLICK_QUIT + "press me" + "[/]",
    "link": LINK + "harmless" + "[/link]",
    "bold": BOLD + "loud" + "[/]",
    "close": CLOSE,
}

#: Everything at once, in one line: markup first, then the escapes.
HOSTILE: Final = " ".join([*MARKUP.values(), *ESCAPES.values()])
#: The name of a deactivated tag (short: the tag picker's notice about it cuts names).
INACTIVE_TAG: Final = CLICK_QUIT + "mallory off[/]"

#: Characters that must never reach a terminal from customer text.
FORBIDDEN_CHARS: Final = ("\x9b", "\x9d", "\x00", RLO)
#: Sequences that must never reach a terminal from customer text.
FORBIDDEN_SEQUENCES: Final = (CLEAR_SCREEN, DEVICE_STATUS, "\x1b]52", "\x1b]0;", "\x1b]2;",
                              "\x1b]8;")

#: An attachment whose URL is an ordinary web address (the name around it is hostile).
CLEAN_ATTACHMENT: Final = "https://files.example/report-2026.pdf?id=7&x=%5Bbold%5D"

#: A word that occurs in every planted name and subject, to filter the inbox by.
WORD: Final = "mallory"


def iso(moment: datetime) -> str:
    """A sandbox time (``…Z`` with milliseconds)."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@dataclass(frozen=True)
class Planted:
    """What :func:`plant` wrote."""

    conversation_id: int
    enduser_id: str
    tag_id: str
    inactive_tag_id: str
    link: str


def plant(sandbox: SandboxServer, *, agent_email: str, now: datetime,
          text: str = HOSTILE) -> Planted:
    """Write one conversation full of ``text``, assigned to the agent ``agent_email``.

    The end user's name, the subject, the tag's name, the attachments' names and URLs and
    message bodies (Text, Markdown, Html, an email with hostile headers) all carry ``text``;
    the oldest message's attachment has ``text`` in its URL, the next one's is
    :data:`CLEAN_ATTACHMENT`, and the newest message holds a Markdown link whose label lies
    about its target. A deactivated
    tag named :data:`INACTIVE_TAG` is made too.
    """
    link = "https://evil.example/steal?session=1"

    def write(ctx: SandboxContext) -> Planted:
        db = ctx.db
        agent = db.all("SELECT id FROM users WHERE email = ?", (agent_email,))[0]["id"]
        start = now - timedelta(minutes=30)
        with db.tx():
            user = records.insert_user(db, kind="enduser", created_at=iso(start),
                                       display_name=f"Mallory {text}",
                                       email="mallory@example.com")
            cid = records.insert_conversation(
                db, type="EmailConversation", channel="Email", requester_id=user,
                created_at=iso(start), subject=f"Mallory {text}", assigned_agent_id=agent,
                assigned_at=iso(start), last_activity_at=iso(now - timedelta(minutes=1)))
            tag = records.insert_tag(db, name=f"mallory {text}", created_at=iso(start))
            records.tag_conversation(db, cid, tag, iso(start))
            inactive = records.insert_tag(db, name=INACTIVE_TAG, created_at=iso(start),
                                          state="Inactive")
            bodies: list[dict[str, Any]] = [
                {"_type": "EmailAttributes", "direction": "Inbound",
                 "subject": f"Mallory {text}",
                 "from": {"email": "mallory@example.com", "name": f"Mallory {text}"},
                 "to": [{"email": "support@example.com", "name": text}],
                 "content": {"_type": "Text", "value": f"text body {text}"},
                 "attachments": [{"url": "https://files.example/" + text,
                                  "prettyName": f"invoice {text}.pdf"}]},
                {"_type": "EmailAttributes", "direction": "Inbound",
                 "content": {"_type": "Markdown", "value": f"markdown body {text}"},
                 "attachments": [{"url": CLEAN_ATTACHMENT, "prettyName": f"report {text}"}]},
                {"_type": "EmailAttributes", "direction": "Inbound",
                 "content": {"_type": "Html", "value": f"<p>html body {text}</p>"}},
                {"_type": "EmailAttributes", "direction": "Inbound",
                 "content": {"_type": "Markdown",
                             "value": f"[your bank, safe]({link}) {CLICK_QUIT}x"}},
            ]
            for index, attributes in enumerate(bodies):
                records.insert_message(
                    db, conversation_id=cid, author_id=user,
                    created_at=iso(start + timedelta(minutes=index + 1)),
                    direction="Inbound", attributes=attributes)
        return Planted(cid, user, tag, inactive, link)

    return sandbox.call(write)


#: A custom attribute value as a customer-facing form may fill it: clipboard and title
#: sequences ended by ``ESC \`` (Rich strips neither).
ATTRIBUTE_VALUE: Final = "ORD-1\x1b]52;c;U1RPTEVO\x1b\\\x1b]2;PWNED\x1b\\"


@dataclass(frozen=True)
class PlantedMore:
    """What :func:`plant_everywhere` wrote beside :func:`plant`'s conversation."""

    agent_id: str
    enduser_id: str
    team_id: str
    queue_id: str
    attribute_id: str


def plant_everywhere(sandbox: SandboxServer, planted: Planted, *, agent_email: str,
                     now: datetime, text: str = HOSTILE) -> PlantedMore:
    """Hostile text in every other place the service returns it: an end user who comes first
    in People (the oldest), an agent's name (title and
    clipboard sequences first, so an input pre-filled with it shows them; a member of a team
    and a queue of the demo agent), a team's and a queue's name, a conversation
    attribute definition whose label and option labels (nested too) carry ``text``, set on
    ``planted``'s conversation, and its order number set to :data:`ATTRIBUTE_VALUE`."""

    def write(ctx: SandboxContext) -> PlantedMore:
        db = ctx.db
        me = db.all("SELECT id FROM users WHERE email = ?", (agent_email,))[0]["id"]
        at = iso(now - timedelta(hours=1))
        with db.tx():
            agent = records.insert_user(db, kind="agent", created_at=at,
                                        display_name=f"Mallory {OSC2_TITLE}{OSC52} {text}",
                                        email="mallory.agent@example.com",
                                        first_name=f"mallory {text}")
            early = records.insert_user(db, kind="enduser", created_at="2020-01-01T00:00:00.000Z",
                                        display_name=f"Mallory early {OSC52} {text}",
                                        email="mallory.early@example.com",
                                        external_id=f"crm {text}")
            team = records.insert_team(db, name=f"mallory team {text}", created_at=at,
                                       members=[me, agent])
            queue = records.insert_queue(db, name=f"mallory queue {text}", created_at=at,
                                         members=[(me, 1), (agent, None)])

            def option(label: str, value: str, order: int,
                       nested: list[dict[str, Any]] | None = None) -> dict[str, Any]:
                return {"id": records.new_id(), "label": label, "value": value,
                        "nestedOptions": nested or [], "isDeactivated": False,
                        "orderIndex": order}

            options = [option(f"mallory option {text}", "evil", 0,
                              [option(f"nested {text}", "deeper", 0)]),
                       option("Harmless", "harmless", 1)]
            attribute = records.insert_attribute_definition(
                db, entity_type="Conversation", identifier="mallory_pick",
                label=f"Mallory pick {text}", description=f"described {text}",
                input_definition={"_type": "Select", "options": options}, created_at=at,
                position=0)
            records.set_attribute_value(db, entity_type="Conversation",
                                        entity_id=planted.conversation_id,
                                        attribute_id=attribute, value=["evil", "deeper"])
            order = db.all("SELECT id FROM custom_attribute_definitions "
                           "WHERE identifier = 'order_number'")[0]["id"]
            records.set_attribute_value(db, entity_type="Conversation",
                                        entity_id=planted.conversation_id,
                                        attribute_id=order, value=ATTRIBUTE_VALUE)
        return PlantedMore(agent, early, team, queue, attribute)

    return sandbox.call(write)
