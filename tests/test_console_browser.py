"""The referee console in a real browser: headless Chromium driven by Selenium
against the app served on a loopback port.

Each test settles one case the way a director would (clicking cards, typing
notation, uploading a file), checks what the page shows, and writes
screenshots at 360 px and 1920 px to ``$CONSOLE_SHOTS`` (default: a pytest
temporary folder, printed with ``-n 0 -s``). After every test the browser log must
hold no error. The screenshots:

- ``01-throw-98844-forced-44``: seed 000's throw against a hand with QS QS: the
  failed units, seat 1's queens highlighted, 4S 4S forced;
- ``02-trick-ruff-over-ruff-illegal-discard``: the winner highlighted, each play's
  role, seat 3's illegal discard with what it owed and 2S highlighted in its hand;
- ``03-permalink-reopened-options-open``: the same ruling reopened from its link,
  a seat's name and a changed option kept;
- ``04-language-zh``: the page and the referee's explanations in Chinese;
- ``05-audit-first-violation``: an uploaded .jsonl, the injected illegal follow
  marked at trick 4 and shown by "Go to the first violation";
- ``06-kitty-and-settlement``: ×4 kitty, and the level table as bands with the
  band applied highlighted;
- ``07-print-view``: the print media: time, rules, link, verdict, explanation;
- ``08-phone-picker-open-360``: the card picker opened at the foot of a phone screen;
- ``09-audit-failed-throw-penalty``: a generated two-deck hand, the trick whose
  throw failed with its forced play and penalty.

Skipped, with the reason, only when Chromium or chromedriver is not installed
(``.ci/run`` installs Debian's ``chromium`` and ``chromium-driver``).
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from service.app import create_app  # noqa: E402
from tests.helpers import served  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)), None)
CHROMEDRIVER = "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else shutil.which("chromedriver")
CHROME_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)
WIDTHS = (360, 1920)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="Chromium or chromedriver not found (apt-get install chromium chromium-driver; .ci/run does it)",
)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with served(create_app({"ACCESS_LOG": False})) as url:
        yield url


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    named = os.environ.get("CONSOLE_SHOTS")
    folder = Path(named) if named else tmp_path_factory.mktemp("console-shots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nconsole screenshots: {folder}")
    return folder


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in CHROME_ARGS:
        options.add_argument(arg)
    profile = tempfile.mkdtemp(prefix="console-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--lang=en-US")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # the driver's path is given: Selenium Manager never looks anything up
    browser = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    browser.set_window_size(1280, 900)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(autouse=True)
def no_javascript_errors(driver: Any) -> Iterator[None]:
    driver.get_log("browser")  # what an earlier test left
    yield
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == [], "JavaScript errors in the browser log"


# --- helpers ---------------------------------------------------------------------

def open_console(driver: Any, url: str) -> None:
    driver.get("about:blank")
    driver.get(url)
    until(driver, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))


def shoot(driver: Any, shots: Path, name: str) -> None:
    """Full-page screenshots at a phone's and a projector's width."""
    for width in WIDTHS:
        driver.set_window_size(width, 900)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, min(height + 140, 6000))
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(shots / f"{name}-{width}.png"))
        wide = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1")
        assert not wide, f"{name}: the page scrolls sideways at {width} px"
    driver.set_window_size(1280, 900)


def css(driver: Any, selector: str) -> Any:
    return driver.find_element(By.CSS_SELECTOR, selector)


def csss(driver: Any, selector: str) -> list[Any]:
    return driver.find_elements(By.CSS_SELECTOR, selector)


def choose(driver: Any, selector: str, value: str) -> None:
    Select(css(driver, selector)).select_by_value(value)


def set_rules(driver: Any, preset: str, level: str, suit: str) -> None:
    enter(driver, {"preset": preset, "trump-level": level, "trump-suit": suit})


POLL = 0.05  # seconds between two looks (Selenium's default, 0.5 s, is mostly idle time on loopback)


def until(driver: Any, check: Any) -> Any:
    """Wait for ``check(driver)``; a verdict redrawn meanwhile is looked up again."""
    return WebDriverWait(driver, 15, poll_frequency=POLL, ignored_exceptions=[StaleElementReferenceException]).until(
        check
    )


def wait_for(driver: Any, selector: str) -> Any:
    return WebDriverWait(driver, 15, poll_frequency=POLL).until(
        ec.presence_of_element_located((By.CSS_SELECTOR, selector))
    )


def cards_in(element: Any) -> list[str]:
    return [c.get_attribute("data-card") for c in element.find_elements(By.CSS_SELECTOR, "svg.card")]


def marked_in(element: Any, kind: str) -> list[str]:
    return [c.get_attribute("data-card") for c in element.find_elements(By.CSS_SELECTOR, f"svg.card.{kind}")]


def enter(driver: Any, values: dict[str, str]) -> None:
    """Fill a form: each field by its id, a <select> chosen, anything else typed."""
    for key, value in values.items():
        el = css(driver, f"#{key}")
        if el.tag_name == "select":
            Select(el).select_by_value(value)
        else:
            el.clear()
            el.send_keys(value)


def lay_out_trick(driver: Any) -> None:
    """Spades led by seat 0, seat 1 ruffs, seat 2 over-ruffs, seat 3 discards a club holding a spade."""
    set_rules(driver, "two-deck", "10", "H")
    css(driver, "#tab-trick").click()
    enter(driver, {
        "trick-leader": "0",
        "f-trick-play-0": "♠A", "f-trick-play-1": "3h", "f-trick-play-2": "5H", "f-trick-play-3": "4C",
        "f-trick-hand-3": "2S 4C 大王",
    })


def rule_on_the_trick(driver: Any, base_url: str) -> None:
    """A fresh console, the trick of ``lay_out_trick`` laid out and ruled."""
    open_console(driver, f"{base_url}/console")
    lay_out_trick(driver)
    css(driver, "#trick-form button[type=submit]").click()
    wait_for(driver, "#trick-verdict li.play")


# --- the cases ---------------------------------------------------------------------

def test_throw_98844_against_queens_forces_44(driver: Any, base_url: str, shots: Path) -> None:
    """Seed 000: 98844 thrown in a plain suit (two decks, playing 10); a hand with QQ
    beats both pairs, and the leader must play 44."""
    open_console(driver, f"{base_url}/console")
    set_rules(driver, "two-deck", "10", "H")
    css(driver, "#tab-throw").click()
    css(driver, "#f-throw-lead").click()  # the picker adds to the field last focused
    for card in ("9S", "8S", "8S", "4S", "4S"):
        css(driver, f'#palette-cards button[data-card="{card}"]').click()
    assert css(driver, "#f-throw-lead").get_attribute("value") == "9S 8S 8S 4S 4S"
    enter(driver, {"f-throw-hand-1": "QS QS 3C 7D", "f-throw-hand-2": "JD 5C", "f-throw-hand-3": "2S 6H"})
    css(driver, "#throw-form button[type=submit]").click()
    forced = wait_for(driver, "#throw-forced")
    assert cards_in(forced) == ["4S", "4S"]
    verdict = css(driver, "#throw-verdict .verdict-text").text
    assert "fails" in verdict and "4S 4S" in verdict
    failed = [u.get_attribute("data-unit") for u in csss(driver, "#throw-verdict li.unit.failed")]
    assert "8S 8S" in failed and "4S 4S" in failed
    assert css(driver, '#throw-verdict li.unit.failed .beaten-by li[data-seat="1"]').text.endswith("QS QS")
    assert marked_in(css(driver, '#throw-verdict .hand-view[data-seat="1"]'), "blocker") == ["QS", "QS"]
    assert marked_in(css(driver, '#throw-verdict .hand-view[data-seat="2"]'), "blocker") == []
    shoot(driver, shots, "01-throw-98844-forced-44")


def test_ruff_over_ruff_and_an_illegal_discard(driver: Any, base_url: str, shots: Path) -> None:
    rule_on_the_trick(driver, base_url)
    roles = {p.get_attribute("data-seat"): p.get_attribute("data-role") for p in csss(driver, "#trick-verdict li.play")}
    assert roles == {"0": "lead", "1": "ruff", "2": "over-ruff", "3": "discard"}
    winner = css(driver, "#trick-verdict li.play.winner")
    assert winner.get_attribute("data-seat") == "2"
    assert "Seat 2 wins" in css(driver, "#trick-verdict .verdict-text").text
    illegal = css(driver, '#trick-verdict li.play[data-seat="3"]')
    assert illegal.get_attribute("data-legal") == "false"
    assert "spades" in illegal.find_element(By.CSS_SELECTOR, ".owed-text").text
    assert marked_in(illegal, "hint") == ["2S"]  # the legal example, in the hand
    assert css(driver, '#trick-verdict li.play[data-seat="1"]').get_attribute("data-legal") == "null"
    shoot(driver, shots, "02-trick-ruff-over-ruff-illegal-discard")


def test_permalink_reproduces_the_ruling(driver: Any, base_url: str, shots: Path) -> None:
    open_console(driver, f"{base_url}/console")
    lay_out_trick(driver)
    css(driver, "#seats summary").click()
    css(driver, "#seat-name-2").send_keys("Wang\t")
    css(driver, "#options summary").click()
    choose(driver, "#opt-throw_comparison", "all_units")
    css(driver, "#trick-form button[type=submit]").click()
    wait_for(driver, "#trick-verdict li.play")
    before = css(driver, "#trick-verdict").text
    assert "Seat 2 (Wang) wins" in before
    css(driver, "#share").click()
    link = css(driver, "#share-link").get_attribute("value")
    assert link.startswith(f"{base_url}/console#r=")

    open_console(driver, link)
    wait_for(driver, "#trick-verdict li.play.winner")
    assert css(driver, "#trick-verdict").text == before
    assert css(driver, "#preset").get_attribute("value") == "two-deck"
    assert css(driver, "#trump-level").get_attribute("value") == "10"
    assert css(driver, "#opt-throw_comparison").get_attribute("value") == "all_units"
    assert "overridden" in css(driver, '.option[data-option="throw_comparison"]').get_attribute("class")
    assert css(driver, "#f-trick-hand-3").get_attribute("value") == "2S 4C 大王"
    css(driver, "#options summary").click()
    shoot(driver, shots, "03-permalink-reopened-options-open")
    enter(driver, {"f-trick-play-3": "2S"})  # a verdict no longer answering its inputs is marked stale
    assert "stale" in css(driver, "#trick-verdict").get_attribute("class")


def test_language_switch(driver: Any, base_url: str, shots: Path) -> None:
    rule_on_the_trick(driver, base_url)
    choose(driver, "#language", "zh")
    until(driver, lambda d: "赢得此墩" in css(d, "#trick-verdict .verdict-text").text)
    assert css(driver, "#title").text == "裁判台"
    assert driver.execute_script("return document.documentElement.lang") == "zh-CN"
    assert css(driver, "#tab-throw").text == "甩牌"
    reasons = css(driver, '#trick-verdict li.play[data-seat="1"] .reasons').text
    assert "毙" in reasons  # the referee's own explanation, in Chinese
    assert css(driver, '#trick-verdict li.play[data-seat="2"] .role').text == "盖毙"
    assert css(driver, '#palette-cards button[data-card="BJ"]').get_attribute("aria-label") == "大王"
    shoot(driver, shots, "04-language-zh")
    choose(driver, "#language", "en")
    until(driver, lambda d: "wins the trick" in css(d, "#trick-verdict .verdict-text").text)


def _one_deck_hand() -> dict[str, Any]:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    body = spec["paths"]["/v1/hand"]["post"]["requestBody"]["content"]["application/json"]["examples"]["oneDeck"]
    return copy.deepcopy(body["value"])


def test_audit_marks_an_injected_illegal_follow(driver: Any, base_url: str, shots: Path, tmp_path: Path) -> None:
    clean = _one_deck_hand()
    dirty = _one_deck_hand()
    # trick 4 (index 3): spades led, seat 0 plays QC while holding spades; QC's later lead becomes 10S
    dirty["tricks"][3]["plays"][1] = ["QC"]
    dirty["tricks"][9]["plays"][0] = ["10S"]
    upload = tmp_path / "event.jsonl"
    upload.write_text(json.dumps(clean) + "\n" + json.dumps(dirty) + "\n", encoding="utf-8")

    open_console(driver, f"{base_url}/console")
    css(driver, "#tab-audit").click()
    css(driver, "#audit-file").send_keys(str(upload))
    until(driver, lambda d: len(csss(d, "#audit-hand option")) == 2)
    css(driver, "#audit-form button[type=submit]").click()
    wait_for(driver, "#audit-verdict .verdict-text")
    assert css(driver, "#audit-verdict .verdict-text").get_attribute("data-valid") == "true"
    assert csss(driver, "#audit-verdict nav.steps button.violation") == []

    choose(driver, "#audit-hand", "1")
    css(driver, "#audit-form button[type=submit]").click()
    until(
        driver, lambda d: css(d, "#audit-verdict .verdict-text").get_attribute("data-valid") == "false")
    assert "trick 4" in css(driver, "#audit-verdict .verdict-text").text
    marked = [b.get_attribute("data-trick") for b in csss(driver, "#audit-verdict nav.steps button.violation")]
    assert marked[0] == "3"
    css(driver, '#audit-verdict nav.steps button[data-trick="0"]').click()
    assert csss(driver, "#audit-step .violations") == []
    css(driver, "#audit-first").click()
    shown = css(driver, "#audit-step .violations")
    assert shown.get_attribute("data-trick") == "3"
    assert "follow.illegal" in shown.text and "Seat 0" in shown.text
    assert css(driver, '#audit-step li.play[data-seat="0"]').get_attribute("data-legal") == "false"
    assert driver.switch_to.active_element.text.lower().startswith("trick 4")  # focus follows the step
    css(driver, "#audit-verdict nav.steps button.next").click()
    assert css(driver, '#audit-verdict nav.steps button[aria-current="step"]').get_attribute("data-trick") == "4"
    css(driver, "#audit-verdict nav.steps button.prev").click()
    shoot(driver, shots, "05-audit-first-violation")


def test_kitty_and_settlement_with_level_bands(driver: Any, base_url: str, shots: Path) -> None:
    open_console(driver, f"{base_url}/console")
    set_rules(driver, "two-deck", "2", "H")
    css(driver, "#tab-kitty").click()
    enter(driver, {
        "kitty-dealer": "0", "kitty-mode": "lead", "f-kitty-lead": "7S 7S", "kitty-winner": "1",
        "f-kitty-cards": "KS 10D 5C 3C 4C 6C 7C 8C",
    })
    css(driver, "#kitty-form button[type=submit]").click()
    verdict = wait_for(driver, "#kitty-verdict .verdict-text")
    assert verdict.get_attribute("data-multiplier") == "4"
    assert "100 points to the defenders" in verdict.text
    bands = csss(driver, "#settle-bands li.band")
    assert len(bands) == 6 and csss(driver, "#settle-bands li.band.hit") == []
    choose(driver, "#settle-dealer", "0")
    css(driver, "#settle-points").send_keys("125")
    css(driver, "#settle-form button[type=submit]").click()
    verdict = wait_for(driver, "#settle-verdict .verdict-text")
    assert verdict.get_attribute("data-outcome") == "defenders_take_over"
    hit = css(driver, "#settle-bands li.band.hit")
    assert (hit.get_attribute("data-from"), hit.get_attribute("data-to")) == ("120", "160")
    assert "Seat 1" in css(driver, "#settle-verdict").text  # the dealer's 下家 deals next
    shoot(driver, shots, "06-kitty-and-settlement")


def test_keyboard_only_trick(driver: Any, base_url: str) -> None:
    """Tabs by arrow keys, fields by typing, the ruling by Enter."""
    from selenium.webdriver.common.keys import Keys

    open_console(driver, f"{base_url}/console")
    css(driver, "#tab-trick").send_keys(Keys.ARROW_RIGHT)
    assert driver.switch_to.active_element.get_attribute("id") == "tab-throw"
    assert css(driver, "#panel-throw").is_displayed()
    driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    enter(driver, {f"f-trick-play-{seat}": cards for seat, cards in enumerate(("KD", "AD", "2D", "BJ"))})
    css(driver, "#f-trick-play-3").send_keys(Keys.ENTER)
    winner = wait_for(driver, "#trick-verdict li.play.winner")
    assert winner.get_attribute("data-seat") == "3"
    live = css(driver, "#trick-verdict").get_attribute("aria-live")
    assert live == "polite"
    unlabelled = driver.execute_script(
        "return [...document.querySelectorAll('input, select, textarea')]"
        ".filter(e => !e.labels || !e.labels.length).map(e => e.id)")
    assert unlabelled == []


def test_print_view_keeps_verdict_explanation_rules_and_time(driver: Any, base_url: str, shots: Path) -> None:
    rule_on_the_trick(driver, base_url)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert css(driver, "#trick-verdict .verdict-text").is_displayed()
        assert css(driver, '#trick-verdict li.play[data-seat="3"] .reasons').is_displayed()
        assert not css(driver, "#trick-form").is_displayed()
        assert not css(driver, "#palette").is_displayed()
        assert css(driver, "#print-time").text.startswith("Ruled at ")
        assert css(driver, "#print-rules").text == "Rules: two-deck; trump 10♥."
        assert css(driver, "#print-link").text.startswith(f"{base_url}/console#r=")
        shoot(driver, shots, "07-print-view")
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


@pytest.mark.parametrize(
    ("typed", "cards", "errors"),
    [
        ("10H 10H", ["10H", "10H"], []),
        ("大王 小王", ["BJ", "SJ"], []),
        ("♠A ♥10 tc", ["AS", "10H", "10C"], []),
        ("黑桃Q, 方块2", ["QS", "2D"], []),
        ("SJBJ js", ["SJ", "BJ", "JS"], []),
        ("AS 1H ZZ", ["AS"], ["1H", "ZZ"]),  # never a guess: what is no card is named
    ],
)
def test_card_notation(driver: Any, base_url: str, typed: str, cards: list[str], errors: list[str]) -> None:
    if not driver.current_url.startswith(f"{base_url}/console"):
        open_console(driver, f"{base_url}/console")
    parsed = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/console/cards.js').then((m) => done(m.parseCards(arguments[0])));", typed)
    assert parsed == {"cards": cards, "errors": errors}


def test_a_refused_request_names_the_seat(driver: Any, base_url: str) -> None:
    """A 422 is shown as the referee's message, its pointer turned into the seat it is about."""
    open_console(driver, f"{base_url}/console")
    set_rules(driver, "two-deck", "10", "H")
    enter(driver, {
        "trick-leader": "2",
        "f-trick-play-0": "AS AS", "f-trick-play-1": "3C 4C", "f-trick-play-2": "KS KS", "f-trick-play-3": "2D",
    })
    css(driver, "#trick-form button[type=submit]").click()
    error = wait_for(driver, "#trick-verdict .error")
    assert error.get_attribute("role") == "alert"
    item = error.find_element(By.CSS_SELECTOR, "li")
    assert item.get_attribute("data-pointer") == "/plays/1"  # seat 3 plays second after seat 2
    assert item.text.startswith("Seat 3: this play has 1 cards")
    logged = driver.get_log("browser")  # the browser reports the 422 itself: that one entry only
    assert [e["source"] for e in logged if e["level"] == "SEVERE"] == ["network"]
    assert all("422" in e["message"] for e in logged if e["level"] == "SEVERE")


def test_phone_card_picker(driver: Any, base_url: str, shots: Path) -> None:
    """At 360 px the picker is folded at the foot of the screen; opened, it adds to the field in use."""
    driver.set_window_size(360, 740)
    try:
        open_console(driver, f"{base_url}/console")
        toggle = css(driver, "#palette-toggle")
        assert toggle.get_attribute("aria-expanded") == "false"
        assert not css(driver, "#palette-cards").is_displayed()
        play = css(driver, "#f-trick-play-1")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", play)
        play.click()
        toggle.click()
        for card in ("BJ", "BJ"):
            css(driver, f'#palette-cards button[data-card="{card}"]').click()
        assert play.get_attribute("value") == "BJ BJ"
        assert cards_in(css(driver, "#f-trick-play-1 + .preview")) == ["BJ", "BJ"]
        driver.save_screenshot(str(shots / "08-phone-picker-open-360.png"))
    finally:
        driver.set_window_size(1280, 900)


def test_audit_steps_to_a_failed_throw_and_its_penalty(driver: Any, base_url: str, shots: Path) -> None:
    """A generated two-deck hand (points_per_card penalty) whose leader once tried a throw
    that failed: pasted whole, it audits clean and that trick shows the forced play and the penalty."""
    from engine.rules import rules_from_json
    from tests.deal import play_hand
    from tests.test_hand import body

    rules = rules_from_json({"preset": "two-deck", "throw_penalty": "points_per_card"})
    deal = next(d for d in (play_hand(rules, seed) for seed in range(40)) if any(t.attempted_throw for t in d.tricks))
    record = body(deal, rules={"preset": "two-deck", "throw_penalty": "points_per_card"})
    index = next(i for i, t in enumerate(deal.tricks) if t.attempted_throw)

    open_console(driver, f"{base_url}/console")
    css(driver, "#tab-audit").click()
    driver.execute_script(  # a paste: the whole record at once
        "const t = document.querySelector('#audit-text'); t.value = arguments[0];"
        "t.dispatchEvent(new Event('input', {bubbles: true}));", json.dumps(record))
    css(driver, "#audit-form button[type=submit]").click()
    verdict = wait_for(driver, "#audit-verdict .verdict-text")
    assert verdict.get_attribute("data-valid") == "true", verdict.text
    css(driver, f'#audit-verdict nav.steps button[data-trick="{index}"]').click()
    line = css(driver, "#audit-step .throw-line")
    assert "bad" in line.get_attribute("class")
    assert "tried to throw" in line.text and "must play" in line.text and "points to team" in line.text
    assert css(driver, "#audit-verdict .record-rules").text.startswith(
        "The record's rules: two-deck, throw_penalty=\"points_per_card\"; trump ")
    assert css(driver, '#audit-step li.play[data-role="lead"]').get_attribute("data-seat") == str(deal.tricks[index].leader)
    shoot(driver, shots, "09-audit-failed-throw-penalty")


def test_a_thrown_lead_in_a_trick_is_checked_against_the_hands(driver: Any, base_url: str) -> None:
    """A trick led by a throw, with a hand that beats it: the trick says the throw fails and what is forced."""
    open_console(driver, f"{base_url}/console")
    set_rules(driver, "two-deck", "10", "H")
    enter(driver, {
        "trick-leader": "0",
        "f-trick-play-0": "9S 8S 8S 4S 4S", "f-trick-play-1": "QS QS 3S 5S 6S",
        "f-trick-play-2": "2C 3C 4C 5C 6C", "f-trick-play-3": "7D 8D 9D JD QD",
        "f-trick-hand-1": "QS QS 3S 5S 6S 7C",
        "f-trick-hand-2": "2C 3C 4C 5C 6C 7C", "f-trick-hand-3": "7D 8D 9D JD QD KD",
    })
    css(driver, "#trick-form button[type=submit]").click()
    line = wait_for(driver, "#trick-verdict .throw-line")
    assert "bad" in line.get_attribute("class")
    assert "Seat 0 must play 4S 4S instead" in line.text
