"""``tractor-referee``: audit hand records from the command line, or serve.

    tractor-referee audit HAND.json        one hand (the body of POST /v1/hand)
    tractor-referee audit HANDS.jsonl      one hand per line (progress bar on a terminal)
    tractor-referee audit -                standard input (one hand, or one per line)
    tractor-referee serve [gunicorn args]  the service, as the README's run command

``audit`` (service/auditor.py) loads each record with the same schema as
``/v1/hand`` and prints a readable per-trick report and a summary, or with
``--json`` one JSON verdict per line; ``--jobs`` audits in parallel processes,
``--quiet`` prints only the violations and the summary.  Exit status: 0 every
hand clean, 1 a violation in some hand, 2 bad input (unreadable file, or a
record that cannot be adjudicated; its JSON Pointer is printed).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from service.auditor import CLEAN, audit_command, default_jobs

INTERRUPTED = 130  # the shell's status for a command stopped by Ctrl-C


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a number of processes, 1 or more (not {text!r})")
    return value


def serve_command(extra: Sequence[str]) -> int:
    """Start gunicorn with the packaged config (what the README's run command does)."""
    argv = [sys.executable, "-m", "gunicorn", "-c", "python:service.gunicorn_conf", *extra]
    os.execv(sys.executable, argv)
    return 0  # pragma: no cover - execv does not return


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tractor-referee", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    audit = sub.add_parser("audit", help="audit hand records (.json: one hand, .jsonl: one per line, "
                                         "-: standard input)")
    audit.add_argument("files", nargs="+", metavar="FILE", help="a .json, .jsonl or .ndjson file, or -")
    audit.add_argument("--lang", choices=["en", "zh-Hans", "zh-Hant", "zh"], default="en",
                       help="language of the report (zh: zh-Hans)")
    audit.add_argument("--json", action="store_true",
                       help="one JSON verdict per record (the POST /v1/hand answer, with its source)")
    audit.add_argument("--jobs", "-j", type=_jobs, default=None,
                       help=f"audit in this many processes (default: the CPUs, {default_jobs()} here)")
    audit.add_argument("--quiet", "-q", action="store_true",
                       help="print only the hands with violations, their violations and the summary")
    sub.add_parser("serve", help="start the service (gunicorn with the packaged config; "
                                 "further arguments go to gunicorn)")
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "serve":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "audit":
        jobs = default_jobs() if args.jobs is None else args.jobs
        try:
            return audit_command(args.files, args.lang, sys.stdout, sys.stderr,
                                 json=args.json, quiet=args.quiet, jobs=jobs)
        except BrokenPipeError:  # the reader (head, less) went away: not an error of ours
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return CLEAN
        except KeyboardInterrupt:
            sys.stderr.write("interrupted\n")
            return INTERRUPTED
    return serve_command(extra)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
