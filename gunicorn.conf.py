"""gunicorn's config for a checkout: the settings live in the package
(``service/gunicorn_conf.py``) so an installed referee has them too
(``gunicorn -c python:service.gunicorn_conf``, ``tractor-referee serve``)."""

from service.gunicorn_conf import *  # noqa: F401,F403
