"""Messages in the client's language: gettext catalogs read through Babel.

Every text the service itself writes (a problem's title and detail, each
``errors[]`` message) comes from ``service/locales/<locale>/LC_MESSAGES/messages.po``,
keyed by a context and a stable code:

* ``title`` / ``detail``: a problem's title and detail, by the problem's code;
* ``error``: an ``errors[]`` message by its code, in general words;
* ``error+params``: the same message naming the particulars (``{card}``,
  ``{count}``...), used when the problem carries those parameters.

The ``.po`` files are compiled in memory at import (Babel's ``write_mo``), so a
checkout needs no build step and a catalog can never be stale.  Adding a
language is adding one catalog directory: negotiation offers every catalog
found (docs/api.md "Languages").
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from babel.core import Locale, get_global, parse_locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from engine.errors import Problem

LOCALES = Path(__file__).with_name("locales")
DOMAIN = "messages"
DEFAULT = "en"
"""The language of an answer when the client accepts none of the catalogs."""


def _tag(locale: Locale) -> str:
    """The BCP 47 tag a locale is answered under (``Content-Language``): ``zh-Hant``."""
    return "-".join(part for part in (locale.language, locale.script, locale.territory) if part)


Keys = dict[str, frozenset[tuple[str | None, str]]]


def _load() -> tuple[dict[str, tuple[Locale, Translations]], Keys, Keys]:
    catalogs: dict[str, tuple[Locale, Translations]] = {}
    keys: Keys = {}
    plurals: Keys = {}
    for directory in sorted(LOCALES.iterdir()):
        po = directory / "LC_MESSAGES" / f"{DOMAIN}.po"
        if not po.is_file():
            continue
        locale = Locale.parse(directory.name, resolve_likely_subtags=False)
        with po.open("rb") as f:
            catalog = read_po(f, locale=locale, domain=DOMAIN)
        mo = BytesIO()
        write_mo(mo, catalog)
        mo.seek(0)
        catalogs[_tag(locale)] = (locale, Translations(mo, domain=DOMAIN))
        found = [m for m in catalog if m.id]
        keys[_tag(locale)] = frozenset((m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in found)
        plurals[_tag(locale)] = frozenset((m.context, m.id[0]) for m in found if isinstance(m.id, tuple))
    if DEFAULT not in catalogs:  # pragma: no cover - a broken checkout
        raise RuntimeError(f"no {DEFAULT} catalog under {LOCALES}")
    return catalogs, keys, plurals


CATALOGS, KEYS, PLURALS = _load()
"""BCP 47 tag → (locale, translations), for every catalog found; the (context,
key) of each catalog's messages; those of its messages with plural forms."""

_LIKELY: Mapping[str, str] = get_global("likely_subtags")


def _script(language: str, script: str | None, territory: str | None) -> str | None:
    """The script a language tag means: its own, else the likely one for its
    territory, else for its language (CLDR: zh-TW → Hant, zh-SG and zh → Hans)."""
    if script:
        return script
    for key in (f"{language}_{territory}" if territory else None, language):
        likely = _LIKELY.get(key) if key else None
        if likely:
            parts = likely.split("_")
            if len(parts) == 3:
                return parts[1]
    return None


def _match(value: str) -> str | None:
    """The catalog tag serving one language range of Accept-Language, if any."""
    if value == "*":
        return DEFAULT
    try:
        language, territory, script, *_ = parse_locale(value, sep="-")
    except ValueError:
        return None
    language = language.lower()
    script = _script(language, script and script.title(), territory and territory.upper())
    for tag, (locale, _) in CATALOGS.items():
        if locale.language != language:
            continue
        if locale.script is None or _script(locale.language, locale.script, locale.territory) == script:
            return tag
    return None


@lru_cache(maxsize=256)
def negotiate(header: str | None) -> str:
    """The catalog for an Accept-Language value: the first range, by q-value
    (q=0 refuses), that a catalog serves; ``DEFAULT`` when none does.  Cached:
    clients send a few values over and over."""
    for value, quality in parse_accept_header(header, LanguageAccept):
        if quality > 0:
            tag = _match(value)
            if tag is not None:
                return tag
    return DEFAULT


def text(tag: str, context: str, key: str, params: Mapping[str, object] | None = None) -> str | None:
    """The catalog text for ``(context, key)`` in ``tag`` (else English), its
    ``{name}`` fields filled from ``params`` (a text without params is taken as
    written); None when no catalog has it or a field it names is not given."""
    for lang in (tag, DEFAULT):
        found = CATALOGS[lang][1].pgettext(context, key)
        if found != key:
            if params is None:
                return found
            try:
                return found.format_map(params or {})
            except (KeyError, IndexError, ValueError):
                return None
    return None


@lru_cache(maxsize=4096)
def template(tag: str, context: str, key: str, n: int = 1) -> str | None:
    """The catalog text for ``(context, key)`` in ``tag`` (else English), unformatted;
    a message with plural forms in the form the catalog's plural rule picks for
    ``n``.  None when no catalog has it.  Cached: the catalogs are read once, at
    import, so each (language, context, key, count) is looked up once."""
    for lang in (tag, DEFAULT):
        if (context, key) in KEYS[lang]:
            translations = CATALOGS[lang][1]
            if (context, key) in PLURALS[lang]:
                return str(translations.npgettext(context, key, key, n))
            return str(translations.pgettext(context, key))
    return None


def message(problem: Problem, tag: str) -> str:
    """One ``errors[]`` message: in English the problem's own text (the most
    particular); in another language the catalog's words for its code, naming
    the particulars when the problem gives them, else the English text."""
    if tag == DEFAULT and problem.message:
        return problem.message
    if problem.params:
        found = text(tag, "error+params", problem.code, problem.params)
        if found is not None and (tag != DEFAULT or not problem.message):
            return found
    if tag != DEFAULT or not problem.message:
        found = text(tag, "error", problem.code)
        if found is not None:
            return found
    return problem.message
