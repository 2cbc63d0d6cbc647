"""``tractor-referee audit`` (service/auditor.py) and ``serve``, through
``service.cli:main`` and as ``python -m service.cli`` in a subprocess."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections import Counter
from fcntl import ioctl
from pathlib import Path
from typing import Any

import orjson
import pytest

from engine.rules import preset
from service.auditor import audit_command, load_hand, run_audit
from service.cli import main
from tests.deal import hand_body, illegal_follow, play_hand
from tests.helpers import said

ROOT = Path(__file__).resolve().parent.parent
TIME_LINE = re.compile(r"audited \d+ hand\(s\) in [\d.]+ s(, \d+ hands/s)?, \d+ process\(es\)\n")


def clean_line(name: str = "two-deck", seed: int = 1) -> bytes:
    return orjson.dumps(hand_body(play_hand(preset(name), seed)))


def dirty_line(name: str = "two-deck", seed: int = 1) -> tuple[bytes, int, int]:
    """A hand with one illegal follow: its line, the trick and the seat."""
    deal = play_hand(preset(name), seed)
    k, seat, tricks = illegal_follow(deal)
    return orjson.dumps(hand_body(deal, tricks)), k, seat


def bad_line() -> bytes:
    body = hand_body(play_hand(preset("one-deck"), 2))
    body["kitty"] = ["ZZ"]
    return orjson.dumps(body)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: Any) -> tuple[Path, int, int]:
    """Ten records: clean hands, two with an illegal follow (lines 3 and 8), a
    line that is not JSON (5) and one with an unknown card (9)."""
    dirty, k, seat = dirty_line()
    lines = [clean_line("two-deck", s) for s in range(10)]
    lines[2] = lines[7] = dirty
    lines[4] = b"{nonsense"
    lines[8] = bad_line()
    path = tmp_path_factory.mktemp("cli") / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path, k, seat


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m service.cli`` from the repository root."""
    return subprocess.run([sys.executable, "-m", "service.cli", *args], input=stdin, capture_output=True,
                          cwd=ROOT, timeout=120, check=False)


@pytest.fixture(scope="module")
def plain(mixed: tuple[Path, int, int]) -> subprocess.CompletedProcess[bytes]:
    """``audit mixed.jsonl --jobs 2`` off a terminal: what the progress-bar tests compare with."""
    return run("audit", str(mixed[0]), "--jobs", "2")


# --- verdicts and exit codes ------------------------------------------------------------


def test_exit_codes(tmp_path: Path, capsys: Any) -> None:
    clean = tmp_path / "clean.json"
    clean.write_bytes(clean_line("two-deck", 5))
    assert main(["audit", str(clean)]) == 0
    assert f"== {clean}: clean" in capsys.readouterr().out

    dirty_bytes, k, seat = dirty_line("two-deck", 5)
    dirty = tmp_path / "dirty.json"
    dirty.write_bytes(dirty_bytes)
    assert main(["audit", str(dirty)]) == 1
    out = capsys.readouterr().out
    assert f"trick {k + 1:2d}" in out and "follow.illegal" in out

    broken = tmp_path / "broken.json"
    broken.write_bytes(bad_line())
    assert main(["audit", str(broken)]) == 2
    assert f"{broken}: /kitty/0: " in capsys.readouterr().err
    (tmp_path / "garbage.json").write_text("{not json")
    assert main(["audit", str(tmp_path / "garbage.json")]) == 2
    assert main(["audit", str(tmp_path / "missing.json")]) == 2
    assert "missing.json: cannot read" in capsys.readouterr().err
    # bad input outranks a violation, whatever the order
    assert main(["audit", str(dirty), str(broken)]) == 2
    assert main(["audit", str(broken), str(dirty)]) == 2


def test_json_lines_in_chinese(tmp_path: Path, capsys: Any) -> None:
    lines = [clean_line(name, 0) for name in ("one-deck", "three-deck", "four-deck")]
    path = tmp_path / "hands.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["audit", str(path), "--lang", "zh", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("== ") == 4 and f"{path}:3: 无违规" in out  # three hands and the summary

    dirty, _, _ = dirty_line()
    path.write_bytes(dirty)
    first = run_audit(load_hand(orjson.loads(dirty))).violations[0].reason
    assert main(["audit", str(path), "--lang", "zh"]) == 1
    out = capsys.readouterr().out
    assert f"follow.illegal: {said(first, 'zh-Hans')}\n" in out and said(first) not in out


def test_summary_counts(mixed: tuple[Path, int, int], capsys: Any) -> None:
    path, k, seat = mixed
    assert main(["audit", str(path), "--jobs", "1"]) == 2
    captured = capsys.readouterr()
    out = captured.out
    dirty = run_audit(load_hand(orjson.loads(path.read_bytes().splitlines()[2])))
    codes = Counter(v.reason.code for v in dirty.violations)
    assert codes["follow.illegal"] == 1 and dirty.first_violation.reason.code == "follow.illegal"  # type: ignore[union-attr]
    assert out.count(": clean\n") == 6 and out.count(f": {codes.total()} violation{'s' if codes.total() != 1 else ''}\n") == 2
    width = max(map(len, codes))
    by_code = sorted(codes.items(), key=lambda item: (-item[1], item[0]))
    assert out.endswith(
        "== summary: 10 hands: 6 clean, 2 with violations, 2 bad input\n"
        "   violations by code:\n" + "".join(f"     {code:<{width}}  {2 * n}\n" for code, n in by_code)
    )
    assert f"{path}:5: not JSON" in captured.err and f"{path}:9: /kitty/0: " in captured.err
    assert TIME_LINE.search(captured.err)
    assert TIME_LINE.search(captured.err).group(0).endswith("1 process(es)\n")  # type: ignore[union-attr]


def test_quiet_prints_the_violations_and_the_summary(mixed: tuple[Path, int, int], capsys: Any) -> None:
    path, k, seat = mixed
    assert main(["audit", str(path), "--quiet", "--jobs", "1"]) == 2
    out = capsys.readouterr().out
    dirty = run_audit(load_hand(orjson.loads(path.read_bytes().splitlines()[2])))
    n = len(dirty.violations)
    blocks = out.split("== ")[1:]
    assert [b.splitlines()[0] for b in blocks] == [
        f"{path}:3: {n} violation{'s' if n != 1 else ''}", f"{path}:8: {n} violation{'s' if n != 1 else ''}",
        "summary: 10 hands: 6 clean, 2 with violations, 2 bad input",
    ]
    shown = blocks[0].splitlines()[1:]
    assert len(shown) == n and shown[0].startswith(f"   trick {k + 1:2d} seat {seat}: follow.illegal: ")
    assert all(line.split(": ")[1] == v.reason.code for line, v in zip(shown, dirty.violations, strict=True))
    assert "clean\n" not in out.replace("6 clean,", "") and "trick  0  lead" not in out


def test_one_bad_line_does_not_stop_the_others(tmp_path: Path, capsys: Any) -> None:
    good = clean_line("one-deck", 1)
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join([good, b"nonsense", good]))
    assert main(["audit", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out.count(": clean\n") == 2
    assert f"{path}:2: not JSON" in captured.err


# --- machine output ------------------------------------------------------------------


def test_json_is_the_endpoints_answer_with_its_source(mixed: tuple[Path, int, int], capsys: Any,
                                                      api: Any) -> None:
    path, k, seat = mixed
    assert main(["audit", str(path), "--json", "--jobs", "2"]) == 2
    captured = capsys.readouterr()
    verdicts = [orjson.loads(line) for line in captured.out.splitlines()]
    assert [v["source"] for v in verdicts] == [{"file": str(path), "line": n} for n in range(1, 11)]
    records = path.read_bytes().splitlines()
    for n in (1, 3, 9):
        answer = api.post("/v1/hand", orjson.loads(records[n - 1]), validate_request=False).get_json()
        assert {key: value for key, value in verdicts[n - 1].items() if key != "source"} == answer
    assert verdicts[2]["first_violation"] == {"trick": k, "seat": seat, "code": "follow.illegal",
                                              "message": verdicts[2]["violations"][0]["message"]}
    assert verdicts[4]["status"] == 400 and verdicts[4]["code"] == "malformed_json"
    assert verdicts[8]["status"] == 422 and verdicts[8]["errors"][0]["pointer"] == "/kitty/0"
    assert "== summary: 10 hands: 6 clean, 2 with violations, 2 bad input" in captured.err

    assert main(["audit", str(path), "--json", "--lang", "zh", "--jobs", "1"]) == 2
    chinese = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()][2]
    answer = api.post("/v1/hand", orjson.loads(records[2]), headers={"Accept-Language": "zh"}).get_json()
    assert {key: value for key, value in chinese.items() if key != "source"} == answer
    assert chinese["violations"][0]["message"] != verdicts[2]["violations"][0]["message"]

    assert main(["audit", str(path), "--json", "--quiet", "--jobs", "1"]) == 2
    quiet = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [v["source"]["line"] for v in quiet] == [3, 5, 8, 9]


def test_json_of_a_single_document_has_no_line(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "hand.json"
    path.write_bytes(orjson.dumps(orjson.loads(clean_line()), option=orjson.OPT_INDENT_2))
    assert main(["audit", str(path), "--json"]) == 0
    (verdict,) = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert verdict["source"] == {"file": str(path), "line": None} and verdict["valid"] is True


# --- standard input -----------------------------------------------------------------


def test_stdin_json_lines_and_one_document(monkeypatch: Any, capsys: Any) -> None:
    dirty, k, _ = dirty_line()
    lines = clean_line() + b"\n\n" + dirty + b"\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(lines)))
    assert main(["audit", "-", "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "== <stdin>:1: clean" in out and "== <stdin>:3: 4 violations" in out

    pretty = orjson.dumps(orjson.loads(clean_line()), option=orjson.OPT_INDENT_2)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(pretty)))
    assert main(["audit", "-"]) == 0
    assert "== <stdin>: clean" in capsys.readouterr().out


def test_stdin_in_a_subprocess(mixed: tuple[Path, int, int]) -> None:
    path, k, seat = mixed
    from_file = run("audit", str(path), "--json", "--jobs", "2")
    from_stdin = run("audit", "-", "--json", "--jobs", "2", stdin=path.read_bytes())
    assert from_file.returncode == from_stdin.returncode == 2
    assert from_stdin.stdout == from_file.stdout.replace(orjson.dumps(str(path)), b'"<stdin>"')


# --- parallel processes ---------------------------------------------------------------


def test_jobs_give_the_same_output(mixed: tuple[Path, int, int], capsys: Any) -> None:
    path, _, _ = mixed
    outputs = []
    for jobs in ("1", "2", "3"):
        assert main(["audit", str(path), "--jobs", jobs]) == 2
        captured = capsys.readouterr()
        outputs.append((captured.out, TIME_LINE.sub("", captured.err)))
        assert f"{jobs} process(es)" in captured.err
    assert outputs[0] == outputs[1] == outputs[2]


def test_jobs_in_a_subprocess(mixed: tuple[Path, int, int]) -> None:
    path, _, _ = mixed
    one, two = run("audit", str(path), "--jobs", "1"), run("audit", str(path), "-j", "2")
    assert one.returncode == two.returncode == 2
    assert one.stdout == two.stdout and sum(line.startswith(b"== ") for line in one.stdout.splitlines()) == 9
    assert TIME_LINE.sub("", one.stderr.decode()) == TIME_LINE.sub("", two.stderr.decode())


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_jobs_must_be_a_positive_number(jobs: str, capsys: Any) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["audit", "x.jsonl", "--jobs", jobs])
    assert exc.value.code == 2 and "number of processes" in capsys.readouterr().err


# --- the progress bar ---------------------------------------------------------------


def _on_a_terminal(args: list[str], stdout_too: bool, columns: int = 80) -> tuple[bytes, bytes, int]:
    """Run ``python -m service.cli`` with stderr (and, with ``stdout_too``, stdout)
    on a pseudo-terminal of ``columns`` × 24 (0: one that reports no size): (what
    the terminal got, the stdout pipe's bytes, the exit status)."""
    primary, secondary = pty.openpty()
    ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24 if columns else 0, columns, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=secondary if stdout_too else subprocess.PIPE, stderr=secondary)
    os.close(secondary)
    terminal, deadline = b"", time.monotonic() + 120
    piped = b""
    while time.monotonic() < deadline:
        streams = [primary] + ([] if stdout_too else [proc.stdout.fileno()])  # type: ignore[union-attr]
        ready, _, _ = select.select(streams, [], [], 1)
        if primary in ready:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the pseudo-terminal closed (Linux: EIO)
                chunk = b""
            terminal += chunk
            if not chunk and proc.poll() is not None:
                break
        if not stdout_too and proc.stdout.fileno() in ready:  # type: ignore[union-attr]
            piped += os.read(proc.stdout.fileno(), 65536)  # type: ignore[union-attr]
        if proc.poll() is not None and not ready:
            break
    if not stdout_too:
        piped += proc.stdout.read()  # type: ignore[union-attr]
    os.close(primary)
    return terminal, piped, proc.wait(timeout=10)


def _screen_lines(terminal: bytes) -> list[str]:
    """The lines a terminal shows in the end: each line's text after its last
    carriage return (the bar redraws itself after ``\\r`` and is cleared at the end)."""
    text = terminal.decode().replace("\r\n", "\n")
    return [line.rsplit("\r", 1)[-1].rstrip() for line in text.split("\n")]


@pytest.mark.parametrize("columns", [80, 0])
def test_progress_bar_stays_on_stderr(
    mixed: tuple[Path, int, int], plain: subprocess.CompletedProcess[bytes], columns: int
) -> None:
    path, _, _ = mixed
    terminal, piped, status = _on_a_terminal(["audit", str(path), "--jobs", "2"], False, columns)
    assert status == 2
    assert piped == plain.stdout  # exactly the report: no bar, no escape, no carriage return
    assert b"\r" in terminal and re.search(rb"\d+/10 \[", terminal)  # the bar was drawn on stderr
    assert b"not JSON" in terminal and b"audited 10 hand(s)" in terminal


def test_progress_bar_never_breaks_a_report_line(
    mixed: tuple[Path, int, int], plain: subprocess.CompletedProcess[bytes]
) -> None:
    """stdout and stderr on one terminal: every report line shows whole, on its own line."""
    path, _, _ = mixed
    terminal, _, status = _on_a_terminal(["audit", str(path), "--jobs", "2"], stdout_too=True)
    assert status == 2 and re.search(rb"\d+/10 \[", terminal)
    shown = [line for line in _screen_lines(terminal) if line]
    report = plain.stdout.decode().splitlines()
    errors = [line for line in plain.stderr.decode().splitlines() if not line.startswith("audited")]
    assert [line for line in shown if line in report] == report
    assert sorted(line for line in shown if line not in report)[:-1] == sorted(errors)
    assert shown[-1].startswith("audited 10 hand(s)")


def test_no_bar_for_one_record_or_off_a_terminal(tmp_path: Path) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    one = tmp_path / "one.jsonl"
    one.write_bytes(clean_line())
    err = Tty()
    assert audit_command([str(one)], "en", io.StringIO(), err) == 0
    assert err.getvalue().startswith("audited 1 hand(s)")
    two = tmp_path / "two.jsonl"
    two.write_bytes(clean_line() + b"\n" + clean_line("one-deck", 3))
    err = Tty()
    assert audit_command([str(two)], "en", io.StringIO(), err) == 0
    assert "0/2 [" in err.getvalue()  # tqdm drew its bar on the "terminal" (80 columns: no size to read)
    err = io.StringIO()
    assert audit_command([str(two)], "en", io.StringIO(), err) == 0
    assert err.getvalue().startswith("audited 2 hand(s)")


# --- serve ------------------------------------------------------------------------------


def test_serve_runs_gunicorn_with_the_packaged_config(monkeypatch: Any) -> None:
    seen: list[list[str]] = []
    monkeypatch.setattr(os, "execv", lambda path, argv: seen.append(list(argv)))
    main(["serve", "--bind", "127.0.0.1:9"])
    assert seen == [[sys.executable, "-m", "gunicorn", "-c", "python:service.gunicorn_conf", "--bind", "127.0.0.1:9"]]
    import importlib

    conf = importlib.import_module("service.gunicorn_conf")
    assert conf.wsgi_app == "service.app:create_app()" and conf.worker_class == "sync"


# --- the benchmark ------------------------------------------------------------------


def test_the_benchmark_runs(tmp_path: Path) -> None:
    """bench/audit.py stays runnable (on four hands): both runs audit every hand."""
    done = subprocess.run([sys.executable, "bench/audit.py", "--hands", "4", "--file", str(tmp_path / "h.jsonl")],
                          cwd=ROOT, capture_output=True, timeout=300, check=True, text=True)
    rows = {line.split()[1]: line.split() for line in done.stdout.splitlines() if line.startswith("--jobs")}
    assert set(rows) == {"2", "1"} and all(row[2] == "4" for row in rows.values())
    assert len((tmp_path / "h.jsonl").read_bytes().splitlines()) == 4
    assert "to a worker and back:" in done.stdout


@pytest.mark.parametrize(("lang", "tag"), [("zh", "zh-Hans"), ("zh-Hans", "zh-Hans"), ("zh-Hant", "zh-Hant")])
def test_the_report_is_worded_by_the_catalog_of_its_language(
    mixed: tuple[Path, int, int], capsys: Any, lang: str, tag: str
) -> None:
    """Every line of a Chinese report is Chinese: the trick lines, the kitty and the
    settlement (worded by its reasons, no raw outcome code) and the summary."""
    path, k, seat = mixed
    assert main(["audit", str(path), "--lang", lang, "--jobs", "1"]) == 2
    out = capsys.readouterr().out
    clean = out.split("== ")[1]
    assert "trick" not in clean and "kitty" not in clean and "settle" not in clean and "defenders" not in clean
    settle = next(line for line in clean.splitlines() if line.startswith(("  升级：", "  升級：")))
    assert "dealer_keeps" not in settle and "defenders_take_over" not in settle
    assert ("第1轮" if tag == "zh-Hans" else "第1輪") in clean
    assert ("汇总：共10手牌" if tag == "zh-Hans" else "彙總：共10手牌") in out
    dirty = run_audit(load_hand(orjson.loads(path.read_bytes().splitlines()[2])))
    assert f"follow.illegal: {said(dirty.violations[0].reason, tag)}\n" in out
