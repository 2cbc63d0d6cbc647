"""orjson as Flask's JSON provider (bench/RESULTS.md: measured faster than the stdlib)."""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import JSONProvider


class OrjsonProvider(JSONProvider):
    """Parse and emit JSON with orjson; non-string dict keys are allowed out."""

    option = orjson.OPT_NON_STR_KEYS

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return orjson.dumps(obj, option=self.option).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Any:
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(
            orjson.dumps(obj, option=self.option), mimetype="application/json"
        )
