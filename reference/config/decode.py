"""Strict decoding of a v1 KubeSchedulerConfiguration, as kube-scheduler's `--config` does.

Mirrors the strict, case-sensitive JSON decoding of `k8s.io/kube-scheduler/config/v1/types.go`
(sigs.k8s.io/json via the scheduler's codec): unknown and duplicate fields are errors, and so is
a value of the wrong JSON type. Plugin args stay raw mappings here; `PluginConfig.decodeNestedObjects`
only checks their `kind`, and the args classes decode them during defaulting.
"""

from __future__ import annotations

import base64
from typing import Any, Callable, Mapping

import yaml

from ..errors import ConfigError
from ..registry import Registry
from ..duration import parse_duration
from .model import (
    API_VERSION,
    KIND,
    PLUGIN_SET_NAMES,
    ClientConnection,
    Extender,
    ExtenderManagedResource,
    ExtenderTLSConfig,
    KubeSchedulerConfiguration,
    LeaderElection,
    PluginConfig,
    PluginEntry,
    PluginSet,
    Plugins,
    Profile,
)

Decoder = Callable[[Any, str], Any]


class _StrictLoader(yaml.SafeLoader):
    """sigs.k8s.io/yaml rejects duplicate keys; PyYAML would keep the last one."""

    def construct_mapping(self, node, deep=False):  # type: ignore[no-untyped-def]
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise ConfigError(f'key "{key}" already set in map', field=f"line {key_node.start_mark.line + 1}")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _type_error(value: Any, go_type: str, path: str) -> ConfigError:
    return ConfigError(f"cannot unmarshal {_json_type(value)} into Go value of type {go_type}", field=path)


def _integer(bits: int) -> Decoder:
    go_type = f"int{bits}"

    def decode(value: Any, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _type_error(value, go_type, path)
        if value != int(value) or not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
            raise _type_error(value, go_type, path)
        return int(value)
    return decode


def _float(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _type_error(value, "float32", path)
    return float(value)


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _type_error(value, "bool", path)
    return value


def _string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _type_error(value, "string", path)
    return value


def _bytes(value: Any, path: str) -> bytes:
    """Go encodes []byte as base64 in JSON."""
    text = _string(value, path)
    try:
        return base64.b64decode(text, validate=True)
    except ValueError as e:
        raise ConfigError(f"illegal base64 data: {e}", field=path) from None


def _duration(value: Any, path: str) -> float:
    text = _string(value, path)
    try:
        return parse_duration(text)
    except ValueError as e:
        raise ConfigError(str(e), field=path) from None


def _list(item: Decoder) -> Decoder:
    def decode(value: Any, path: str) -> tuple:
        if not isinstance(value, list):
            raise _type_error(value, "slice", path)
        return tuple(item(v, f"{path}[{i}]") for i, v in enumerate(value))
    return decode


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _fields(value: Any, path: str, schema: Mapping[str, tuple[str, Decoder]], go_type: str) -> dict[str, Any]:
    """Decode a JSON object against `schema` (json key -> (attribute, decoder)); nulls mean unset."""
    if not isinstance(value, Mapping):
        raise _type_error(value, go_type, path)
    out: dict[str, Any] = {}
    for key, raw in value.items():
        if key not in schema:
            raise ConfigError(f'unknown field "{_join(path, str(key))}"', field=_join(path, str(key)))
        if raw is None:
            continue
        attr, decode = schema[key]
        out[attr] = decode(raw, _join(path, key))
    return out


def _struct(cls: type, go_type: str, schema: Mapping[str, tuple[str, Decoder]]) -> Decoder:
    def decode(value: Any, path: str) -> Any:
        return cls(**_fields(value, path, schema, go_type))
    return decode


_plugin_entry = _struct(PluginEntry, "v1.Plugin", {"name": ("name", _string), "weight": ("weight", _integer(32))})
_plugin_set = _struct(PluginSet, "v1.PluginSet", {
    "enabled": ("enabled", _list(_plugin_entry)),
    "disabled": ("disabled", _list(_plugin_entry)),
})
_plugins = _struct(Plugins, "v1.Plugins", {name: (name, _plugin_set) for name in PLUGIN_SET_NAMES})
_managed_resource = _struct(ExtenderManagedResource, "v1.ExtenderManagedResource", {
    "name": ("name", _string),
    "ignoredByScheduler": ("ignored_by_scheduler", _bool),
})
_tls_config = _struct(ExtenderTLSConfig, "v1.ExtenderTLSConfig", {
    "insecure": ("insecure", _bool),
    "serverName": ("server_name", _string),
    "certFile": ("cert_file", _string),
    "keyFile": ("key_file", _string),
    "caFile": ("ca_file", _string),
    "certData": ("cert_data", _bytes),
    "keyData": ("key_data", _bytes),
    "caData": ("ca_data", _bytes),
})
_extender = _struct(Extender, "v1.Extender", {
    "urlPrefix": ("url_prefix", _string),
    "filterVerb": ("filter_verb", _string),
    "preemptVerb": ("preempt_verb", _string),
    "prioritizeVerb": ("prioritize_verb", _string),
    "weight": ("weight", _integer(64)),
    "bindVerb": ("bind_verb", _string),
    "enableHTTPS": ("enable_https", _bool),
    "tlsConfig": ("tls_config", _tls_config),
    "httpTimeout": ("http_timeout", _duration),
    "nodeCacheCapable": ("node_cache_capable", _bool),
    "managedResources": ("managed_resources", _list(_managed_resource)),
    "ignorable": ("ignorable", _bool),
})
_leader_election = _struct(LeaderElection, "v1alpha1.LeaderElectionConfiguration", {
    "leaderElect": ("leader_elect", _bool),
    "leaseDuration": ("lease_duration", _duration),
    "renewDeadline": ("renew_deadline", _duration),
    "retryPeriod": ("retry_period", _duration),
    "resourceLock": ("resource_lock", _string),
    "resourceName": ("resource_name", _string),
    "resourceNamespace": ("resource_namespace", _string),
})
_client_connection = _struct(ClientConnection, "v1alpha1.ClientConnectionConfiguration", {
    "kubeconfig": ("kubeconfig", _string),
    "acceptContentTypes": ("accept_content_types", _string),
    "contentType": ("content_type", _string),
    "qps": ("qps", _float),
    "burst": ("burst", _integer(32)),
})


def _args(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _type_error(value, "runtime.RawExtension", path)
    return dict(value)


_plugin_config_fields = {"name": ("name", _string), "args": ("args", _args)}


def _plugin_config(registry: Registry) -> Decoder:
    """`PluginConfig.decodeNestedObjects`: in-tree args must be of kind `<name>Args`."""

    def decode(value: Any, path: str) -> PluginConfig:
        cfg = PluginConfig(**_fields(value, path, _plugin_config_fields, "v1.PluginConfig"))
        spec = registry.get(cfg.name)
        if spec is None or spec.args_type is None or cfg.args is None:
            return cfg
        args = dict(cfg.args)  # type: ignore[arg-type]
        want = f"{cfg.name}Args"
        kind, api_version = args.pop("kind", None), args.pop("apiVersion", None)
        if (kind is not None and kind != want) or (api_version is not None and api_version != API_VERSION):
            group = (api_version or API_VERSION).split("/")[0]
            raise ConfigError(f"args for plugin {cfg.name} were not of type {want}.kubescheduler.config.k8s.io, "
                              f"got {kind or want}.{group}", field=path)
        return PluginConfig(cfg.name, args)
    return decode


def _profile(registry: Registry) -> Decoder:
    return _struct(Profile, "v1.KubeSchedulerProfile", {
        "schedulerName": ("scheduler_name", _string),
        "percentageOfNodesToScore": ("percentage_of_nodes_to_score", _integer(32)),
        "plugins": ("plugins", _plugins),
        "pluginConfig": ("plugin_config", _list(_plugin_config(registry))),
    })


def _configuration_schema(registry: Registry) -> dict[str, tuple[str, Decoder]]:
    return {
        "apiVersion": ("api_version", _string),
        "kind": ("kind", _string),
        "parallelism": ("parallelism", _integer(32)),
        "leaderElection": ("leader_election", _leader_election),
        "clientConnection": ("client_connection", _client_connection),
        "enableProfiling": ("enable_profiling", _bool),
        "enableContentionProfiling": ("enable_contention_profiling", _bool),
        "percentageOfNodesToScore": ("percentage_of_nodes_to_score", _integer(32)),
        "podInitialBackoffSeconds": ("pod_initial_backoff_seconds", _integer(64)),
        "podMaxBackoffSeconds": ("pod_max_backoff_seconds", _integer(64)),
        "profiles": ("profiles", _list(_profile(registry))),
        "extenders": ("extenders", _list(_extender)),
        "delayCacheUntilActive": ("delay_cache_until_active", _bool),
    }


def parse_document(text_or_mapping: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    """YAML/JSON text (or an already parsed mapping) -> mapping; duplicate keys are errors."""
    if isinstance(text_or_mapping, Mapping):
        return text_or_mapping
    try:
        document = yaml.load(text_or_mapping, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as e:
        raise ConfigError(f"error converting YAML to JSON: {e}".replace("\n", " ")) from None
    if not isinstance(document, Mapping):
        raise ConfigError(f"a KubeSchedulerConfiguration must be a mapping, got {_json_type(document)}")
    return document


def decode_config(text_or_mapping: str | bytes | Mapping[str, Any], *,
                  registry: Registry | None = None) -> KubeSchedulerConfiguration:
    """Decode without defaulting; raise ConfigError naming the field path of the first problem."""
    if registry is None:
        from ..plugins import in_tree_registry
        registry = in_tree_registry()
    document = parse_document(text_or_mapping)
    values = _fields(document, "", _configuration_schema(registry), "v1.KubeSchedulerConfiguration")
    kind = values.pop("kind", "")
    api_version = values.get("api_version", "")
    if not kind:
        raise ConfigError(f"Object 'Kind' is missing; set kind: {KIND}", field="kind")
    if not api_version:
        raise ConfigError(f"Object 'apiVersion' is missing; set apiVersion: {API_VERSION}", field="apiVersion")
    if api_version != API_VERSION or kind != KIND:
        raise ConfigError(f'no kind "{kind}" is registered for version "{api_version}" in scheme '
                          f'"pkg/scheduler/apis/config/scheme/scheme.go:29"; use apiVersion {API_VERSION}, kind {KIND}',
                          field="apiVersion" if api_version != API_VERSION else "kind")
    return KubeSchedulerConfiguration(**values)


__all__ = ["decode_config", "parse_document"]
