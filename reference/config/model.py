"""The KubeSchedulerConfiguration v1 model, after `k8s.io/kube-scheduler/config/v1/types.go`.

Field names are snake_case except the plugin sets of `Plugins`, which keep the v1 JSON names
(`preFilter`, `multiPoint`) so that `plugins[point]` works with `interfaces.POINT_NAMES`.
`None` stands for a Go nil pointer ("unset, take the default").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ..interfaces import POINT_NAMES
from ..registry import PluginArgs

API_VERSION = "kubescheduler.config.k8s.io/v1"
KIND = "KubeSchedulerConfiguration"
DEFAULT_SCHEDULER_NAME = "default-scheduler"

# Workload-scheduling extension points that v1.37.2 has (`types.go` Plugins) but the reference's
# `interfaces.py` does not model.
WORKLOAD_POINT_NAMES: tuple[str, ...] = ("placementGenerate", "placementScore", "podGroupPostFilter")
# Every PluginSet field of v1 `Plugins`, in struct order (the order of the v1 JSON encoding).
PLUGIN_SET_NAMES: tuple[str, ...] = (*POINT_NAMES, "multiPoint", *WORKLOAD_POINT_NAMES)


@dataclass(frozen=True)
class PluginEntry:
    """v1 `Plugin`: `weight` is only used at Score and PlacementScore; `None` is unset (0 internally)."""

    name: str
    weight: int | None = None


@dataclass(frozen=True)
class PluginSet:
    enabled: tuple[PluginEntry, ...] = ()
    disabled: tuple[PluginEntry, ...] = ()

    def enabled_names(self) -> list[str]:
        return [p.name for p in self.enabled]

    def disabled_names(self) -> set[str]:
        return {p.name for p in self.disabled}


_EMPTY = PluginSet()


@dataclass(frozen=True)
class Plugins:
    preEnqueue: PluginSet = _EMPTY
    queueSort: PluginSet = _EMPTY
    preFilter: PluginSet = _EMPTY
    filter: PluginSet = _EMPTY
    postFilter: PluginSet = _EMPTY
    preScore: PluginSet = _EMPTY
    score: PluginSet = _EMPTY
    reserve: PluginSet = _EMPTY
    permit: PluginSet = _EMPTY
    preBind: PluginSet = _EMPTY
    bind: PluginSet = _EMPTY
    postBind: PluginSet = _EMPTY
    multiPoint: PluginSet = _EMPTY
    placementGenerate: PluginSet = _EMPTY
    placementScore: PluginSet = _EMPTY
    podGroupPostFilter: PluginSet = _EMPTY

    def __getitem__(self, name: str) -> PluginSet:
        if name not in PLUGIN_SET_NAMES:
            raise KeyError(f"{name!r} is not a plugin set of v1 Plugins; use one of {', '.join(PLUGIN_SET_NAMES)}")
        return getattr(self, name)

    def with_set(self, name: str, plugin_set: PluginSet) -> "Plugins":
        self[name]  # noqa: B018 - validates the name
        return replace(self, **{name: plugin_set})


@dataclass(frozen=True)
class PluginConfig:
    """`args` is the raw mapping as decoded, `None`, or (after defaulting) a `PluginArgs` instance."""

    name: str
    args: Mapping[str, Any] | PluginArgs | None = None


@dataclass(frozen=True)
class Profile:
    """v1 `KubeSchedulerProfile`."""

    scheduler_name: str | None = None
    percentage_of_nodes_to_score: int | None = None
    plugins: Plugins | None = None
    plugin_config: tuple[PluginConfig, ...] = ()


@dataclass(frozen=True)
class ExtenderManagedResource:
    name: str
    ignored_by_scheduler: bool = False


@dataclass(frozen=True)
class ExtenderTLSConfig:
    insecure: bool = False
    server_name: str = ""
    cert_file: str = ""
    key_file: str = ""
    ca_file: str = ""
    cert_data: bytes = b""
    key_data: bytes = b""
    ca_data: bytes = b""


# extender.go DefaultExtenderTimeout; a zero httpTimeout is replaced by it in NewHTTPExtender.
DEFAULT_EXTENDER_TIMEOUT_SECONDS = 5.0


@dataclass(frozen=True)
class Extender:
    url_prefix: str = ""
    filter_verb: str = ""
    preempt_verb: str = ""
    prioritize_verb: str = ""
    weight: int = 0
    bind_verb: str = ""
    enable_https: bool = False
    tls_config: ExtenderTLSConfig | None = None
    http_timeout: float = DEFAULT_EXTENDER_TIMEOUT_SECONDS
    node_cache_capable: bool = False
    managed_resources: tuple[ExtenderManagedResource, ...] = ()
    ignorable: bool = False


@dataclass(frozen=True)
class LeaderElection:
    """component-base `LeaderElectionConfiguration`: accepted, defaulted and validated, otherwise unused."""

    leader_elect: bool | None = None
    lease_duration: float = 0.0
    renew_deadline: float = 0.0
    retry_period: float = 0.0
    resource_lock: str = ""
    resource_name: str = ""
    resource_namespace: str = ""


@dataclass(frozen=True)
class ClientConnection:
    """component-base `ClientConnectionConfiguration`: accepted, defaulted and validated, otherwise unused."""

    kubeconfig: str = ""
    accept_content_types: str = ""
    content_type: str = ""
    qps: float = 0.0
    burst: int = 0


@dataclass(frozen=True)
class KubeSchedulerConfiguration:
    api_version: str = API_VERSION
    parallelism: int | None = None
    percentage_of_nodes_to_score: int | None = None
    pod_initial_backoff_seconds: int | None = None
    pod_max_backoff_seconds: int | None = None
    profiles: tuple[Profile, ...] = ()
    extenders: tuple[Extender, ...] = ()
    leader_election: LeaderElection = field(default_factory=LeaderElection)
    client_connection: ClientConnection = field(default_factory=ClientConnection)
    enable_profiling: bool | None = None
    enable_contention_profiling: bool | None = None
    delay_cache_until_active: bool = False

    def profile(self, scheduler_name: str) -> Profile:
        for p in self.profiles:
            if p.scheduler_name == scheduler_name:
                return p
        raise KeyError(f"no profile named {scheduler_name!r}; the profiles are "
                       f"{', '.join(repr(p.scheduler_name) for p in self.profiles)}")


__all__ = [
    "API_VERSION",
    "ClientConnection",
    "DEFAULT_EXTENDER_TIMEOUT_SECONDS",
    "DEFAULT_SCHEDULER_NAME",
    "Extender",
    "ExtenderManagedResource",
    "ExtenderTLSConfig",
    "KIND",
    "KubeSchedulerConfiguration",
    "LeaderElection",
    "PLUGIN_SET_NAMES",
    "PluginConfig",
    "PluginEntry",
    "PluginSet",
    "Plugins",
    "Profile",
    "WORKLOAD_POINT_NAMES",
]
