"""Every form of the console takes its fields' keys in one burst (``text tab text tab text``
in one read of the terminal, as over SSH or from a fast typist) and each value lands in its
own field.

The forms are found in the console's source, so a new one cannot be forgotten: a place that
composes a text field (an ``Input``, a ``TextArea``, the composer) or opens one of the shared
forms (``FormScreen``, ``PromptScreen``, ``TypeBackScreen``) is a form, and the test fails
while one is neither walked here (``WALKS``: the keys from the inbox that open it) nor said to
be the same screen as one that is (``SAME_AS``, with the reason).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widget import Widget

import frontdesk.tui
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.first_run import ConnectScreen, FirstRunApp, GatewayConnectScreen
from frontdesk.tui.widgets.safe import Input, TextArea

Console = Any  # the `console` fixture of tests/tui/conftest.py

#: the calls that open a shared form (each call site is a form of its own)
SHARED_FORMS = {"FormScreen", "PromptScreen", "TypeBackScreen"}
#: the widgets a person types into
FIELDS = ("Input", "TextArea", "Composer")


def _called(func: ast.expr) -> list[str]:
    """The names a call may call (``(A if x else B)(…)`` calls A or B)."""
    if isinstance(func, ast.IfExp):
        return _called(func.body) + _called(func.orelse)
    name = getattr(func, "id", None) or getattr(func, "attr", None)
    return [name] if isinstance(name, str) else []


def discovered() -> set[str]:
    """Every form in the console's source: ``module:Class`` of a class composing a text
    field, ``module:qualified.name`` of a function opening a shared form."""
    root = Path(frontdesk.tui.__file__).parent
    found: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        if "safe" in path.parts:  # the text widgets themselves
            continue
        module = ".".join(path.relative_to(root.parent.parent).with_suffix("").parts)

        def visit(node: ast.AST, stack: list[ast.AST], module: str = module) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    visit(child, [*stack, child])
                    continue
                if isinstance(child, ast.Call):
                    names = _called(child.func)
                    where = [getattr(s, "name", "") for s in stack]
                    if SHARED_FORMS & set(names):
                        found.add(f"{module}:{'.'.join(where)}")
                    elif any(name.endswith(FIELDS) for name in names):
                        classes = [s.name for s in stack if isinstance(s, ast.ClassDef)]
                        found.add(f"{module}:{classes[0] if classes else '.'.join(where)}")
                visit(child, stack)

        visit(ast.parse(path.read_text(encoding="utf-8")), [])
    return found


@dataclass(frozen=True)
class Walk:
    """One form: the keys from the settled inbox that open it (pressed one at a time), an
    action of the screen then in front (for what only the palette reaches), the class of the
    screen that then holds the form, and how many of its text fields the burst fills (None:
    every one; a mode screen's filter line is one among its lists). What a field held
    already is replaced (an input selects it all as it takes the focus) or kept around the
    text typed (a text area)."""

    forms: tuple[str, ...]
    keys: tuple[str, ...]
    expect: str
    action: str = ""
    fields: int | None = None
    #: what the service must hold first (a subscription to edit)
    prepare: Callable[[FrontdeskApp], Awaitable[object]] | None = None


ADMIN = "frontdesk.tui.screens.admin."
INBOX = "frontdesk.tui.screens.inbox."
PEOPLE = "frontdesk.tui.screens.people."
SHARED = "frontdesk.tui.screens.shared."


async def a_webhook(app: FrontdeskApp) -> object:
    """A subscription for Admin → Webhooks to edit (the seeded organisation has none)."""
    assert app.session is not None
    return await app.session.webhooks.create("Burst", "https://hooks.example.com/burst",
                                             {"ConversationCreated"})


def admin(section: int, *keys: str) -> tuple[str, ...]:
    """Admin, its menu's first row, ``section`` rows down, opened; then ``keys``."""
    return ("5", "escape", "home", *["down"] * section, "enter", *keys)


WALKS = [
    Walk((f"{INBOX}inbox:InboxScreen",), ("slash",), "InboxScreen", fields=1),
    Walk((f"{INBOX}inbox:InboxScreen.action_search", f"{SHARED}pickers:PromptScreen"), ("s",),
         "PromptScreen"),
    Walk((f"{INBOX}inbox:InboxScreen.action_conversation_bulk_tag",), ("space", "B"),
         "PromptScreen"),
    Walk(("frontdesk.tui.conversation_actions:ConversationActions."
          "action_conversation_bulk_tag",), ("enter", "B"), "PromptScreen"),
    Walk((f"{INBOX}new_conversation:NewConversationScreen",), ("n",), "NewConversationScreen"),
    Walk((f"{INBOX}open_conversation:OpenConversationScreen",), ("o",), "OpenConversationScreen"),
    Walk((f"{INBOX}thread:ThreadScreen",), ("enter", "i"), "ThreadScreen", fields=1),
    Walk(("frontdesk.tui.widgets.attachments:AttachScreen",), ("enter", "i", "ctrl+a"),
         "AttachScreen"),
    Walk((f"{INBOX}article_finder:ArticleFinder",), ("enter", "i", "ctrl+g"), "ArticleFinder"),
    Walk((f"{INBOX}quick_responses:QuickResponsePicker",), ("enter", "ctrl+o"),
         "QuickResponsePicker"),
    Walk((f"{INBOX}links:LinkParentScreen",), ("enter", "L"), "LinkParentScreen"),
    Walk((f"{INBOX}ratings:RatingsScreen.action_offer",), ("enter", "v", "o"), "FormScreen",
         fields=0),  # a choice of kind and nothing to type
    Walk((f"{INBOX}ratings:RatingsScreen.action_submit",), ("enter", "v", "s"), "FormScreen"),
    Walk((f"{SHARED}pickers:FilterPicker",), ("t",), "TagPicker"),
    Walk(("frontdesk.tui.widgets.attribute_editor:AttributeEditor",), ("enter", "a"),
         "AttributesPanel"),
    Walk(("frontdesk.tui.screens.queues.queues:QueuesScreen",), ("2", "P"), "QueuesScreen",
         fields=1),
    Walk((f"{SHARED}history:ActivityScreen",), ("3", "a"), "ActivityScreen"),
    Walk(("frontdesk.tui.screens.team.team:TeamScreen",), ("3", "slash"), "TeamScreen",
         fields=1),
    # People stays on the tab it shows: end users first, then the agents, then back
    Walk((f"{PEOPLE}endusers:EndUsersPane.find",), ("4", "slash"), "FormScreen"),
    Walk((f"{PEOPLE}endusers:EndUsersPane.new", f"{SHARED}form:FormScreen"), ("4", "n"),
         "FormScreen"),
    Walk((f"{PEOPLE}enduser_edit:edit_enduser",), ("4", "e"), "FormScreen"),
    Walk((f"{PEOPLE}enduser_edit:bulk_from_csv",), ("4", "b"), "FormScreen"),
    Walk((f"{PEOPLE}anonymize:ask_and_anonymize", f"{SHARED}confirm:TypeBackScreen"), ("4", "a"),
         "TypeBackScreen"),
    Walk((f"{PEOPLE}agents:AgentsPane.filter_form",), ("4", "t", "slash"), "FormScreen"),
    Walk((f"{PEOPLE}agents:AgentsPane.new",), ("4", "n"), "FormScreen"),
    Walk((f"{PEOPLE}agents:AgentsPane.edit",), ("4", "e"), "FormScreen"),
    Walk((f"{PEOPLE}agents:AgentsPane.bulk",), ("4", "b"), "FormScreen"),
    Walk((f"{ADMIN}tags:TagsPane.new",), admin(0, "n"), "FormScreen"),
    Walk((f"{ADMIN}teams:TeamsPane.new",), admin(1, "n"), "FormScreen"),
    Walk((f"{ADMIN}members:MembersScreen",), admin(1, "m"), "MembersScreen"),
    Walk((f"{ADMIN}queues:QueuesPane.new",), admin(2, "n"), "FormScreen"),
    Walk((f"{ADMIN}hours:HoursPane.open_at",), admin(5, "a"), "FormScreen"),
    Walk((f"{ADMIN}anonymization:AnonymizationPane.lookup",), admin(6, "g"), "FormScreen"),
    Walk((f"{ADMIN}anonymization:AnonymizationPane.request_conversation",), admin(6),
         "FormScreen", action="anonymization_conversation"),
    Walk((f"{ADMIN}anonymization:AnonymizationPane.request_deprecated",), admin(6),
         "FormScreen", action="anonymization_deprecated"),
    Walk((f"{ADMIN}webhooks:WebhooksPane.new",), admin(10, "n"), "FormScreen"),
    Walk((f"{ADMIN}webhooks:WebhooksPane.edit",), admin(10, "r", "e"), "FormScreen",
         prepare=a_webhook),
    Walk((f"{ADMIN}article_editor:ArticleEditor",), admin(11, "down", "down", "enter", "e"),
         "ArticleEditor"),
    Walk((f"{ADMIN}article_editor:ArticleEditor.action_image",),
         admin(11, "down", "down", "enter", "e", "ctrl+a"), "PromptScreen"),
    Walk(("frontdesk.tui.alerts:alert_settings_form",), ("f2",), "FormScreen", fields=1),
]

#: forms not walked themselves, because the screen is one a walk above fills, and why
SAME_AS = {
    f"{ADMIN}anonymization:AnonymizationPane.request_conversation.filled":
        "the type-back question (TypeBackScreen), walked from People's anonymise",
    f"{ADMIN}anonymization:AnonymizationPane.request_deprecated.filled":
        "the type-back question (TypeBackScreen), walked from People's anonymise",
    f"{INBOX}thread:ThreadScreen._anonymize_asked":
        "the type-back question (TypeBackScreen), walked from People's anonymise",
    f"{ADMIN}audit:AuditPane":
        "Admin → Audit is offered only through a team gateway (this console has none); its "
        "one field is a member filter line like Team's, walked above",
}


#: the first run's forms, walked in their own app (below)
FIRST_RUN = "frontdesk.tui.screens.first_run:ConnectScreen"
FIRST_RUN_GATEWAY = "frontdesk.tui.screens.first_run:GatewayConnectScreen"


def test_every_form_is_walked_or_said_to_be_the_same_as_one() -> None:
    walked = {form for walk in WALKS for form in walk.forms} | {FIRST_RUN, FIRST_RUN_GATEWAY}
    found = discovered()
    assert found - walked - set(SAME_AS) == set(), "forms no burst walks: add them to WALKS"
    assert (walked | set(SAME_AS)) - found == set(), "WALKS names forms that are gone"


def typed(field: Widget, index: int) -> str:
    """What the burst types into the ``index``-th field: digits where only digits go."""
    if isinstance(field, Input) and (field.type in ("integer", "number") or (
            field.restrict and not re.fullmatch(field.restrict, "word"))):
        return f"4{index}"
    return f"word{index}"


def value_of(widget: Widget) -> str:
    """What a text field holds."""
    if isinstance(widget, TextArea):
        return widget.text
    assert isinstance(widget, Input)
    return widget.value


def replaced(widget: Widget) -> bool:
    """Whether typing into the field replaces what it held: an input selects all of it
    when it takes the focus (a tab, or the form's first field)."""
    return isinstance(widget, Input) and widget.select_on_focus


async def fill(console: Console, pilot: Pilot[Any],
               walk: Walk) -> list[tuple[Widget, str, str]]:
    """One burst from the focused field: each text field's text and a tab to the next (a
    field that is not text, a choice or a box, only tabbed past); the fields, what each
    held before and the text typed into it."""
    screen = pilot.app.screen
    chain = screen.focus_chain
    focused = screen.focused
    start = chain.index(focused) if focused in chain else 0
    order = chain[start:] + chain[:start]
    texts = [w for w in order if isinstance(w, Input | TextArea)]
    texts = texts[:walk.fields] if walk.fields is not None else texts
    keys: list[str] = []
    filled: list[tuple[Widget, str, str]] = []
    for widget in order:
        if len(filled) == len(texts):
            break
        if widget in texts:
            text = typed(widget, len(filled))
            filled.append((widget, value_of(widget), text))
            keys.extend(text)
        if len(filled) < len(texts):
            keys.append("tab")
    await console.burst(pilot, *keys)
    return filled


def misplaced(walk: Walk, filled: list[tuple[Widget, str, str]]) -> list[str]:
    """What the burst left in a field other than it should (nothing: all is well)."""
    wrong = [] if filled or walk.fields == 0 else [f"{walk.forms[0]}: no text field to fill"]
    for widget, before, text in filled:
        value = value_of(widget)
        kept = "" if replaced(widget) else before
        if text not in value or value.replace(text, "", 1) != kept:
            wrong.append(f"{walk.forms[0]}: {widget!r} holds {value!r}, "
                         f"not {text!r} typed into {kept!r}")
    return wrong


async def test_the_first_runs_connect_form_takes_a_burst(console: Console) -> None:
    app = FirstRunApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # "Connect to a service"
        await console.idle(pilot)
        assert isinstance(app.screen, ConnectScreen)
        walk = Walk((FIRST_RUN,), ("enter",), "ConnectScreen")
        filled = await fill(console, pilot, walk)
        assert len(filled) >= 4  # name, the two addresses, the key, who I am
        assert misplaced(walk, filled) == []


async def test_the_first_runs_gateway_form_takes_a_burst(console: Console) -> None:
    app = FirstRunApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # "Connect through my team's gateway"
        await console.idle(pilot)
        assert isinstance(app.screen, GatewayConnectScreen)
        walk = Walk((FIRST_RUN_GATEWAY,), ("down", "enter"), "GatewayConnectScreen")
        filled = await fill(console, pilot, walk)
        assert len(filled) >= 3  # name, the gateway's address, the personal key
        assert misplaced(walk, filled) == []


@pytest.mark.slow
async def test_every_form_takes_a_burst_into_the_right_fields(console: Console) -> None:
    app = console.app()
    async with app.run_test(size=(80, 24)) as pilot:  # the least supported terminal
        assert isinstance(app, FrontdeskApp)
        await console.ready(pilot)
        wrong: list[str] = []
        for walk in WALKS:
            if walk.prepare is not None:
                await walk.prepare(app)
            for key in walk.keys:
                await pilot.press(key)
                await console.idle(pilot)
            if walk.action:
                await app.screen.run_action(walk.action)
                await console.idle(pilot)
            shown = type(app.screen).__name__
            if shown != walk.expect:
                wrong.append(f"{walk.forms[0]}: {shown} in front, not {walk.expect}")
            else:
                wrong.extend(misplaced(walk, await fill(console, pilot, walk)))
            await console.home(pilot)
            await app.switch_mode("inbox")  # not "1": a mode's own text field may be focused
            await console.fresh_inbox(pilot)
        assert not wrong, "\n".join(wrong)
