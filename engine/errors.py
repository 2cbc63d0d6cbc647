"""Errors the engine raises for input it cannot adjudicate.

Each problem carries a path into the caller's input (keys and indices) so the
HTTP layer can turn it into a JSON Pointer; the engine itself never sees JSON.
Each also carries a stable snake_case ``code`` (the contract a client branches
on) and, where its raise site gives them, the ``params`` a translated message
is built from; ``message`` is the English text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input, located by ``path``."""

    path: tuple[str | int, ...]
    message: str
    code: str = "invalid_value"
    params: Mapping[str, str | int] = field(default_factory=dict, compare=False, hash=False)


class InvalidInput(ValueError):
    """The request cannot be adjudicated (a 422 at the HTTP layer)."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(p.message for p in self.problems))

    def under(self, *prefix: str | int) -> InvalidInput:
        """The same problems, their paths prefixed (for nested inputs)."""
        return InvalidInput([replace(p, path=(*prefix, *p.path)) for p in self.problems])
