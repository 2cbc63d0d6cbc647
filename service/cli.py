"""``tractor-referee``: audit hand records from the command line, or serve.

    tractor-referee audit HAND.json        one hand (the body of POST /v1/hand)
    tractor-referee audit HANDS.jsonl      one hand per line (progress bar on a terminal)
    tractor-referee serve [gunicorn args]  the service, as the README's run command

``audit`` loads each record with the same schema as ``/v1/hand`` and prints a
readable per-trick report.  Exit status: 0 every hand clean, 1 a violation in
some hand, 2 bad input (unreadable file, or a record that cannot be
adjudicated; its JSON Pointer is printed).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

import orjson
from marshmallow import ValidationError

from engine.audit import HandAudit, audit_hand
from engine.cards import card_str
from engine.errors import InvalidInput, Problem
from service.errors import messages_to_problems, pointer
from service.jsonio import DuplicateKey, TooDeep, loads_request

CLEAN, VIOLATIONS, BAD_INPUT = 0, 1, 2


class Unreadable(ValueError):
    """One record that is not JSON; the others are still audited."""


def _records(path: str) -> Iterator[tuple[str, Any]]:
    """(label, parsed JSON or Unreadable) for a .json file (one hand) or JSON
    Lines (one per line, labelled ``file:line``)."""
    with open(path, "rb") as f:
        data = f.read()
    lines = (
        [(path, data)] if not path.endswith((".jsonl", ".ndjson"))
        else [(f"{path}:{n}", line) for n, line in enumerate(data.splitlines(), 1) if line.strip()]
    )
    for label, text in lines:
        try:
            yield label, loads_request(text)  # as POST /v1/hand reads a body: a key written twice refused
        except orjson.JSONDecodeError as exc:
            yield label, Unreadable(str(exc))
        except DuplicateKey as exc:
            yield label, Unreadable(f"{pointer(exc.path)}: this key appears more than once in its object")
        except TooDeep as exc:
            yield label, Unreadable(str(exc))


def load_hand(record: Any) -> dict[str, Any]:
    """Validate one record exactly as POST /v1/hand does."""
    from service.routes.hand import HandRequest  # the endpoint's own schema

    if not isinstance(record, dict):
        raise InvalidInput(Problem((), "a hand record is a JSON object (the body of POST /v1/hand)"))
    try:
        return HandRequest().load(record)  # type: ignore[no-any-return]
    except ValidationError as exc:
        raise InvalidInput(messages_to_problems(exc.messages)) from None


def run_audit(body: dict[str, Any]) -> HandAudit:
    return audit_hand(
        body["rules"], body["trump"], body["dealer"], body["levels"], body["hands"],
        body["kitty"], body["tricks"], body["strict"],
    )


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards) or "-"


def report(label: str, audit: HandAudit, lang: str, out: TextIO) -> None:
    """A per-trick report a tournament director can read."""
    verdict = "clean" if audit.valid else f"{len(audit.violations)} violation(s)"
    out.write(f"== {label}: {verdict}\n")
    for v in audit.deal_violations:
        out.write(f"   deal: {v.reason.code}: {v.reason.message(lang)}\n")
    for t in audit.tricks:
        r = t.result
        plays = "  ".join(f"{p.seat}:{_cards(p.cards)}" for p in r.plays) if r else "(not resolved)"
        head = f"trick {t.index:2d}  lead {t.leader}  {plays}"
        if r:
            head += f"  → seat {r.winner} wins {r.points}"
        out.write(f"  {head}  [defenders {t.defender_points}]\n")
        for v in t.violations:
            seat = "" if v.seat is None else f" seat {v.seat}"
            out.write(f"     !{seat} {v.reason.code}: {v.reason.message(lang)}\n")
    for v in audit.end_violations:
        out.write(f"   end: {v.reason.code}: {v.reason.message(lang)}\n")
    if audit.kitty is not None:
        k = audit.kitty
        out.write(f"  kitty: {k.kitty_points} points × {k.multiplier} = {k.awarded} to {k.to}\n")
    out.write(f"  defenders' points: {audit.defender_points}\n")
    if audit.settlement is not None:
        s = audit.settlement
        out.write(f"  settle: {s.outcome}, team {s.team} +{s.levels_gained}, next dealer {s.next_dealer}"
                  f"{', game won' if s.game_won else ''}\n")


def _progress(done: int, total: int, err: TextIO) -> None:
    width = 30
    filled = width * done // max(total, 1)
    err.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    err.flush()


def audit_command(paths: Sequence[str], lang: str, out: TextIO, err: TextIO) -> int:
    status = CLEAN
    for path in paths:
        try:
            records = list(_records(path))
        except OSError as exc:
            err.write(f"{path}: cannot read: {exc}\n")
            status = BAD_INPUT
            continue
        show_progress = err.isatty() and len(records) > 1
        for done, (label, record) in enumerate(records, 1):
            if isinstance(record, Unreadable):
                err.write(f"{label}: not JSON: {record}\n")
                status = BAD_INPUT
                continue
            try:
                audit = run_audit(load_hand(record))
            except InvalidInput as exc:
                for p in exc.problems:
                    err.write(f"{label}: {pointer(p.path) or '/'}: {p.message}\n")
                status = BAD_INPUT
                continue
            report(label, audit, lang, out)
            if not audit.valid and status == CLEAN:
                status = VIOLATIONS
            if show_progress:
                _progress(done, len(records), err)
        if show_progress:
            err.write("\n")
    return status


def serve_command(extra: Sequence[str]) -> int:
    """Start gunicorn with the packaged config (what the README's run command does)."""
    argv = [sys.executable, "-m", "gunicorn", "-c", "python:service.gunicorn_conf", *extra]
    os.execv(sys.executable, argv)
    return 0  # pragma: no cover - execv does not return


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tractor-referee", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    audit = sub.add_parser("audit", help="audit hand records (.json: one hand, .jsonl: one per line)")
    audit.add_argument("files", nargs="+")
    audit.add_argument("--lang", choices=["en", "zh"], default="en", help="language of the explanations")
    sub.add_parser("serve", help="start the service (gunicorn with the packaged config; "
                                 "further arguments go to gunicorn)")
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "serve":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "audit":
        try:
            return audit_command(args.files, args.lang, sys.stdout, sys.stderr)
        except BrokenPipeError:  # the reader (head, less) went away: not an error of ours
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return CLEAN
    return serve_command(extra)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
