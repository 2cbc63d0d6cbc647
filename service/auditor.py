"""``tractor-referee audit``: hand records in, one verdict per record out.

A record is the body of ``POST /v1/hand``: a ``.json`` file holds one, a
``.jsonl`` / ``.ndjson`` file one per line, and ``-`` reads standard input
(one JSON document is one hand, anything else is read as JSON Lines).  Each
record is loaded with the endpoint's own schema and audited by the engine, in
``jobs`` worker processes; the verdicts come out in input order, so the output
is the same whatever the number of processes.

Standard output carries the verdicts: a per-trick report (or, with ``quiet``,
only the hands with violations and their violations), or with ``json`` one
JSON document per record (the ``/v1/hand`` answer, or the problem+json of a
record that cannot be adjudicated, each with its ``source``); then, in text,
the summary.  Standard error carries the run: the progress bar (on a terminal
only), the records that cannot be adjudicated (with the JSON Pointer of the
problem), the summary when the verdicts are JSON, and the time taken, which is
kept off the report so that the report is the same from run to run.

Exit status: 0 every hand clean, 1 a violation in some hand, 2 bad input (a
file that cannot be read, or a record that cannot be adjudicated).
"""

from __future__ import annotations

import io
import multiprocessing
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import IO, Any, TextIO

import orjson
from tqdm import tqdm

from engine.audit import HandAudit, Violation, audit_hand
from engine.errors import InvalidInput, Problem
from engine.reasons import Side
from service import i18n
from service.errors import duplicate_key_body, invalid_body, pointer, problem_body
from service.explain import cards, render, seat, words
from service.fastload import fast_load
from service.jsonio import MAX_DEPTH, DuplicateKey, OrjsonProvider, TooDeep, loads_request

CLEAN, VIOLATIONS, BAD_INPUT = 0, 1, 2
STDIN = "-"
STDIN_NAME = "<stdin>"


@dataclass(frozen=True)
class Record:
    """One hand record as read: where it came from and its raw bytes."""

    file: str  # the path as given; STDIN_NAME for standard input
    line: int | None  # its line in a JSON Lines input; None for a whole document
    text: bytes

    @property
    def label(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"

    def source_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line}


@dataclass(frozen=True)
class Options:
    lang: str = "en"
    json: bool = False
    quiet: bool = False


@dataclass(frozen=True)
class Verdict:
    """What the command prints of one record and what the summary counts."""

    out: str  # for standard output ("" when there is nothing to show)
    err: str  # for standard error: why the record cannot be adjudicated
    valid: bool | None  # None: bad input
    codes: tuple[str, ...]  # the violations' codes, in order


def read_records(path: str, stdin: IO[bytes]) -> list[Record]:
    """The records of one input (a path, or ``-`` for ``stdin``); OSError when unreadable."""
    if path == STDIN:
        name, data = STDIN_NAME, stdin.read()
        by_line = not _one_document(data)
    else:
        with open(path, "rb") as f:
            name, data = path, f.read()
        by_line = path.endswith((".jsonl", ".ndjson"))
    if not by_line:
        return [Record(name, None, data)]
    return [Record(name, n, line) for n, line in enumerate(data.splitlines(), 1) if line.strip()]


def _one_document(data: bytes) -> bool:
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError:
        return False
    return True


def load_hand(record: Any) -> dict[str, Any]:
    """Validate one parsed record exactly as POST /v1/hand does."""
    from marshmallow import ValidationError

    from service.errors import messages_to_problems
    from service.routes.hand import _schema as hand_schema  # the endpoint's own schema instance

    if not isinstance(record, dict):
        raise InvalidInput(Problem((), "a hand record is a JSON object (the body of POST /v1/hand)", code="body_not_object"))
    try:
        # one instance for every record: service/fastload.py keeps a loader per schema instance
        return fast_load(hand_schema, record)  # type: ignore[no-any-return]
    except ValidationError as exc:
        raise InvalidInput(messages_to_problems(exc.messages)) from None


def run_audit(body: dict[str, Any]) -> HandAudit:
    return audit_hand(
        body["rules"], body["trump"], body["dealer"], body["levels"], body["hands"],
        body["kitty"], body["tricks"], body["strict"],
    )


def judge(record: Record, options: Options) -> Verdict:
    """One record's verdict (what a worker process computes)."""
    from service.routes.hand import hand_json

    try:
        parsed = loads_request(record.text)  # as POST /v1/hand reads a body: a key written twice refused
    except orjson.JSONDecodeError as exc:
        return _bad(record, problem_body(400, "malformed_json", lang=_catalog(options.lang)),
                    f"{record.label}: not JSON: {exc}\n", options)
    except DuplicateKey as exc:
        return _bad(record, duplicate_key_body(exc.path, _catalog(options.lang)),
                    f"{record.label}: {pointer(exc.path)}: this key appears more than once in its object\n", options)
    except TooDeep as exc:
        return _bad(record, problem_body(400, "too_deep", {"depth": MAX_DEPTH}, lang=_catalog(options.lang)),
                    f"{record.label}: {exc}\n", options)
    try:
        audit = run_audit(load_hand(parsed))
    except InvalidInput as exc:
        lines = "".join(f"{record.label}: {pointer(p.path) or '/'}: {p.message}\n" for p in exc.problems)
        return _bad(record, invalid_body(exc.problems, _catalog(options.lang)), lines, options)
    codes = tuple(v.reason.code for v in audit.violations)
    if options.quiet and audit.valid:
        out = ""
    elif options.json:
        out = _json_line({"source": record.source_json()} | hand_json(audit, _catalog(options.lang)))
    else:
        out = report(record.label, audit, options.lang, options.quiet)
    return Verdict(out, "", audit.valid, codes)


def _catalog(lang: str) -> str:
    """The message catalog of a report language (a catalog tag; ``zh`` is Simplified Chinese)."""
    return "zh-Hans" if lang == "zh" else lang


def _bad(record: Record, problem: dict[str, Any], err: str, options: Options) -> Verdict:
    out = _json_line({"source": record.source_json()} | problem) if options.json else ""
    return Verdict(out, err, None, ())


def _json_line(obj: dict[str, Any]) -> str:
    return orjson.dumps(obj, option=OrjsonProvider.option | orjson.OPT_APPEND_NEWLINE).decode()


def _say(lang: str, key: str, n: int = 1, **fields: object) -> str:
    """A line part of the report from the catalog of ``lang`` (context ``report``)."""
    found = i18n.template(_catalog(lang), "report", key, n)
    assert found is not None, key  # every catalog words every part (tests/test_messages.py)
    return found.format(n=n, **fields)


def report(label: str, audit: HandAudit, lang: str, quiet: bool = False) -> str:
    """A hand's report as a tournament director reads it, in ``lang``: every trick
    (plays, winner, points, the defenders' running total) with its violations,
    the kitty and the settlement; ``quiet``: the verdict line and the violations.
    A violation shows its code, then its message."""
    tag = _catalog(lang)
    verdict = _say(lang, "clean") if audit.valid else _say(lang, "violations", len(audit.violations))
    lines = [f"== {label}: {verdict}"]

    def seat_of(v: Violation) -> str:
        return "" if v.seat is None else " " + seat(v.seat, tag)

    if quiet:
        located = [(_say(lang, "deal"), v) for v in audit.deal_violations]
        located += [(_say(lang, "trick", trick=t.index + 1), v) for t in audit.tricks for v in t.violations]
        located += [(_say(lang, "end"), v) for v in audit.end_violations]
        for where, v in located:
            lines.append(f"   {where}{seat_of(v)}: {v.reason.code}: {render(v.reason, tag)}")
        return "\n".join(lines) + "\n"
    for v in audit.deal_violations:
        lines.append(f"   {_say(lang, 'deal')}: {v.reason.code}: {render(v.reason, tag)}")
    for t in audit.tricks:
        r = t.result
        if r:
            plays = "  ".join(f"{p.seat}:{cards(p.cards, tag) or '-'}" for p in r.plays)
            plays += "  " + _say(lang, "wins", seat=seat(r.winner, tag), points=r.points)
        else:
            plays = _say(lang, "not_resolved")
        head = _say(lang, "trick_line", trick=t.index + 1, leader=seat(t.leader, tag), plays=plays)
        lines.append(f"  {head}  {_say(lang, 'running', points=t.defender_points)}")
        for v in t.violations:
            lines.append(f"     !{seat_of(v)} {v.reason.code}: {render(v.reason, tag)}")
    for v in audit.end_violations:
        lines.append(f"   {_say(lang, 'end')}: {v.reason.code}: {render(v.reason, tag)}")
    if audit.kitty is not None:
        k = audit.kitty
        to = _say(lang, "nobody") if k.to not in ("dealer", "defenders") else words(Side(k.to), tag)
        lines.append("  " + _say(lang, "kitty", k.kitty_points, multiplier=k.multiplier, awarded=k.awarded, to=to))
    lines.append("  " + _say(lang, "defender_points", points=audit.defender_points))
    if audit.settlement is not None:
        for why in audit.settlement.reasons:
            lines.append("  " + _say(lang, "settle", reason=render(why, tag)))
    return "\n".join(lines) + "\n"


@dataclass
class Tally:
    """The closing summary's counts."""

    hands: int = 0
    clean: int = 0
    with_violations: int = 0
    bad_input: int = 0
    unreadable_files: int = 0
    codes: Counter[str] = field(default_factory=Counter)

    def add(self, verdict: Verdict) -> None:
        self.hands += 1
        if verdict.valid is None:
            self.bad_input += 1
        elif verdict.valid:
            self.clean += 1
        else:
            self.with_violations += 1
            self.codes.update(verdict.codes)

    @property
    def status(self) -> int:
        if self.bad_input or self.unreadable_files:
            return BAD_INPUT
        return VIOLATIONS if self.with_violations else CLEAN

    def summary(self, lang: str = "en") -> str:
        """The closing summary in ``lang`` (without the time, which is not part of the report)."""
        lines = ["== " + _say(lang, "summary", self.hands, clean=self.clean, dirty=self.with_violations,
                              bad=self.bad_input)]
        if self.unreadable_files:
            lines.append("   " + _say(lang, "unreadable", self.unreadable_files))
        if self.codes:
            lines.append("   " + _say(lang, "by_code"))
            width = max(map(len, self.codes))
            for code, n in sorted(self.codes.items(), key=lambda item: (-item[1], item[0])):
                lines.append(f"     {code:<{width}}  {n}")
        return "\n".join(lines) + "\n"


def default_jobs() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1  # pragma: no cover - platforms without affinity


def _worker_start() -> None:
    """A worker imports the schema and the engine once, and leaves Ctrl-C to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import service.routes.hand  # noqa: F401


def processes(jobs: int, records: int) -> int:
    """How many processes audit ``records`` records with ``jobs`` asked for."""
    return 1 if jobs <= 1 or records <= 1 else min(jobs, records)


@contextmanager
def verdicts(records: Sequence[Record], options: Options, jobs: int) -> Iterator[Iterator[Verdict]]:
    """Each record's verdict, in input order, from ``jobs`` processes (this one for 1).

    The records go to the workers in chunks (few, large messages), and the
    workers send back text, not engine objects.
    """
    work = partial(judge, options=options)
    n = processes(jobs, len(records))
    if n == 1:
        yield map(work, records)
        return
    import service.routes.hand  # noqa: F401  (imported before a fork: the workers inherit it)

    chunk = max(1, min(64, len(records) // (n * 8)))
    with multiprocessing.get_context().Pool(n, initializer=_worker_start) as pool:
        yield pool.imap(work, records, chunksize=chunk)


def _bar_shape(err: TextIO) -> dict[str, Any]:
    """tqdm's size arguments: follow the terminal's size as it changes when the
    terminal tells it, else 80×24 (tqdm would take a terminal that reports no
    size for one of no rows, and draw nothing)."""
    try:
        size = os.get_terminal_size(err.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        size = os.terminal_size((0, 0))
    return {"dynamic_ncols": True} if size.columns > 0 and size.lines > 0 else {"ncols": 80, "nrows": 24}


def _writer(bar: tqdm[Any]) -> Callable[[str, TextIO], None]:
    """Write through tqdm (it clears the bar, writes, redraws it) while the bar shows."""
    def write(text: str, stream: TextIO) -> None:
        if not text:
            return
        if bar.disable:
            stream.write(text)
        else:
            bar.write(text, file=stream, end="")
    return write


def audit_command(paths: Sequence[str], lang: str, out: TextIO, err: TextIO, *,
                  json: bool = False, quiet: bool = False, jobs: int = 1,
                  stdin: IO[bytes] | None = None) -> int:
    """Audit every record of ``paths`` and print the verdicts; the exit status."""
    started = time.perf_counter()
    tally = Tally()
    records: list[Record] = []
    for path in paths:
        try:
            records += read_records(path, stdin if stdin is not None else sys.stdin.buffer)
        except OSError as exc:
            err.write(f"{path}: cannot read: {exc}\n")
            tally.unreadable_files += 1
    show_bar = len(records) > 1 and err.isatty()
    # the pool starts before the bar (and its monitor thread)
    shape = _bar_shape(err) if show_bar else {}
    with verdicts(records, Options(lang, json, quiet), jobs) as results, \
            tqdm(total=len(records), file=err, unit="hand", leave=False, disable=not show_bar, **shape) as bar:
        write = _writer(bar)
        for verdict in results:
            write(verdict.out, out)
            write(verdict.err, err)
            tally.add(verdict)
            bar.update(1)
    (err if json else out).write(tally.summary(lang))
    out.flush()
    seconds = time.perf_counter() - started
    rate = f", {tally.hands / seconds:.0f} hands/s" if tally.hands and seconds > 0 else ""
    err.write(f"audited {tally.hands} hand(s) in {seconds:.2f} s{rate}, "
              f"{processes(jobs, len(records))} process(es)\n")
    return tally.status
