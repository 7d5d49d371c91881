"""Every picture: its name, the steps to it and the screen expected in front."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from textual.app import App

from .scene import THREAD_WHERE, WHATSAPP_WHERE, Skip, Step, project_module
from .steps import follow_position, open_thread, press, refresh, write_reply

__all__ = ["Shot", "shots"]


@dataclass
class Shot:
    """One picture: how to get there from a signed-in console, and how to tell it worked.

    ``expect`` names the class of the screen in front once the steps are done (empty: any).
    ``app`` makes a different app than the console (the first run).
    """

    name: str
    steps: list[Step] = field(default_factory=list)
    expect: str = ""
    app: Callable[[], App[Any]] | None = None
    signed_in: bool = True


def _first_run_app() -> App[Any]:
    module = project_module("frontdesk.tui.screens.first_run")
    app_class = getattr(module, "FirstRunApp", None)
    if app_class is None:
        raise Skip("frontdesk.tui.screens.first_run has no FirstRunApp")
    app: App[Any] = app_class()
    return app


def shots() -> list[Shot]:
    """Every picture, in the order they are taken."""
    inbox = [refresh("inbox")]
    return [
        Shot("first-run", [press()], "WelcomeScreen", app=_first_run_app, signed_in=False),
        Shot("first-run-connect", [press("enter")], "ConnectScreen", app=_first_run_app,
             signed_in=False),
        Shot("inbox", inbox, "InboxScreen"),
        Shot("tag-picker", [*inbox, press("t")], "TagPicker"),
        Shot("transfer-picker", [*inbox, press("T")], "QueuePicker"),
        Shot("followup-picker", [*inbox, press("f")], "FollowupPicker"),
        Shot("help", [press("question_mark")], "HelpScreen"),
        Shot("outbox", [press("O")], "OutboxScreen"),
        Shot("new-conversation", [press("n")], "NewConversationScreen"),
        Shot("thread", [open_thread(THREAD_WHERE)], "ThreadScreen"),
        Shot("composer-preview",
             [open_thread(WHATSAPP_WHERE, [write_reply, press("ctrl+t")])], "ThreadScreen"),
        Shot("presence", [press("3"), refresh("team:list", "team:presence", "team:load",
                                              "presence:me"), press("p")], "PresenceScreen"),
        Shot("team", [press("3"), refresh("team:list", "team:presence", "team:load")],
             "TeamScreen"),
        Shot("queues", [press("2"), refresh("queues", "queues")], "QueuesScreen"),
        Shot("queue-position", [press("2"), refresh("queues", "queues"), follow_position],
             "QueuesScreen"),
        Shot("people-end-users", [press("4")], "PeopleScreen"),
        Shot("people-agents", [press("4", "t")], "PeopleScreen"),
        Shot("admin-tags", [press("5", "enter", "i")], "AdminScreen"),
        Shot("admin-business-hours",
             [press("5", "down", "down", "down", "down", "down", "enter", "plus")],
             "AdminScreen"),
        Shot("stats", [press("6"), refresh("stats")], "StatsScreen"),
    ]
