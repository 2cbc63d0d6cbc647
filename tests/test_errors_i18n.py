"""Errors as part of the contract: every problem and every ``errors[]`` entry has
a stable code, and its texts follow Accept-Language (English, Simplified and
Traditional Chinese) from the Babel catalogs in service/locales (docs/api.md
"Errors" and "Languages"), all through the real app."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import orjson
import pytest
from babel.messages.pofile import read_po

from service import i18n
from service.errors import MARSHMALLOW_CODES
from service.limits import MAX_BODY_BYTES

ROOT = Path(__file__).resolve().parent.parent
TRUMP = {"level": "2", "suit": "S"}
HANS, HANT = {"Accept-Language": "zh-CN"}, {"Accept-Language": "zh-TW"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def _catalog(locale: str) -> dict[tuple[str, str], str]:
    """(context, key) → text; a message with plural forms gives its forms joined by a newline."""
    with (ROOT / "service" / "locales" / locale / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return {
            (m.context, m.id[0] if isinstance(m.id, tuple) else m.id):
                "\n".join(m.string) if isinstance(m.string, tuple) else m.string
            for m in read_po(f) if m.id
        }


CATALOGS = {loc: _catalog(loc) for loc in ("en", "zh_Hans", "zh_Hant")}


def codes_in_source() -> set[str]:
    """Every code a raise site in engine/ or service/ gives (``code="..."``,
    ``coded("...")``, ``register_message(..., "...")``) or marshmallow's texts map to."""
    found = set(MARSHMALLOW_CODES.values())
    for path in [*ROOT.glob("engine/*.py"), *ROOT.glob("service/**/*.py")]:
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'\bcode="([a-z_]+)"', text))
        found |= set(re.findall(r'\bcoded\(\s*"([a-z_]+)"', text))
        found |= set(re.findall(r'register_message\([^)]*?,\s*"([a-z_]+)"', text))
    return found


# --- the catalogs ------------------------------------------------------------------------


PROBLEMS = ("title", "detail", "error", "error+params")


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_catalog_translates_every_message_of_the_english_one() -> None:
    """The same keys (less a locale's own number words), every text given; a
    problem's text names the same fields as the English one, a reason's (and a
    part's) only fields the English one can fill (docs/api.md "Languages")."""
    english = CATALOGS["en"]
    for locale, catalog in CATALOGS.items():
        assert {k for k in catalog if k[0] != "number"} == english.keys(), locale
        for key, text in catalog.items():
            assert text.strip() or key == ("list", "cards"), (locale, key)
            if key[0] == "number":
                continue
            if key[0] in PROBLEMS:
                assert _fields(text) == _fields(english[key]), (locale, key)
            else:
                assert _fields(text) <= _fields(english[key]) | _facts(key), (locale, key)
        if locale != "en":
            problems = [t for k, t in catalog.items() if k[0] in PROBLEMS]
            assert sum(bool(CJK.search(t)) for t in problems) > 0.9 * len(problems), locale
            reasons = [t for k, t in catalog.items() if k[0] == "reason"]
            assert all(CJK.search(t) for t in reasons), locale


def _facts(key: tuple[str, str]) -> set[str]:
    from engine.reasons import REASONS

    return set(REASONS.get(key[1], {})) if key[0] == "reason" else set()


def test_the_two_chinese_catalogs_are_different_scripts() -> None:
    differ = [k for k in CATALOGS["zh_Hans"] if CATALOGS["zh_Hans"][k] != CATALOGS["zh_Hant"][k]]
    assert len(differ) > len(CATALOGS["zh_Hans"]) // 2


def test_every_code_in_the_source_has_its_message_in_every_catalog() -> None:
    codes = codes_in_source()
    assert {"too_many_copies", "mixed_suit_lead", "wrong_card_count", "unknown_field", "hand_required"} <= codes
    for locale, catalog in CATALOGS.items():
        missing = sorted(c for c in codes if ("error", c) not in catalog)
        assert not missing, (locale, missing)


def test_a_new_catalog_is_offered_without_code_changes() -> None:
    assert set(i18n.CATALOGS) == {"en", "zh-Hans", "zh-Hant"}  # one per directory of service/locales


@pytest.mark.parametrize(
    ("header", "tag"),
    [(None, "en"), ("", "en"), ("fr", "en"), ("*", "en"), ("en-US", "en"),
     ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh-Hans", "zh-Hans"), ("zh-hans-cn", "zh-Hans"),
     ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-MO", "zh-Hant"), ("zh-Hant", "zh-Hant"), ("zh-Hant-CN", "zh-Hant"),
     ("en;q=0.5, zh-TW;q=0.8", "zh-Hant"), ("zh-TW;q=0.4, zh-CN;q=0.6", "zh-Hans"), ("zh;q=0, en", "en"),
     ("fr, de;q=0.9, zh-HK;q=0.1", "zh-Hant"), ("en, zh-TW;q=0.9", "en")],
)
def test_accept_language_negotiation(header: str | None, tag: str) -> None:
    assert i18n.negotiate(header) == tag


# --- problems through the app ------------------------------------------------------------


def _problem(resp: Any, status: int, code: str) -> dict[str, Any]:
    assert resp.status_code == status
    assert resp.headers["Content-Type"] == "application/problem+json"
    body = resp.get_json()
    assert body["status"] == status and body["code"] == code
    return body


@pytest.mark.parametrize(("headers", "lang"), [({}, "en"), (HANS, "zh-Hans"), (HANT, "zh-Hant")])
def test_404_is_a_coded_problem_in_the_language_asked(app: Any, headers: dict[str, str], lang: str) -> None:
    api = app.test_client()  # outside the spec's paths: the raw client
    body = _problem(api.get("/v1/nowhere", headers=headers), 404, "not_found")
    assert body["detail"] == i18n.text(lang, "detail", "not_found", {"path": "/v1/nowhere"})
    assert "/v1/nowhere" in body["detail"]
    resp = api.get("/v1/nowhere", headers=headers)
    assert resp.headers["Content-Language"] == lang


def test_404_texts_differ_by_script(app: Any) -> None:
    api = app.test_client()
    hans = api.get("/v1/nowhere", headers=HANS).get_json()
    hant = api.get("/v1/nowhere", headers=HANT).get_json()
    assert hans["title"] == "未找到" and hant["title"] == "找不到"
    assert CJK.search(hans["detail"]) and hans["detail"] != hant["detail"]


def test_unknown_preset_is_a_404_naming_it(api: Any) -> None:
    body = _problem(api.get("/v1/rulesets/five-deck"), 404, "not_found")
    assert "five-deck" in body["detail"] and "/v1/rulesets" in body["detail"]


def test_405_is_a_coded_problem_with_allow(app: Any) -> None:
    api = app.test_client()
    resp = api.get("/v1/throw", headers=HANT)
    body = _problem(resp, 405, "method_not_allowed")
    assert "POST" in resp.headers["Allow"] and "POST" in body["detail"] and "GET" in body["detail"]
    assert body["title"] == "不允許的請求方法"


def test_413_states_the_limit(app: Any) -> None:
    body = b'{"pad": "' + b"x" * MAX_BODY_BYTES + b'"}'
    for headers, words in (({}, "65536 bytes (64 KiB)"), (HANS, "65536 字节"), (HANT, "65536 位元組")):
        resp = app.test_client().post("/v1/settle", data=body, content_type="application/json", headers=headers)
        problem = _problem(resp, 413, "body_too_large")
        assert words in problem["detail"] and problem["limit_bytes"] == MAX_BODY_BYTES


def test_malformed_json_and_wrong_media_type(api: Any) -> None:
    body = _problem(api.post("/v1/settle", data="{nope", headers=HANS), 400, "malformed_json")
    assert body["detail"] == "请求体不是有效的 JSON"
    _problem(api.post("/v1/settle", data="{}", content_type="text/plain"), 415, "unsupported_media_type")


def test_a_body_that_is_not_an_object(api: Any) -> None:
    body = _problem(api.post("/v1/settle", [1, 2]), 422, "invalid_request")
    assert body["errors"][0]["code"] == "body_not_object" and body["errors"][0]["pointer"] == ""


# --- 422s: codes, translations, the way out ------------------------------------------------


def _errors(resp: Any) -> list[dict[str, str]]:
    return _problem(resp, 422, "invalid_request")["errors"]


def test_a_mixed_suit_lead_is_coded_and_translated(api: Any) -> None:
    body = {"trump": TRUMP, "lead": ["AH", "KC"], "hand": ["3H", "4H", "5D"]}
    (en,) = _errors(api.post("/v1/follow", body))
    assert en["code"] == "mixed_suit_lead" and en["pointer"] == "/lead/1" and "mixes effective suits" in en["message"]
    (hans,) = _errors(api.post("/v1/follow", body, headers=HANS))
    (hant,) = _errors(api.post("/v1/follow", body, headers=HANT))
    assert hans["code"] == hant["code"] == "mixed_suit_lead"
    assert "KC" in hans["message"] and "AH" in hans["message"] and "花色" in hans["message"]
    assert "門" in hant["message"] and "门" in hans["message"]


def test_a_wrong_card_count_is_coded(api: Any) -> None:
    body = {"trump": TRUMP, "lead": ["AH", "AH"], "hand": ["3H", "4H", "5D"], "play": ["3H"]}
    errors = _errors(api.post("/v1/follow", body, headers=HANT))
    assert [e["code"] for e in errors] == ["wrong_card_count"]
    assert errors[0]["message"] == "此次出牌 1 張，首引 2 張：須出同樣張數"


def test_copies_are_counted_across_lead_and_hand(api: Any) -> None:
    body = {"rules": "one-deck", "trump": TRUMP, "lead": ["3H", "3H"], "hand": ["3H", "4C"]}
    errors = _errors(api.post("/v1/follow", body))
    assert errors[0]["code"] == "too_many_copies"
    assert "across lead and hand" in errors[0]["message"] or "in lead" in errors[0]["message"]
    body = {"trump": TRUMP, "lead": ["3H", "3H"], "hand": ["3H", "4C"]}  # two decks: 3 copies
    (error,) = _errors(api.post("/v1/follow", body))
    assert error["pointer"] == "/hand/0" and error["code"] == "too_many_copies"
    assert error["message"].startswith("3 copies of 3H counted across lead and hand")
    (zh,) = _errors(api.post("/v1/follow", body, headers=HANS))
    assert zh["message"] == "3H 在 lead, hand 中共计 3 张：2 副牌只有 2 张"


def test_an_option_at_the_top_level_says_it_belongs_inside_rules(api: Any) -> None:
    body = {"trump": TRUMP, "cards": ["3H"], "decks": 2}
    (error,) = _errors(api.post("/v1/analyze", body))
    assert error == {"pointer": "/decks", "code": "unknown_field",
                     "message": "unknown field here: decks belongs inside rules"}
    (hant,) = _errors(api.post("/v1/analyze", body, headers=HANT))
    assert hant["message"] == "此處不認識該欄位：decks 應放在 rules 裡面"
    errors = _errors(api.post("/v1/analyze", {**body, "colour": 1}))
    assert {e["pointer"]: (e["code"], e["message"]) for e in errors}["/colour"] == ("unknown_field", "Unknown field.")


def test_marshmallow_and_field_errors_have_codes(api: Any) -> None:
    errors = _errors(api.post("/v1/throw", {"trump": {"level": "1", "suit": "X"}, "leader": 7, "lead": ["ZZ"]}))
    codes = {e["pointer"]: e["code"] for e in errors}
    assert codes == {"/trump/level": "invalid_rank", "/trump/suit": "invalid_suit", "/leader": "invalid_seat",
                     "/lead/0": "invalid_card", "/hands": "missing_field"}
    zh = {e["pointer"]: e["message"] for e in _errors(api.post(
        "/v1/throw", {"trump": {"level": "1", "suit": "X"}, "leader": 7, "lead": ["ZZ"]}, headers=HANT))}
    assert zh["/leader"] == "座位是 0 到 3 的整數" and zh["/hands"] == "缺少必填欄位"
    assert zh["/lead/0"].startswith("'ZZ' 不是一張牌")


def test_the_422_detail_follows_the_language(api: Any) -> None:
    body = _problem(api.post("/v1/settle", {}, headers=HANS), 422, "invalid_request")
    assert body["title"] == "请求无法裁定" and "另有" in body["detail"]
    assert body["detail"].startswith(body["errors"][0]["pointer"] + "：")


def test_every_problem_code_has_title_and_detail_in_every_catalog() -> None:
    problem_codes = {k for (ctx, k) in CATALOGS["en"] if ctx == "title"}
    assert problem_codes == {"invalid_request", "malformed_json", "bad_request", "unsupported_media_type",
                             "body_too_large", "not_found", "method_not_allowed", "internal_error", "http_error",
                             "duplicate_key", "too_deep"}
    for catalog in CATALOGS.values():
        assert all(("detail", c) in catalog for c in problem_codes)


def test_engine_problems_keep_their_codes_through_nested_fields(api: Any) -> None:
    errors = _errors(api.post("/v1/analyze", {"rules": {"preset": "two-deck", "decks": 9}, "trump": TRUMP,
                                              "cards": ["3H"]}))
    assert [(e["pointer"], e["code"]) for e in errors] == [("/rules/decks", "invalid_option_value")]
    errors = _errors(api.post("/v1/analyze", {"rules": "five-deck", "trump": TRUMP, "cards": ["3H"]}))
    assert [(e["pointer"], e["code"]) for e in errors] == [("/rules", "unknown_preset")]
    assert orjson.dumps(errors)


def test_the_spec_enums_list_every_code(spec_dict: dict[str, Any]) -> None:
    schemas = spec_dict["components"]["schemas"]
    assert set(schemas["ErrorCode"]["enum"]) == codes_in_source() | {"invalid_value"}
    assert set(schemas["ProblemCode"]["enum"]) == {k for (ctx, k) in CATALOGS["en"] if ctx == "title"}


def test_teams_are_a_and_b_and_the_old_keys_say_so(api: Any) -> None:
    errors = _errors(api.post("/v1/settle", {"dealer": 0, "defender_points": 40, "levels": {"0": "5", "1": "7"}}))
    assert {(e["pointer"], e["code"]) for e in errors} == {
        ("/levels/0", "invalid_team"), ("/levels/1", "invalid_team"),
        ("/levels/A", "missing_field"), ("/levels/B", "missing_field")}
    assert 'a team is "A" (seats 0 and 2) or "B" (seats 1 and 3)' in [e["message"] for e in errors]


def test_docs_api_lists_every_code(spec_dict: dict[str, Any]) -> None:
    """docs/api.md and the data agree: one table row per problem code and error code."""
    text = (ROOT / "docs/api.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\|[^|\n]*\| `([a-z_]+)` \|", text, re.M)) | set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))
    schemas = spec_dict["components"]["schemas"]
    assert rows == set(schemas["ErrorCode"]["enum"]) | set(schemas["ProblemCode"]["enum"])


def test_a_fourth_language_is_one_catalog_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new ``<locale>/LC_MESSAGES/messages.po`` is offered by negotiation and used, no code changes."""
    import shutil

    for loc in ("en", "zh_Hans"):
        shutil.copytree(ROOT / "service" / "locales" / loc, tmp_path / loc)
    fr = tmp_path / "fr" / "LC_MESSAGES"
    fr.mkdir(parents=True)
    english = (ROOT / "service" / "locales" / "en" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    fr.joinpath("messages.po").write_text(
        english.replace('msgstr "Not found"', 'msgstr "Introuvable"').replace("Language: en", "Language: fr"),
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    catalogs, keys, plurals = i18n._load()
    monkeypatch.setattr(i18n, "CATALOGS", catalogs)
    monkeypatch.setattr(i18n, "KEYS", keys)
    monkeypatch.setattr(i18n, "PLURALS", plurals)
    i18n.negotiate.cache_clear()
    try:
        assert set(i18n.CATALOGS) == {"en", "zh-Hans", "fr"}
        assert i18n.negotiate("fr-CA, en;q=0.5") == "fr"
        assert i18n.text("fr", "title", "not_found") == "Introuvable"
        from engine.cards import parse_card
        from engine.reasons import Cards, Seat, reason
        from service.explain import render

        why = reason("play.not_held", trick=1, seat=Seat(2), cards=Cards((parse_card("10H"),)))
        assert render(why, "fr") == "Trick 1: seat 2 plays 10♥, which it does not hold."  # the copied words
    finally:
        i18n.negotiate.cache_clear()


def test_verdicts_in_traditional_chinese_requests_say_their_script(api: Any) -> None:
    """Verdict reasons are worded by the catalogs: a zh-TW request gets Traditional
    Chinese reasons, labelled so, and a zh-CN one Simplified."""
    body = {"trump": TRUMP, "lead": ["AH", "AH"], "hand": ["3H", "4H", "5D"], "play": ["3H", "5D"]}
    resp = api.post("/v1/follow", body, headers=HANT)
    assert resp.status_code == 200 and resp.headers["Content-Language"] == "zh-Hant"
    assert resp.get_json()["reasons"][0]["message"] == "你只有2張紅桃，不多於首家出的2張，必須全部跟出；這手牌出了1張。"
    resp = api.post("/v1/follow", body, headers=HANS)
    assert resp.headers["Content-Language"] == "zh-Hans"
    assert resp.get_json()["reasons"][0]["message"] == "你只有2张红桃，不多于首家出的2张，必须全部跟出；这手牌出了1张。"
