"""``GET /console``: the referee console's files are served from the package,
reference nothing but this origin, and match the spec's list of assets.

What the page does in a browser is tests/test_console_browser.py.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from service.console_page import ASSETS, STATIC

SVG_NAMESPACE = "http://www.w3.org/2000/svg"


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.inline_scripts = 0
        self.inline_styles = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.refs += [str(a[k]) for k in ("src", "href") if a.get(k)]
        if tag == "script" and "src" not in a:
            self.inline_scripts += 1
        if "style" in a:
            self.inline_styles += 1


def test_page_is_served_with_a_same_origin_policy(api: Any) -> None:
    resp = api.get("/console")
    assert resp.status_code == 200
    assert resp.headers["Content-Type"].startswith("text/html")
    csp = resp.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self';" in csp
    assert "unsafe-inline" not in csp and "nonce" not in csp


def test_page_references_only_its_own_files(api: Any) -> None:
    parser = _Refs()
    parser.feed(api.get("/console").get_data(as_text=True))
    assert parser.inline_scripts == 0 and parser.inline_styles == 0  # the policy would block them
    local = [r for r in parser.refs if r.startswith("/console/")]
    others = [r for r in parser.refs if r not in local]
    assert sorted(others) == ["#main", "/docs", "data:,"]
    for ref in local:
        name = ref.removeprefix("/console/")
        resp = api.get(ref)
        assert resp.status_code == 200, ref
        assert resp.get_data() == (STATIC / name).read_bytes()
        assert resp.headers["Content-Type"] == ASSETS[name]


def test_every_module_import_is_a_served_file() -> None:
    for name in ASSETS:
        if not name.endswith(".js"):
            continue
        text = (STATIC / name).read_text(encoding="utf-8")
        for target in re.findall(r'^import .*? from "\./([^"]+)";', text, flags=re.M | re.S):
            assert target in ASSETS, f"{name} imports {target}"


@pytest.mark.parametrize("name", sorted(ASSETS))
def test_no_file_reaches_another_origin(name: str) -> None:
    text = (STATIC / name).read_text(encoding="utf-8").replace(SVG_NAMESPACE, "")
    assert re.findall(r"(?:https?:)?//[\w.-]+\.\w+/", text) == []
    assert "@import" not in text and "@font-face" not in text


def test_spec_lists_every_asset(spec_dict: dict[str, Any]) -> None:
    assert sorted(spec_dict["components"]["schemas"]["ConsoleAsset"]["enum"]) == sorted(ASSETS)


def test_unknown_file_is_a_problem(api: Any) -> None:
    resp = api.get("/console/secrets.py")
    assert resp.status_code == 404
    assert resp.headers["Content-Type"] == "application/problem+json"
    assert api.get("/console/index.html").status_code == 404  # the page is /console itself
