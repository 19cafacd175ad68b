"""The user's own scheduler under test: their Go plugins built in, their configuration as the base.

The flags (`--go-module`, `--go-plugin`, `--go-import`, `--k8s-version`, `--scheduler-config`) win over
`--own-scheduler FILE`, which wins over `[tool.sched-conformance]` in ./pyproject.toml. A build
spec with Go modules or another Kubernetes release gives the upstream backend a runner built with
them (`conformance.build`); the configuration becomes a `generators.BaseConfig`, laid out by the
scheduler that runs it, because only the build knows where an out-of-tree plugin runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

import yaml

from reference.scenario import Scenario

from . import BuildSpec, BuildSpecError, from_pyproject, load_file, make_spec
from ..core.errors import BackendFailure, ConformanceError
from ..core.scenario_config import DEFAULT_CONFIG

_MISSING_PLUGIN = re.compile(r'"([^"]+)" does not exist')


class OwnSchedulerError(ConformanceError):
    """The user's configuration does not run on their scheduler; one line naming both sides and the fix."""


@dataclass(frozen=True)
class OwnScheduler:
    spec: BuildSpec
    extenders: tuple[str, ...] = ()  # --extender URLs: filter and prioritize extenders added to the config

    @property
    def builds(self) -> bool:
        """A build of our own is needed: the user's modules or another Kubernetes release."""
        return not self.spec.empty

    def runner(self) -> Path:
        from .builder import build
        return build(self.spec).runner

    def module_dir(self) -> Path | None:
        """The build's Go module (where the user's import paths resolve), or None without a build."""
        if not self.builds:
            return None
        from .builder import build
        return build(self.spec).directory / "mod"

    def kube_scheduler(self) -> Path:
        from .builder import build
        return build(self.spec).kube_scheduler

    def config(self) -> dict[str, Any] | None:
        """The user's KubeSchedulerConfiguration as a mapping (with the --extender entries), or None."""
        path = self.spec.scheduler_config
        if path is None:
            return _with_extenders(dict(DEFAULT_CONFIG), self.extenders) if self.extenders else None
        try:
            document = yaml.safe_load(path.read_text())
        except (OSError, yaml.YAMLError) as exc:
            raise OwnSchedulerError(f"--scheduler-config {path}: cannot read it as YAML ({exc})") from None
        if not isinstance(document, dict) or document.get("kind") != "KubeSchedulerConfiguration":
            raise OwnSchedulerError(f"--scheduler-config {path}: not a KubeSchedulerConfiguration "
                                    "(kind: KubeSchedulerConfiguration, apiVersion: kubescheduler.config.k8s.io/v1)")
        return _with_extenders(document, self.extenders)

    def objects_hook(self) -> Any:
        """The `--objects` hook (a strategy of `generators.Extras`, or a function Scenario -> one), or None."""
        return load_hook(self.spec.objects) if self.spec.objects else None

    def domain(self) -> Any:
        """The vocabulary the generators add to scenarios (generators.Domain): the `[domain]` table and what
        the registered plugins' sources compare against."""
        from generators import Domain

        from .vocabulary import extract
        return Domain.from_mapping(self.spec.domain).merged(extract(self.spec))

    def user_extenders(self) -> list[dict[str, Any]]:
        """The config's extenders[] entries (the user's running extenders), as written."""
        from ..extender.proxy import placeholder_config
        config = self.config()
        return placeholder_config(config)[1] if config else []

    def base_config(self, backend: Any) -> Any:
        """The user's config laid out by `backend` (its plugin list), or None without a config."""
        from generators import BaseConfig

        from ..extender.proxy import placeholder_config
        config = self.config()
        if config is None:
            return None
        config = placeholder_config(config)[0]
        return BaseConfig.from_plugin_lists(config, self.layout(config, backend))

    def layout(self, config: Mapping[str, Any], backend: Any) -> dict[str, Any]:
        """Per profile, the plugins `backend` runs at each point for `config` (an empty scenario's plugin list)."""
        if "plugin-list" not in backend.capabilities and self.builds:
            # The same build's runner knows where the plugins run (a cluster does not report it); on the
            # local control plane, plugins that start their own clients get its API server to start.
            from ..backends.upstream import UpstreamBackend
            runner = UpstreamBackend(runner=self.runner(), observe=())
            kubeconfig = getattr(getattr(backend, "control_plane", None), "kubeconfig", None)
            try:
                if kubeconfig is None:
                    return self.layout(config, runner)
                try:
                    return runner.layout(dict(config), str(kubeconfig))
                except BackendFailure as exc:
                    raise OwnSchedulerError(self._explain(str(exc), backend)) from None
            finally:
                runner.close()
        if "plugin-list" not in backend.capabilities:
            from ..core import scenario_config
            unknown = scenario_config.unknown_plugins(config)
            if unknown:
                raise OwnSchedulerError(f"--scheduler-config {self.spec.scheduler_config}: backend {backend.name} "
                                        f"does not report its plugin list, and the reference does not know "
                                        f"{', '.join(sorted(unknown))}; use --backend upstream")
            return scenario_config.plugin_lists(config)
        try:
            outcome = backend.run(Scenario(config=dict(config)))
        except BackendFailure as exc:
            raise OwnSchedulerError(self._explain(str(exc), backend)) from None
        return dict(outcome.plugins)

    def _explain(self, error: str, backend: Any) -> str:
        where = f"--scheduler-config {self.spec.scheduler_config}"
        first = error.splitlines()[0].split("refuses the scenario: ", 1)[-1]
        missing = _MISSING_PLUGIN.search(error)
        if missing:
            registered = ", ".join(p.name for p in self.spec.plugins) or "none of your own"
            return (f"{where} names plugin {missing.group(1)}, which the scheduler build ({backend.name}) does not "
                    f"register (registered: {registered}); add --go-plugin {missing.group(1)}=import/path.Func "
                    f"with its --go-module, or remove it from the config")
        return f"{where}: the scheduler ({backend.name}) rejects it: {first}"


def load_hook(text: str) -> Any:
    """Import `package.module:name` (the working directory is searched too, as `python -m` would) or
    `/path/to/file.py:name`."""
    import importlib
    import importlib.util
    import sys

    from hypothesis.strategies import SearchStrategy
    module_name, _, attr = text.rpartition(":")
    try:
        if module_name.endswith(".py"):
            spec = importlib.util.spec_from_file_location(Path(module_name).stem, module_name)
            module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
            spec.loader.exec_module(module)  # type: ignore[union-attr]
        else:
            if str(Path.cwd()) not in sys.path:
                sys.path.append(str(Path.cwd()))
            module = importlib.import_module(module_name)
    except ImportError as exc:
        raise OwnSchedulerError(f"--objects {text}: cannot import {module_name} ({exc}); run from the directory "
                                "that contains it, put it on PYTHONPATH, or give path/to/file.py:name") from None
    except Exception as exc:  # noqa: BLE001 - the user's module failed while importing: say so in one line
        raise OwnSchedulerError(f"--objects {text}: importing {module_name} raised {type(exc).__name__}: {exc}") from None
    hook = getattr(module, attr, None)
    if hook is None:
        raise OwnSchedulerError(f"--objects {text}: {module_name} has no {attr!r}")
    if not isinstance(hook, SearchStrategy) and not callable(hook):
        raise OwnSchedulerError(f"--objects {text}: {attr} is a {type(hook).__name__}; give a function "
                                "Scenario -> strategy of generators.Extras, or such a strategy")
    return hook


def _with_extenders(config: dict[str, Any], urls: tuple[str, ...]) -> dict[str, Any]:
    if not urls:
        return config
    added = [{"urlPrefix": url, "filterVerb": "filter", "prioritizeVerb": "prioritize", "weight": 1} for url in urls]
    return {**config, "extenders": [*(config.get("extenders") or ()), *added]}


def resolve(*, modules: list[str] = (), plugins: list[str] = (), imports: list[str] = (),
            k8s_version: str | None = None, scheduler_config: str | None = None, own_file: str | None = None,
            extenders: list[str] = (), objects: str | None = None, crds: list[str] = (),
            directory: Path = Path(".")) -> OwnScheduler | None:
    """The own scheduler the options describe, or None (the stock scheduler with generated configs)."""
    flags = make_spec(modules=list(modules), plugins=list(plugins), imports=list(imports), k8s_version=k8s_version,
                      scheduler_config=scheduler_config, objects=objects, crds=list(crds), base=directory)
    given = not flags.empty or flags.scheduler_config is not None or flags.objects is not None or bool(flags.crds)
    spec = load_file(own_file) if own_file else (from_pyproject(directory) if not given else None)
    if spec is None:
        spec = flags
    elif given:
        spec = _merge(spec, flags)
    for url in extenders:
        if not url.startswith("http://"):
            raise OwnSchedulerError(f"--extender {url!r}: give the extender's http:// URL prefix, e.g. "
                                    "http://127.0.0.1:8888/scheduler (the suite calls <prefix>/filter and "
                                    "<prefix>/prioritize)")
    if (spec.empty and spec.scheduler_config is None and spec.objects is None and not spec.crds and not spec.domain
            and not extenders):
        return None
    return OwnScheduler(spec, tuple(extenders))


def _merge(base: BuildSpec, flags: BuildSpec) -> BuildSpec:
    """The file's spec with the flags' modules and plugins added and their version and config winning."""
    names = {p.name for p in flags.plugins}
    clash = next((p for p in base.plugins if p.name in names), None)
    if clash is not None:
        raise BuildSpecError(f"--go-plugin {clash.name}: also registered by {base.origin}; register it once")
    return replace(base, modules=base.modules + tuple(m for m in flags.modules if m not in base.modules),
                   plugins=base.plugins + flags.plugins,
                   imports=tuple(dict.fromkeys(base.imports + flags.imports)), k8s_version=flags.k8s_version or base.k8s_version,
                   scheduler_config=flags.scheduler_config or base.scheduler_config,
                   objects=flags.objects or base.objects, crds=tuple(dict.fromkeys(base.crds + flags.crds)),
                   origin=f"{base.origin} and flags")


__all__ = ["OwnScheduler", "OwnSchedulerError", "load_hook", "resolve"]
