"""gunicorn settings for the referee (STACK.md: sync workers, preload, recycling).

``gunicorn -c gunicorn.conf.py`` serves ``service.app:create_app()`` with its
embedded default config on 127.0.0.1:8000; BIND, WORKERS and TIMEOUT in the
environment override the defaults.
"""

import multiprocessing
import os

wsgi_app = "service.app:create_app()"
bind = os.environ.get("BIND", "127.0.0.1:8000")
worker_class = "sync"
workers = int(os.environ.get("WORKERS", multiprocessing.cpu_count() + 1))
preload_app = True
max_requests = 10000
max_requests_jitter = 1000
timeout = int(os.environ.get("TIMEOUT", "10"))
graceful_timeout = 10
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
accesslog = None
