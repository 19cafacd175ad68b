"""The suite's session: the backends, the extender server and the user's scheduler for one pytest session,
each started on first use (the pytest plugin keeps one per session in its stash)."""

from __future__ import annotations

from typing import Any

import pytest

from ..options import cluster_options


class ConformanceSession:
    """Backends and the extender server for one pytest session, started on first use."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._backends: dict[str, Any] = {}
        self._server: Any = None
        self._own: Any = None
        self._base: dict[str, Any] = {}
        self._domain: Any = None

    def own_scheduler(self) -> Any:
        """The user's scheduler from the own-scheduler options (--conformance-go-module, ...,
        --conformance-own-scheduler) or ./pyproject.toml, or None for the stock scheduler on generated configs."""
        if self._own is None:
            from ..builds.own_scheduler import resolve
            opt = self.config.getoption
            self._own = resolve(modules=opt("conformance_go_modules"), plugins=opt("conformance_go_plugins"),
                                imports=opt("conformance_go_imports"),
                                k8s_version=opt("conformance_k8s_version"),
                                scheduler_config=opt("conformance_scheduler_config"),
                                own_file=opt("conformance_own_scheduler"),
                                extenders=opt("conformance_extenders"), objects=opt("conformance_objects"),
                                crds=opt("conformance_crds")) or False
            if self._own and self._own.spec.plugins and not hasattr(self.config, "workerinput"):
                from ..builds.coverage import start_session
                start_session()  # the instrumented runner and driver count the user's statements here
        return self._own or None

    def resolved_own(self) -> Any:
        """The own scheduler if it was resolved (without resolving it now), or None."""
        return self._own or None

    def reproducer_options(self) -> dict[str, Any]:
        """What a reproducer needs to replay on the user's scheduler: its build, its extenders."""
        own = self.own_scheduler()
        if own is None:
            return {}
        return {"own_scheduler": own.spec.to_toml() if own.builds or own.spec.crds else None,
                "user_extenders": own.user_extenders()}

    def objects_hook(self) -> Any:
        """The user's `--conformance-objects` hook, or None."""
        own = self.own_scheduler()
        return own.objects_hook() if own is not None else None

    def domain(self) -> Any:
        """The user's vocabulary for the generators (their `domain` table and their plugins' sources), or None."""
        own = self.own_scheduler()
        if own is None:
            return None
        if self._domain is None:
            self._domain = own.domain()
        return self._domain

    def base_config(self, name: str | None = None) -> Any:
        """The user's config as every scenario's base (laid out by the backend `name`), or None."""
        name = name or self.backend_name
        own = self.own_scheduler()
        if own is None:
            return None
        if name not in self._base:
            self._base[name] = own.base_config(self.backend(name))
        return self._base[name]

    @property
    def backend_name(self) -> str:
        return self.config.getoption("conformance_backend") or "reference"

    def extender_server(self) -> Any:
        if self._server is None:
            from ..extender.server import ExtenderServer
            self._server = ExtenderServer()
            self._server.start()
        return self._server

    def backend(self, name: str | None = None) -> Any:
        name = name or self.backend_name
        if name not in self._backends:
            from ..backends import make_backend
            options: dict[str, Any] = {"extender_server": self.extender_server()}
            own = self.own_scheduler()
            if name == "upstream" and own is not None and own.builds:
                options["runner"] = own.runner()
            if name == "cluster":
                options.update(cluster_options(self.config))
                if own is not None and own.builds:
                    options["scheduler_binary"] = str(own.kube_scheduler())
                if own is not None and own.spec.crds:
                    options["crds"] = own.spec.crds
                # Compared with the reference, the whole workload must be queued before the first pop.
                options["fresh_scheduler"] = bool(self.config.getoption("conformance_compare"))
            backend = make_backend(name, **options)
            extenders = own.user_extenders() if own is not None else []
            if extenders:
                from ..extender.proxy import ExtenderProxy, UserExtenderBackend
                backend = UserExtenderBackend(backend, ExtenderProxy(extenders))
            self._backends[name] = backend
        return self._backends[name]

    def started(self) -> dict[str, Any]:
        return dict(self._backends)

    def close(self) -> None:
        for backend in self._backends.values():
            backend.close()
        self._backends.clear()
        if self._server is not None:
            self._server.stop()
            self._server = None


__all__ = ["ConformanceSession"]
