"""The /v1 endpoints, one module each, all on the ``v1`` blueprint.

Every module of this package is imported here, so adding an endpoint is adding
a module (and its path in openapi.yaml; tests/test_spec.py checks both agree).
"""

from importlib import import_module
from pkgutil import iter_modules

for _module in iter_modules(__path__):
    import_module(f"{__name__}.{_module.name}")
