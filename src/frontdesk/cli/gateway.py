"""``frontdesk gateway …``: run the team gateway and manage its members.

``serve`` runs the server; ``add-member``, ``members``, ``revoke``, ``rotate`` and ``audit``
work on its database (a running gateway sharing the file sees every change at once);
``unsubscribe`` removes the webhook subscription ``serve --public-url`` made at the service. The
organisation's key comes from ``--upstream-key-file`` (a file only its owner may read) or
``FRONTDESK_UPSTREAM_KEY``, never from the command line, where every user of the machine could
read it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .common import Fail, clean_text, parse

if TYPE_CHECKING:
    from ..api.models.agents import Agent
    from ..api.secrets import ApiKey
    from ..gateway.members import Member, Members

KEY_ENV = "FRONTDESK_UPSTREAM_KEY"
URL_ENV = "FRONTDESK_UPSTREAM_URL"
DEFAULT_PORT = 8780

_DESCRIPTION = """\
The team gateway: one server holding the organisation's API key, to which every member of the
team signs in with a personal key that carries a role (agent, supervisor, admin).

  serve         run the gateway (the service's v1 API at the same paths, plus /gateway/v1)
  add-member    make an agent a member with a role; prints their personal key once
  members       list the members
  revoke        refuse a member's key from now on
  rotate        give a member a new key (the old one stops working at once)
  set-role      change a member's role (their key stays)
  audit         what members wrote through the gateway, newest first
  unsubscribe   remove the gateway's webhook subscription at the service (serve
                --public-url makes it)

The organisation's key is read from --upstream-key-file (mode 0600) or FRONTDESK_UPSTREAM_KEY.
"""


def gateway_main(argv: Sequence[str]) -> int:
    """``frontdesk gateway COMMAND``: run the team gateway or manage its members."""
    parser = argparse.ArgumentParser(
        prog="frontdesk gateway", description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _serve_parser(commands)
    add = commands.add_parser("add-member", help="make an agent a member with a role")
    add.add_argument("agent", metavar="AGENT", help="the agent's email or agent id")
    add.add_argument("--role", required=True, choices=("agent", "supervisor", "admin"))
    _upstream_options(add)
    _db_option(add)
    _db_option(commands.add_parser("members", help="list the members"))
    for name, text in (("revoke", "refuse a member's key from now on"),
                       ("rotate", "a new key for a member, the old one dead at once")):
        command = commands.add_parser(name, help=text)
        command.add_argument("agent", metavar="AGENT", help="the member's email or agent id")
        _db_option(command)
    set_role = commands.add_parser("set-role", help="change a member's role (the key stays)")
    set_role.add_argument("agent", metavar="AGENT", help="the member's email or agent id")
    set_role.add_argument("--role", required=True, choices=("agent", "supervisor", "admin"))
    _db_option(set_role)
    audit = commands.add_parser("audit", help="what members wrote through the gateway")
    audit.add_argument("--member", metavar="M", help="only this member (email or agent id)")
    audit.add_argument("--since", metavar="T", help="only from this time on (ISO 8601)")
    audit.add_argument("--limit", type=int, default=100, metavar="N",
                       help="at most N entries (default 100)")
    _db_option(audit)
    unsubscribe = commands.add_parser("unsubscribe", help="remove the gateway's webhook "
                                      "subscription at the service")
    unsubscribe.add_argument("--public-url", metavar="URL", required=True,
                             help="the public URL the gateway was served with")
    _upstream_options(unsubscribe)
    args = parse(parser, argv)
    handlers = {"serve": _serve, "add-member": _add_member, "members": _members,
                "revoke": _revoke, "rotate": _rotate, "set-role": _set_role, "audit": _audit,
                "unsubscribe": _unsubscribe}
    return handlers[args.command](args)


# ---------------------------------------------------------------------------- options


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, metavar="PATH",
                        help="the gateway's database (default: gateway/gateway.db in the data "
                        "directory, see 'frontdesk locate')")


def _upstream_options(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    parser.add_argument("--upstream", metavar="URL", required=required,
                        help="the service's base URL" + ("" if required else
                                                          f" (default: ${URL_ENV})"))
    parser.add_argument("--upstream-key-file", type=Path, metavar="PATH",
                        help=f"file holding the organisation's API key, mode 0600 (default: "
                        f"${KEY_ENV})")


def _serve_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser("serve", help="run the gateway")
    _upstream_options(serve, required=True)
    serve.add_argument("--upstream-integrations-url", metavar="URL",
                       help="the base URL of the service's deprecated endpoint listing")
    _db_option(serve)
    serve.add_argument("--host", default="127.0.0.1", metavar="H",
                       help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="P",
                       help=f"port to listen on (default {DEFAULT_PORT})")
    serve.add_argument("--public-url", metavar="URL",
                       help="the address the service reaches the gateway at: the gateway "
                       "then hears the service's webhooks at URL/gateway/v1/webhooks and "
                       "polls it only as a safety net")
    serve.add_argument("--tls-cert", metavar="F", help="TLS certificate (PEM)")
    serve.add_argument("--tls-key", metavar="F", help="TLS private key (PEM)")
    serve.add_argument("--rate", type=float, default=10.0, metavar="R",
                       help="requests per second the organisation's key may send (default 10)")
    serve.add_argument("--burst", type=int, default=4, metavar="N",
                       help="requests the key may send at once after a quiet spell (default 4)")


def _db_path(args: argparse.Namespace) -> Path:
    if args.db is not None:
        return Path(args.db).expanduser()
    from ..settings.locations import data_dir

    return data_dir() / "gateway" / "gateway.db"


def _upstream_key(args: argparse.Namespace) -> ApiKey:
    """The organisation's key: from the key file, else from the environment."""
    from ..api.secrets import ApiKey
    from ..settings import KeyFileError, read_key_file

    if args.upstream_key_file is not None:
        try:
            text = read_key_file(args.upstream_key_file)
        except KeyFileError as error:
            raise Fail(1, str(error).splitlines()[0]) from None
    else:
        text = os.environ.get(KEY_ENV, "")
    value = text.strip().splitlines()[0].strip() if text.strip() else ""
    if not value:
        raise Fail(2, f"the organisation's key is needed: --upstream-key-file PATH (mode 0600) "
                      f"or {KEY_ENV}")
    try:
        return ApiKey(value)
    except ValueError as error:
        raise Fail(1, f"the organisation's key cannot be used: {error}") from None


def _members_of(args: argparse.Namespace) -> Members:
    from ..gateway.members import Members

    try:
        return Members(_db_path(args))
    except OSError as error:
        raise Fail(1, f"cannot open the gateway's database: {error.strerror or error}") \
            from None


# ---------------------------------------------------------------------------- commands


def _serve(args: argparse.Namespace) -> int:
    from ..gateway.app import GatewayConfig
    from ..gateway.members import Members
    from ..gateway.server import serve

    if bool(args.tls_cert) != bool(args.tls_key):
        raise Fail(2, "--tls-cert and --tls-key go together")
    if args.rate <= 0 or args.burst < 1:
        raise Fail(2, "--rate must be above 0 and --burst at least 1")
    public_url = None if args.public_url is None else _public_url(args.public_url)
    key = _upstream_key(args)
    db = _db_path(args)
    try:
        Members(db)
    except OSError as error:
        raise Fail(1, f"cannot open the gateway's database {db}: {error.strerror or error}") \
            from None
    config = GatewayConfig(upstream_url=args.upstream, upstream_key=key, db=db,
                           integrations_url=args.upstream_integrations_url, rate=args.rate,
                           burst=args.burst, public_url=public_url)
    _log_to_stderr()
    scheme = "https" if args.tls_cert else "http"
    print(f"frontdesk gateway: serving {scheme}://{args.host}:{args.port} for "
          f"{clean_text(args.upstream)} (database {db})", file=sys.stderr, flush=True)
    if public_url:
        from ..gateway.webhook_feed import hook_url

        print(f"frontdesk gateway: hearing the service's webhooks at "
              f"{clean_text(hook_url(public_url))} ('frontdesk gateway unsubscribe' removes "
              "the subscription)", file=sys.stderr, flush=True)
    serve(config, args.host, args.port, tls_cert=args.tls_cert, tls_key=args.tls_key)
    return 0


def _public_url(value: str) -> str:
    from ..gateway.webhook_feed import check_public_url

    try:
        return check_public_url(value)
    except ValueError as error:
        raise Fail(2, f"--public-url: {error}") from None


def _log_to_stderr() -> None:
    """The server's log on standard error, at FRONTDESK_LOG's level (default WARNING): what
    a service manager (systemd, a container) collects. No key is ever written to it."""
    import logging

    level = os.environ.get("FRONTDESK_LOG", "WARNING").upper()
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        level=level if level in logging.getLevelNamesMapping() else "WARNING")


def _add_member(args: argparse.Namespace) -> int:
    from ..api.client import ApiClient
    from ..api.roles import Role
    from ..gateway.agents import find_agent
    from ..gateway.members import MemberError

    url = args.upstream or os.environ.get(URL_ENV)
    if not url:
        raise Fail(2, f"the service's address is needed: --upstream URL or {URL_ENV}")
    key = _upstream_key(args)
    members = _members_of(args)

    async def look_up() -> Agent:
        async with ApiClient(url, key) as client:
            return await find_agent(client, args.agent)

    try:
        agent = asyncio.run(look_up())
        member, personal = members.add(agent.id, agent.email, agent.display_name,
                                       Role(args.role))
    except MemberError as error:
        raise Fail(1, str(error)) from None
    print(f"{_describe(member)} added. Their personal key (shown once, give it to them "
          "privately):")
    print(personal)
    return 0


def _describe(member: Member) -> str:
    name = f"{member.name} <{member.email}>" if member.name else member.email
    return clean_text(f"{name} ({member.role.value})")


def _members(args: argparse.Namespace) -> int:
    members = _members_of(args)
    rows = [(clean_text(m.email), m.role.value, "revoked" if m.revoked else "live",
             m.agent_id, clean_text(m.name or "")) for m in members.all()]
    if not rows:
        print("No members yet ('frontdesk gateway add-member AGENT --role ROLE').")
        return 0
    header = ("EMAIL", "ROLE", "KEY", "AGENT ID", "NAME")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False))
              + "  " + row[4])
    return 0


def _revoke(args: argparse.Namespace) -> int:
    from ..gateway.members import MemberError

    members = _members_of(args)
    try:
        member = members.revoke(args.agent)
    except MemberError as error:
        raise Fail(1, str(error)) from None
    print(f"{_describe(member)}: key revoked (refused from the next request on).")
    return 0


def _set_role(args: argparse.Namespace) -> int:
    from ..api.roles import Role
    from ..gateway.members import MemberError

    members = _members_of(args)
    try:
        member = members.set_role(args.agent, Role(args.role))
    except MemberError as error:
        raise Fail(1, str(error)) from None
    print(f"{_describe(member)}: role set (from their next request on).")
    return 0


def _rotate(args: argparse.Namespace) -> int:
    from ..gateway.members import MemberError

    members = _members_of(args)
    try:
        member, personal = members.rotate(args.agent)
    except MemberError as error:
        raise Fail(1, str(error)) from None
    print(f"{_describe(member)}: new personal key (the old one no longer works; shown once):")
    print(personal)
    return 0


def _audit(args: argparse.Namespace) -> int:
    from ..gateway.audit import Audit, parse_since
    from ..gateway.members import MemberError

    members = _members_of(args)
    try:
        member_id = None if args.member is None else members.find(args.member).member_id
    except MemberError as error:
        raise Fail(1, str(error)) from None
    try:
        since = None if args.since is None else parse_since(args.since)
    except ValueError:
        raise Fail(2, f"--since: not an ISO 8601 time: {clean_text(args.since)}") from None
    if args.limit < 1:
        raise Fail(2, "--limit must be 1 or more")
    audit = Audit(members.path)
    try:
        entries, _ = audit.page(member_id=member_id, since=since, limit=args.limit)
    finally:
        audit.close()
    if not entries:
        print("No writes through the gateway yet." if member_id is None and since is None
              else "No entries match.")
        return 0
    for entry in entries:
        status = str(entry.status) if entry.status else "-"
        targets = ",".join(entry.targets) or "-"
        print(clean_text(f"{entry.at}  {entry.email} ({entry.role})  {entry.operation}  "
                         f"{targets}  {status} {entry.state}"))
    return 0


def _unsubscribe(args: argparse.Namespace) -> int:
    from ..api.client import ApiClient
    from ..gateway.webhook_feed import WebhookError, hook_url, unsubscribe

    url = args.upstream or os.environ.get(URL_ENV)
    if not url:
        raise Fail(2, f"the service's address is needed: --upstream URL or {URL_ENV}")
    public_url = _public_url(args.public_url)
    key = _upstream_key(args)

    async def remove() -> list[str]:
        async with ApiClient(url, key) as client:
            return await unsubscribe(client, public_url)

    try:
        removed = asyncio.run(remove())
    except WebhookError as error:
        raise Fail(1, error.message) from None
    where = clean_text(hook_url(public_url))
    if not removed:
        print(f"No webhook subscription delivers to {where}: nothing to remove.")
    else:
        print(f"Removed the gateway's webhook subscription ({', '.join(removed)}): the service "
              f"no longer delivers to {where}.")
    return 0
