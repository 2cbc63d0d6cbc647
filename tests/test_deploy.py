"""The Dockerfile and the Kubernetes manifests agree with the app and each other.

No Docker daemon or cluster runs here, so the files are parsed and their
essentials checked: slim multi-stage image, numeric non-root user, a Python
HEALTHCHECK, gunicorn with the project's config in exec form; probes on
``/healthz`` and ``/readyz`` (which the app serves), one port everywhere,
Service, HPA and PDB pointing at the Deployment's pods, a termination grace
period longer than the drain.
"""

from __future__ import annotations

import json
import re
import runpy
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from service.healthcheck import bind_from_env

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


# --- Dockerfile ---------------------------------------------------------------------

def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        instruction, _, args = line.partition(" ")
        out.append((instruction.upper(), args.strip()))
    assert not pending
    return out


def stages() -> list[list[tuple[str, str]]]:
    result: list[list[tuple[str, str]]] = []
    for instr, args in dockerfile():
        if instr == "FROM":
            result.append([])
        result[-1].append((instr, args))
    return result


def final(instr: str) -> list[str]:
    return [args for i, args in stages()[-1] if i == instr]


def exec_form(args: str) -> list[str]:
    """A JSON-array instruction (exec form); anything else fails the test."""
    value = json.loads(args)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value)
    return value


def env_of(stage: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for instr, args in stage:
        if instr == "ENV":
            for item in shlex.split(args):
                key, _, value = item.partition("=")
                env[key] = value
    return env


def test_image_is_multi_stage_on_slim_python() -> None:
    froms = [args for stage in stages() for i, args in stage if i == "FROM"]
    assert len(froms) >= 2
    for args in froms:
        image = args.split()[0]
        assert re.fullmatch(r"python:3\.11[\w.]*-slim(-\w+)?(@sha256:[0-9a-f]{64})?", image), image
    build = froms[0].split()
    assert build[1].upper() == "AS"
    run_steps = " ".join(final("RUN") + final("COPY"))
    assert f"from={build[2]}" in run_steps  # the final stage takes the build stage's wheels
    assert "--no-index" in run_steps  # and nothing else from the network


def test_runs_as_a_numeric_non_root_user() -> None:
    final_stage = stages()[-1]
    users = [args for i, args in final_stage if i == "USER"]
    assert users, "the final stage must set USER"
    uid, _, gid = users[-1].partition(":")
    assert uid.isdigit() and int(uid) > 0 and (not gid or (gid.isdigit() and int(gid) > 0))
    after_user = final_stage[[i for i, _ in final_stage].index("USER"):]
    assert "RUN" not in [i for i, _ in after_user]  # nothing runs as root after the switch


def test_healthcheck_is_python_against_healthz() -> None:
    (check,) = final("HEALTHCHECK")
    options, _, command = check.partition("CMD")
    argv = exec_form(command.strip())
    assert argv[:3] == ["python", "-m", "service.healthcheck"]
    assert (ROOT / "service" / "healthcheck.py").is_file()
    assert "--interval=" in options and "--timeout=" in options


def test_gunicorn_runs_with_the_project_config_in_exec_form() -> None:
    (cmd,) = final("CMD") or final("ENTRYPOINT")
    argv = exec_form(cmd)  # exec form: gunicorn is PID 1 and receives SIGTERM
    assert argv[0] == "gunicorn"
    assert argv[argv.index("-c") + 1] == "gunicorn.conf.py"
    assert "--no-control-socket" in argv
    assert any("gunicorn.conf.py" in args for args in final("COPY"))
    assert final("STOPSIGNAL") in ([], ["SIGTERM"])


def test_copied_sources_exist_and_include_what_the_wheel_needs() -> None:
    copied: set[str] = set()
    for stage in stages():
        for instr, args in stage:
            if instr == "COPY" and "--from" not in args:
                *sources, _dest = shlex.split(args)
                copied |= set(sources)
    for source in copied:
        assert (ROOT / source).exists(), source
    # pyproject's readme, the force-included spec, the packages, the lock
    assert {"pyproject.toml", "README.md", "openapi.yaml", "engine", "service", "requirements.lock"} <= copied
    assert not [args for stage in stages() for i, args in stage if i == "ADD"]


def test_the_lock_pins_every_runtime_dependency() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    deps = re.search(r"^dependencies = \[(.*?)^\]", pyproject, re.S | re.M)
    assert deps
    names = {re.split(r"[<>=!~ \[]", d, maxsplit=1)[0].lower() for d in re.findall(r'"([^"]+)"', deps.group(1))}
    pins = dict(
        line.split("==") for line in (ROOT / "requirements.lock").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert names <= set(pins)


# --- one port everywhere ------------------------------------------------------------

def port_of(bind: str) -> int:
    return int(bind.rsplit(":", 1)[1])


@pytest.fixture(scope="module")
def gunicorn_conf(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    mp = pytest.MonkeyPatch()
    mp.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path_factory.mktemp("metrics")))
    for var in ("REFEREE_METRICS_MASTER_PID", "REFEREE_METRICS_DIR_CREATED"):  # set by the file
        mp.setenv(var, "")
    for var in ("BIND", "HOST", "PORT", "WORKERS", "LOG_LEVEL", "TIMEOUT", "GRACEFUL_TIMEOUT", "METRICS_BIND", "METRICS_PORT"):
        mp.delenv(var, raising=False)
    try:
        return runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def port(gunicorn_conf: dict[str, Any]) -> int:
    """The one port: gunicorn's default, the image's (HOST and PORT, as
    gunicorn.conf.py reads them) and EXPOSE."""
    default = port_of(gunicorn_conf["bind"])
    env = env_of(stages()[-1])
    assert env["HOST"] == "0.0.0.0" and "BIND" not in env  # a platform's PORT is then honoured
    assert port_of(bind_from_env(env)) == default
    assert str(default) in final("EXPOSE")[0].split()
    return default


# --- Kubernetes -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def manifests() -> dict[str, dict[str, Any]]:
    docs: dict[str, dict[str, Any]] = {}
    for path in sorted(DEPLOY.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if doc:
                assert doc["kind"] not in docs, f"two {doc['kind']}s"
                docs[doc["kind"]] = doc
    return docs


@pytest.fixture(scope="module")
def pod(manifests: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return manifests["Deployment"]["spec"]["template"]  # type: ignore[no-any-return]


def _named(pod: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [c for c in pod["spec"]["containers"] if c["name"] == name]
    return found  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def container(pod: dict[str, Any]) -> dict[str, Any]:
    """The referee (gunicorn)."""
    assert sorted(c["name"] for c in pod["spec"]["containers"]) == ["proxy", "referee"]
    return _named(pod, "referee")


@pytest.fixture(scope="module")
def proxy(pod: dict[str, Any]) -> dict[str, Any]:
    """The front proxy (nginx) beside the referee."""
    return _named(pod, "proxy")


def test_every_piece_is_there_and_listed(manifests: dict[str, dict[str, Any]]) -> None:
    assert {"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Kustomization"} <= set(
        manifests
    )
    listed = set(manifests["Kustomization"]["resources"])
    assert listed == {p.name for p in DEPLOY.glob("*.yaml")} - {"kustomization.yaml"}
    assert manifests["HorizontalPodAutoscaler"]["apiVersion"] == "autoscaling/v2"
    assert manifests["PodDisruptionBudget"]["apiVersion"] == "policy/v1"


def _probe_port(probe: dict[str, Any], container: dict[str, Any]) -> int:
    ref = probe["httpGet"]["port"]
    if isinstance(ref, int):
        return ref
    (named,) = [p for p in container["ports"] if p["name"] == ref]
    return int(named["containerPort"])


@pytest.mark.parametrize(("probe", "path"), [("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")])
def test_probes_hit_the_apps_health_endpoints(
    container: dict[str, Any], port: int, api: Any, probe: str, path: str
) -> None:
    spec = container[probe]
    assert spec["httpGet"]["path"] == path
    assert _probe_port(spec, container) == port
    assert api.get(path).status_code == 200
    if "startupProbe" in container:
        assert api.get(container["startupProbe"]["httpGet"]["path"]).status_code == 200


@pytest.fixture(scope="module")
def metrics_port(gunicorn_conf: dict[str, Any]) -> int:
    """The private metrics port: gunicorn's default, the image's METRICS_PORT and EXPOSE."""
    default = int(gunicorn_conf["metrics_port"])
    env = env_of(stages()[-1])
    assert int(env["METRICS_PORT"]) == default and env["METRICS_BIND"] == "0.0.0.0"
    assert gunicorn_conf["metrics_host"] == "127.0.0.1"  # outside a container: loopback only
    return default


def test_container_ports_are_the_apps_and_the_metrics(
    container: dict[str, Any], pod: dict[str, Any], port: int, metrics_port: int
) -> None:
    assert sorted(final("EXPOSE")[0].split()) == sorted([str(port), str(metrics_port)])
    assert {p["name"]: p["containerPort"] for p in container["ports"]} == {"app": port, "metrics": metrics_port}
    env = {e["name"]: e["value"] for e in container.get("env", [])}
    if "BIND" in env:
        assert port_of(env["BIND"]) == port
    if "METRICS_PORT" in env:
        assert int(env["METRICS_PORT"]) == metrics_port
    annotations = pod["metadata"].get("annotations", {})
    assert annotations.get("prometheus.io/port") == str(metrics_port)
    assert annotations.get("prometheus.io/path") == "/metrics"


def test_service_routes_to_the_proxy_never_to_gunicorn(
    manifests: dict[str, dict[str, Any]], pod: dict[str, Any], proxy: dict[str, Any], port: int
) -> None:
    service = manifests["Service"]["spec"]
    assert service["selector"].items() <= pod["metadata"]["labels"].items()
    (svc_port,) = service["ports"]
    (proxy_port,) = proxy["ports"]
    assert svc_port["targetPort"] in (proxy_port["name"], proxy_port["containerPort"])
    assert proxy_port["containerPort"] != port


def test_deployment_selector_matches_its_pods(manifests: dict[str, dict[str, Any]], pod: dict[str, Any]) -> None:
    selector = manifests["Deployment"]["spec"]["selector"]["matchLabels"]
    assert selector.items() <= pod["metadata"]["labels"].items()


def test_autoscaler_and_disruption_budget_target_the_deployment(
    manifests: dict[str, dict[str, Any]], pod: dict[str, Any], container: dict[str, Any]
) -> None:
    hpa = manifests["HorizontalPodAutoscaler"]["spec"]
    deployment = manifests["Deployment"]
    assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment",
                                     "name": deployment["metadata"]["name"]}
    assert 2 <= hpa["minReplicas"] < hpa["maxReplicas"]
    assert "replicas" not in deployment["spec"]  # the autoscaler owns the count
    assert any(m["resource"]["name"] == "cpu" for m in hpa["metrics"] if m["type"] == "Resource")
    assert {"cpu", "memory"} <= set(container["resources"]["requests"])  # Utilization needs requests

    pdb = manifests["PodDisruptionBudget"]["spec"]
    assert pdb["selector"]["matchLabels"].items() <= pod["metadata"]["labels"].items()
    # a drain can always proceed yet never takes every replica at once
    if "maxUnavailable" in pdb:
        assert 1 <= pdb["maxUnavailable"] < hpa["minReplicas"]
    else:
        assert pdb["minAvailable"] < hpa["minReplicas"]


def test_pod_runs_as_the_images_user_with_a_read_only_root(
    pod: dict[str, Any], container: dict[str, Any], proxy: dict[str, Any]
) -> None:
    security = pod["spec"]["securityContext"]
    uid = final("USER")[-1].split(":")[0]
    assert security["runAsNonRoot"] is True and str(security["runAsUser"]) == uid
    for c in container, proxy:
        assert c["securityContext"]["allowPrivilegeEscalation"] is False
        assert c["securityContext"]["capabilities"]["drop"] == ["ALL"]
    assert proxy["securityContext"]["readOnlyRootFilesystem"] is True
    if container["securityContext"].get("readOnlyRootFilesystem"):
        env = {e["name"]: e["value"] for e in container.get("env", [])}
        metrics_dir = env.get("PROMETHEUS_MULTIPROC_DIR") or env_of(stages()[-1])["PROMETHEUS_MULTIPROC_DIR"]
        mounts = [m["mountPath"] for m in container["volumeMounts"]]
        assert any(metrics_dir == m or metrics_dir.startswith(m.rstrip("/") + "/") for m in mounts)


def test_termination_grace_outlasts_the_drain(
    pod: dict[str, Any], container: dict[str, Any], gunicorn_conf: dict[str, Any]
) -> None:
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pause = int(command[1])
    assert pod["spec"]["terminationGracePeriodSeconds"] > pause + gunicorn_conf["graceful_timeout"]


def test_gunicorn_builds_no_access_line_of_its_own(gunicorn_conf: dict[str, Any]) -> None:
    """The app writes the JSON access line; gunicorn's logger must not build one
    per request only to drop it (bench/RESULTS.md: ~4 % of a worker's time)."""
    from gunicorn.config import Config

    cls = gunicorn_conf["logger_class"]
    log = cls.__new__(cls)  # without setup(): that would apply the logging config to this process
    log.cfg = Config()
    log.cfg.set("logconfig_dict", gunicorn_conf["logconfig_dict"])  # with it, gunicorn's Logger builds lines
    assert log.access_log_enabled is False

    def atoms(*args: object) -> dict[str, str]:
        raise AssertionError("gunicorn built an access line")

    log.atoms = atoms
    log.access(None, None, {}, 0.1)


def test_no_request_calls_into_gunicorn_s_logging_below_debug(gunicorn_conf: dict[str, Any]) -> None:
    """gunicorn's default ``pre_request`` logs each request at debug level only; below
    it (the default info here) the service's hook does nothing at all, and gunicorn
    takes it as a hook of (worker, request)."""
    from gunicorn.config import Config

    hook = gunicorn_conf["pre_request"]
    cfg = Config()
    cfg.set("pre_request", hook)
    assert cfg.pre_request is hook

    class Worker:
        @property
        def log(self) -> Any:
            raise AssertionError("called into gunicorn's logger")

    assert hook(Worker(), None) is None


def test_workers_are_forked_with_the_preloaded_app_frozen(gunicorn_conf: dict[str, Any]) -> None:
    """Objects the master made before forking stay out of the workers' garbage
    collections (and their copy-on-write pages stay shared)."""
    import gc

    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        gunicorn_conf["pre_fork"](None, None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def served_config(gunicorn_conf: dict[str, Any]) -> Any:
    """gunicorn's ``Config`` with the service's settings, set as gunicorn sets a
    configuration file's (every name that is a setting, through ``Config.set``)."""
    from gunicorn.config import Config

    cfg = Config()
    for name, value in gunicorn_conf.items():
        if name in cfg.settings:
            cfg.set(name, value)
    return cfg


# what a Config answers beyond its settings' values: its properties and methods
CONFIG_EXTRAS = (
    "is_ssl", "ssl_options", "env", "sendfile", "reuse_port", "worker_class_str", "worker_class", "address",
    "uid", "gid", "proc_name", "logger_class", "forwarded_allow_networks", "proxy_allow_networks", "settings",
)


def test_a_worker_s_settings_answer_as_gunicorn_s_configuration(gunicorn_conf: dict[str, Any]) -> None:
    """Every setting, property and method a worker reads answers through the
    service's view what gunicorn's configuration answers (the plain form), the
    first time and after."""
    cfg = served_config(gunicorn_conf)
    view = gunicorn_conf["WorkerSettings"](cfg)
    names = [*cfg.settings, *CONFIG_EXTRAS]
    assert "forwarded_allow_ips" in names and "pre_request" in names and "strip_header_spaces" in names
    for _ in range(2):
        for name in names:
            assert getattr(view, name) == getattr(cfg, name), name
    assert view.pre_request is gunicorn_conf["pre_request"] and view.post_fork is gunicorn_conf["post_fork"]
    assert view.forwarded_allow_networks() == cfg.forwarded_allow_networks()
    with pytest.raises(AttributeError, match="No configuration setting for: no_such_setting"):
        view.no_such_setting  # noqa: B018
    assert getattr(view, "protocol", None) == getattr(cfg, "protocol", None)


def test_a_worker_reads_each_setting_from_the_configuration_once(gunicorn_conf: dict[str, Any]) -> None:
    """The view asks the configuration for a name the first time only; a name it
    does not know is asked (and refused) every time."""
    from collections import Counter

    cfg = served_config(gunicorn_conf)
    asked: Counter[str] = Counter()

    class Asked:
        def __getattr__(self, name: str) -> Any:
            asked[name] += 1
            return getattr(cfg, name)

    view = gunicorn_conf["WorkerSettings"](Asked())
    for _ in range(3):
        assert view.workers == cfg.workers and view.is_ssl == cfg.is_ssl
        assert getattr(view, "not_a_setting", "absent") == "absent"
    assert asked == Counter({"workers": 1, "is_ssl": 1, "not_a_setting": 3})


def test_a_forked_worker_reads_its_settings_through_the_view(gunicorn_conf: dict[str, Any]) -> None:
    """``post_fork`` (in the new worker, before it serves) gives the worker the
    view of its own configuration."""
    from types import SimpleNamespace

    cfg = served_config(gunicorn_conf)
    worker = SimpleNamespace(cfg=cfg)
    gunicorn_conf["post_fork"](SimpleNamespace(), worker)
    assert isinstance(worker.cfg, gunicorn_conf["WorkerSettings"])
    assert worker.cfg.timeout == cfg.timeout and worker.cfg.limit_request_line == cfg.limit_request_line


def test_the_service_monitor_scrapes_the_metrics_port(
    container: dict[str, Any], pod: dict[str, Any], metrics_port: int
) -> None:
    docs = {d["kind"]: d for d in yaml.safe_load_all((DEPLOY / "monitoring" / "servicemonitor.yaml").read_text())}
    service, monitor = docs["Service"], docs["ServiceMonitor"]
    assert service["spec"]["selector"].items() <= pod["metadata"]["labels"].items()
    (svc_port,) = service["spec"]["ports"]
    assert svc_port["targetPort"] == "metrics" and svc_port["port"] == metrics_port
    assert monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    assert [e["port"] for e in monitor["spec"]["endpoints"]] == [svc_port["name"]]


# --- the front proxy: one config for the pod, compose.yaml and tests/test_proxy.py ---------

NGINX_DIR = DEPLOY / "nginx"


def _nginx_args(command: list[str]) -> dict[str, str]:
    """``nginx -p P -c C -e E -g G`` → {"-p": P, ...}."""
    assert command[0] == "nginx"
    pairs = dict(zip(command[1::2], command[2::2], strict=True))
    assert pairs["-g"] == "daemon off;" and pairs["-e"] == "stderr"
    return pairs


def _shipped_ports() -> tuple[int, str]:
    """(the proxy's listen port, the upstream address) of the shipped per-environment files."""
    listen = re.fullmatch(r"listen (\d+);", _directives(NGINX_DIR / "listen.conf"))
    upstream = re.search(r"server (\S+);", _directives(NGINX_DIR / "upstream.conf"))
    assert listen and upstream
    return int(listen.group(1)), upstream.group(1)


def _directives(path: Path) -> str:
    return " ".join(line.split("#")[0].strip() for line in path.read_text().splitlines() if line.split("#")[0].strip())


def test_the_proxy_sidecar_runs_the_shipped_config(
    manifests: dict[str, dict[str, Any]], pod: dict[str, Any], proxy: dict[str, Any], port: int
) -> None:
    assert proxy["image"].split(":")[0] == "nginx"  # the official image, no home-made proxy
    args = _nginx_args(proxy["command"])
    mounts = {m["mountPath"]: m["name"] for m in proxy["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["spec"]["volumes"]}
    conf_dir, conf_name = args["-c"].rsplit("/", 1)
    assert conf_name == "nginx.conf"
    generated = volumes[mounts[conf_dir]]["configMap"]["name"]
    (generator,) = [g for g in manifests["Kustomization"]["configMapGenerator"] if g["name"] == generated]
    assert sorted(generator["files"]) == sorted(f"nginx/{p.name}" for p in NGINX_DIR.glob("*.conf"))
    assert "emptyDir" in volumes[mounts[args["-p"].rstrip("/")]]  # the prefix is writable
    listen, upstream = _shipped_ports()
    assert [p["containerPort"] for p in proxy["ports"]] == [listen]
    assert upstream == f"127.0.0.1:{port}"  # the referee, in the same network namespace
    assert proxy["readinessProbe"]["httpGet"]["port"] == "http"


def test_compose_runs_the_same_proxy_config(proxy: dict[str, Any], port: int, metrics_port: int) -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    referee, front = compose["referee"], compose["proxy"]
    assert front["image"] == proxy["image"] and front["command"] == proxy["command"]
    assert front["network_mode"] == "service:referee"  # as the pod's sidecar: loopback to gunicorn
    args = _nginx_args(front["command"])
    source, target, *_ = front["volumes"][0].split(":")
    assert (ROOT / source).resolve() == NGINX_DIR and target == args["-c"].rsplit("/", 1)[0]
    assert args["-p"].rstrip("/") in front["tmpfs"]
    assert front["stop_signal"] == "SIGQUIT"  # nginx's graceful stop
    listen, _ = _shipped_ports()
    env = referee["environment"]
    assert env["BIND"] == f"127.0.0.1:{port}"  # gunicorn: loopback only, reached through the proxy
    published = [p.split(":") for p in referee["ports"]]
    assert [listen, listen] in [[int(x) for x in p[-2:]] for p in published]
    assert not [p for p in published if int(p[-1]) == port]
    assert ["127.0.0.1", str(metrics_port), str(metrics_port)] in published  # metrics: this machine only


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl not found (kustomize renders deploy/)")
def test_kustomize_renders_the_proxy_config_from_the_shipped_files() -> None:
    out = subprocess.run(["kubectl", "kustomize", str(DEPLOY)], capture_output=True, text=True, timeout=60, check=True)
    docs = [d for d in yaml.safe_load_all(out.stdout) if d]
    (config_map,) = [d for d in docs if d["kind"] == "ConfigMap"]
    assert config_map["data"] == {p.name: p.read_text() for p in NGINX_DIR.glob("*.conf")}
    (deployment,) = [d for d in docs if d["kind"] == "Deployment"]
    names = [v["configMap"]["name"] for v in deployment["spec"]["template"]["spec"]["volumes"] if "configMap" in v]
    assert names == [config_map["metadata"]["name"]]  # the hashed name, rewritten by kustomize


def _mib(quantity: str) -> float:
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024}
    number, unit = re.fullmatch(r"(\d+)(Ki|Mi|Gi)", quantity).groups()  # type: ignore[union-attr]
    return int(number) * units[unit]


def test_memory_limits_are_twice_the_measured_pod_peak(pod: dict[str, Any]) -> None:
    """deploy/README.md states the soak's measured peak of the whole pod; the
    limits of its containers add up to at least twice that (issue 21)."""
    text = (DEPLOY / "README.md").read_text(encoding="utf-8")
    peak = re.search(r"measured peak of the whole pod: \*\*(\d+) MiB\*\*", text)
    assert peak, "deploy/README.md must state the measured peak of the whole pod"
    limits = [_mib(c["resources"]["limits"]["memory"]) for c in pod["spec"]["containers"]]
    assert sum(limits) >= 2 * int(peak.group(1)), (limits, peak.group(1))
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    by_name = {c["name"]: _mib(c["resources"]["limits"]["memory"]) for c in pod["spec"]["containers"]}
    assert {name: float(compose[name]["mem_limit"].rstrip("m")) for name in ("referee", "proxy")} == by_name
