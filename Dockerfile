# syntax=docker/dockerfile:1
# tractor-referee: `docker build -t tractor-referee .` then, on this machine only,
# `docker run --rm -p 127.0.0.1:8000:8000 tractor-referee` (docs at http://localhost:8000/docs);
# a platform that sets PORT (the port to listen on) is honoured.
# Exposed to anyone else it runs behind the front proxy: `docker compose up` (compose.yaml).

# --- build: wheels of the referee and of its pinned dependencies -------------
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md openapi.yaml requirements.lock ./
COPY engine engine
COPY service service
RUN pip wheel --wheel-dir /wheels --constraint requirements.lock .

# --- run: the wheels only, as an unprivileged numeric user --------------------
FROM python:3.11-slim AS run
# the commit GET /version reports: docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD) .
ARG GIT_COMMIT=
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    GIT_COMMIT=${GIT_COMMIT} \
    METRICS_BIND=0.0.0.0 \
    METRICS_PORT=9100 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/referee-metrics
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-index --find-links=/wheels tractor-referee \
    && groupadd --gid 10001 referee \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin referee
WORKDIR /app
COPY gunicorn.conf.py ./
USER 10001:10001
# 8000: the API (behind the proxy, deploy/nginx); 9100: the Prometheus metrics, private
EXPOSE 8000 9100
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
    CMD ["python", "-m", "service.healthcheck"]
# exec form: gunicorn is PID 1 and gets SIGTERM itself (graceful shutdown)
CMD ["gunicorn", "-c", "gunicorn.conf.py", "--no-control-socket"]
