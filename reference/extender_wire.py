"""Mirrors k8s.io/kube-scheduler/extender/v1/types.go and the transport of pkg/scheduler/extender.go.

The Go structs have no json tags, so request keys are the PascalCase Go field names. Responses
are read the way Go's `json.Decoder.Decode` reads them: keys match fields case-insensitively
(the last duplicate wins), unknown keys are ignored, `null` leaves the zero value, a value of the
wrong JSON kind is an error, and anything after the first JSON value is never read.

Differences from Go's net/http client, all outside the protocol itself: proxies from the
environment are not used, redirects are not followed (a 3xx is a non-200 error), the body is
read to its end before decoding (Go stops after the first JSON value; both ignore the rest),
JSON syntax errors have Python's wording, and tlsConfig files are read once (no reloading).
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import ssl
import tempfile
import time
from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

from .codec import node_from_manifest, node_to_manifest, pod_to_manifest
from urllib.parse import urlsplit

from .errors import ConfigError, ManifestError, ReferenceError_
from .gofmt import quote
from .types import Node, Pod

MIN_EXTENDER_PRIORITY = 0
MAX_EXTENDER_PRIORITY = 10

_INT64 = (-(2**63), 2**63 - 1)


class ExtenderError(ReferenceError_):
    """An extender call failed; `str()` is upstream's error text."""


class HostPriority(NamedTuple):
    host: str
    score: int


class Victims(NamedTuple):
    """`extenderv1.Victims`: the pods to evict on one node and how many PDBs that violates."""

    pods: list[Pod]
    num_pdb_violations: int = 0


class MetaVictims(NamedTuple):
    """`extenderv1.MetaVictims`, with each `MetaPod{UID}` as its UID (None for a JSON null MetaPod)."""

    pods: list[str | None]
    num_pdb_violations: int = 0


@dataclass(frozen=True)
class TLSConfig:
    """`ExtenderTLSConfig`; the *_data fields hold raw PEM bytes (base64 in v1 JSON)."""

    insecure: bool = False
    server_name: str = ""
    cert_file: str = ""
    key_file: str = ""
    ca_file: str = ""
    cert_data: bytes = b""
    key_data: bytes = b""
    ca_data: bytes = b""


class FilterResult(NamedTuple):
    """`extenderv1.ExtenderFilterResult`; `None` is Go's nil."""

    nodes: list[Node] | None
    node_names: list[str] | None
    failed_nodes: dict[str, str] | None
    failed_and_unresolvable_nodes: dict[str, str] | None
    error: str


# --- requests (gofmt.marshal) ------------------------------------------------------------------

def _sorted(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return {key: mapping[key] for key in sorted(mapping)}


def _node_list(nodes: list[Node]) -> dict[str, Any]:
    """A `v1.NodeList` built by appending: its Items slice stays nil (null) when empty."""
    return {"metadata": {}, "items": [node_to_manifest(n) for n in nodes] or None}


def extender_args(pod: Pod, nodes: list[Node], node_cache_capable: bool) -> dict[str, Any]:
    """`ExtenderArgs` for filter and prioritize: names only when the extender caches nodes."""
    return {
        "Pod": pod_to_manifest(pod),
        "Nodes": None if node_cache_capable else _node_list(nodes),
        "NodeNames": [n.name for n in nodes] if node_cache_capable else None,
    }


def convert_to_meta_victims(victims: Mapping[str, Victims]) -> dict[str, MetaVictims]:
    """`convertToMetaVictims`: each victim pod becomes its UID (`string(pod.UID)`). A pod without one
    (the API server would have given it one) is named by its key, as everywhere in the reference."""
    return {node: MetaVictims([p.effective_uid for p in v.pods], v.num_pdb_violations)
            for node, v in victims.items()}


def preemption_args(pod: Pod, victims: Mapping[str, Victims], node_cache_capable: bool) -> dict[str, Any]:
    """`ExtenderPreemptionArgs`: full victim pods, or only their UIDs when the extender caches nodes."""
    if node_cache_capable:
        meta = {node: {"Pods": [{"UID": uid} for uid in m.pods], "NumPDBViolations": m.num_pdb_violations}
                for node, m in convert_to_meta_victims(victims).items()}
        return {"Pod": pod_to_manifest(pod), "NodeNameToVictims": None, "NodeNameToMetaVictims": _sorted(meta)}
    full = {node: {"Pods": [pod_to_manifest(p) for p in v.pods], "NumPDBViolations": v.num_pdb_violations}
            for node, v in victims.items()}
    return {"Pod": pod_to_manifest(pod), "NodeNameToVictims": _sorted(full), "NodeNameToMetaVictims": None}


def binding_args(pod: Pod, node_name: str) -> dict[str, Any]:
    """`ExtenderBindingArgs` from the Binding the scheduler builds (name, namespace, UID, target)."""
    return {"PodName": pod.name, "PodNamespace": pod.namespace, "PodUID": pod.uid, "Node": node_name}


# --- responses (json.Decoder.Decode) -----------------------------------------------------------

class _Object(list):
    """A JSON object as its (key, value) pairs in document order, so duplicates stay visible."""


class _Number(str):
    """A JSON number that is not a plain integer literal (`1.5`, `1e3`): Go rejects it for int64."""


def unmarshal(body: bytes) -> Any:
    """Read the first JSON value of `body`; Go stops there and ignores what follows."""
    text = body.decode("utf-8", errors="replace").lstrip(" \t\r\n")
    if not text:
        raise ExtenderError("EOF")
    decoder = json.JSONDecoder(object_pairs_hook=_Object, parse_float=_Number, parse_constant=_reject_constant)
    try:
        value, _ = decoder.raw_decode(text)
    except ValueError as err:
        raise ExtenderError(f"invalid JSON in extender response: {err}") from None
    return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"invalid character {name[0]!r} looking for beginning of value")


def _kind(value: Any) -> str:
    """The JSON kind Go names in an UnmarshalTypeError."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, str) and not isinstance(value, _Number):
        return "string"
    if isinstance(value, _Object):
        return "object"
    if isinstance(value, list):
        return "array"
    return "number"


def _fold(name: str) -> str:
    """Go's simple case folding of a key (so "ſ" matches "s" and "K" matches "k")."""
    return "".join(c.upper().lower() if len(c.upper()) == 1 else c for c in name)


class _Type:
    """A Go type to decode into: `kind` is string, int64, slice, map, ptr, struct or object."""

    def __init__(self, go_name: str, kind: str, elem: "_Type | None" = None,
                 fields: Mapping[str, "_Type"] | None = None) -> None:
        self.go_name, self.kind, self.elem, self.fields = go_name, kind, elem, dict(fields or {})

    def zero(self) -> Any:
        if self.kind == "string":
            return ""
        if self.kind == "int64":
            return 0
        if self.kind == "struct":
            return {name: t.zero() for name, t in self.fields.items()}
        return {} if self.kind == "object" else None

    def decode(self, value: Any, where: tuple[str, str] = ("", "")) -> Any:
        """`where` is (innermost struct, dotted field path) for Go's error text."""
        if value is None:
            return self.zero()
        kind = self.kind
        if kind == "ptr":
            return self.elem.decode(value, where)
        ok = {"string": _kind(value) == "string", "int64": _kind(value) == "number",
              "slice": _kind(value) == "array", "map": _kind(value) == "object",
              "struct": _kind(value) == "object", "object": _kind(value) == "object"}[kind]
        literal = _kind(value)
        if kind == "int64" and ok and (isinstance(value, _Number) or not _INT64[0] <= value <= _INT64[1]):
            ok, literal = False, f"number {value}"
        if not ok:
            struct, path = where
            into = f"Go struct field {struct}.{path}" if struct else "Go value"
            raise ExtenderError(f"json: cannot unmarshal {literal} into {into} of type {self.go_name}")
        if kind == "slice":
            return [self.elem.decode(item, where) for item in value]
        if kind == "map":
            return {key: self.elem.decode(item, where) for key, item in value}
        if kind == "struct":
            return self._decode_struct(value, where)
        if kind == "object":
            return _plain(value)
        return value

    def _decode_struct(self, pairs: _Object, where: tuple[str, str]) -> dict[str, Any]:
        out = self.zero()
        by_fold = {_fold(name): name for name in self.fields}
        struct = self.go_name.rsplit(".", 1)[-1]
        for key, item in pairs:
            name = key if key in self.fields else by_fold.get(_fold(key))
            if name is not None:
                path = f"{where[1]}.{name}" if where[1] else name
                out[name] = self.fields[name].decode(item, (struct, path))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, _Object):
        return {key: _plain(item) for key, item in value}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, _Number):
        return float(value)
    return value


_STRING = _Type("string", "string")
_INT = _Type("int64", "int64")
_STRINGS = _Type("*[]string", "ptr", _Type("[]string", "slice", _STRING))
_FAILED = _Type("v1.FailedNodesMap", "map", _STRING)
_NODE_LIST = _Type("*v1.NodeList", "ptr", _Type("v1.NodeList", "struct", fields={
    "items": _Type("[]v1.Node", "slice", _Type("v1.Node", "object"))}))
FILTER_RESULT = _Type("v1.ExtenderFilterResult", "struct", fields={
    "Nodes": _NODE_LIST, "NodeNames": _STRINGS, "FailedNodes": _FAILED,
    "FailedAndUnresolvableNodes": _FAILED, "Error": _STRING})
HOST_PRIORITY_LIST = _Type("v1.HostPriorityList", "slice", _Type("v1.HostPriority", "struct", fields={
    "Host": _STRING, "Score": _INT}))
BINDING_RESULT = _Type("v1.ExtenderBindingResult", "struct", fields={"Error": _STRING})
_META_POD = _Type("*v1.MetaPod", "ptr", _Type("v1.MetaPod", "struct", fields={"UID": _STRING}))
PREEMPTION_RESULT = _Type("v1.ExtenderPreemptionResult", "struct", fields={
    "NodeNameToMetaVictims": _Type("map[string]*v1.MetaVictims", "map", _Type(
        "*v1.MetaVictims", "ptr", _Type("v1.MetaVictims", "struct", fields={
            "Pods": _Type("[]*v1.MetaPod", "slice", _META_POD), "NumPDBViolations": _INT})))})


def decode_filter_result(body: bytes) -> FilterResult:
    raw = FILTER_RESULT.decode(unmarshal(body))
    nodes = None
    if raw["Nodes"] is not None:
        try:
            nodes = [node_from_manifest(item) for item in raw["Nodes"]["items"] or ()]
        except ManifestError as err:
            raise ExtenderError(f"extender returned a node the reference cannot read: {err}") from None
    return FilterResult(nodes, raw["NodeNames"], raw["FailedNodes"], raw["FailedAndUnresolvableNodes"], raw["Error"])


def decode_host_priorities(body: bytes) -> list[HostPriority]:
    return [HostPriority(h["Host"], h["Score"]) for h in HOST_PRIORITY_LIST.decode(unmarshal(body)) or ()]


def decode_binding_result(body: bytes) -> str:
    return BINDING_RESULT.decode(unmarshal(body))["Error"]


def decode_preemption_result(body: bytes) -> dict[str, MetaVictims | None]:
    """`NodeNameToMetaVictims` in document order; Go's nil MetaVictims and nil MetaPods stay None."""
    raw = PREEMPTION_RESULT.decode(unmarshal(body))["NodeNameToMetaVictims"] or {}
    return {node: None if m is None else MetaVictims([None if p is None else p["UID"] for p in m["Pods"] or ()],
                                                     m["NumPDBViolations"])
            for node, m in raw.items()}


# --- transport (HTTPExtender.send and makeTransport) -------------------------------------------

def post(url_prefix: str, action: str, body: bytes, *, timeout: float | None,
         tls: tuple[ssl.SSLContext | None, str]) -> bytes:
    """POST JSON to <urlPrefix>/<action>; the body of a 200 response, else `ExtenderError`.

    `timeout` bounds the whole exchange like http.Client.Timeout (None: no deadline); `tls` is
    what `make_ssl_context` returned.
    """
    url = url_prefix.rstrip("/") + "/" + action
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ExtenderError(f"Post {quote(url)}: unsupported protocol scheme {quote(parts.scheme)}")
    if not parts.hostname:
        raise ExtenderError(f"Post {quote(url)}: http: no Host in request URL")
    deadline = None if timeout is None else time.monotonic() + timeout
    if parts.scheme == "https":
        conn: http.client.HTTPConnection = _HTTPSConnection(
            parts.hostname, parts.port, timeout=timeout, context=tls[0] or ssl.create_default_context(),
            server_name=tls[1])
    else:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        try:
            conn.connect()
            sock = conn.sock  # the response keeps reading from it after an HTTP/1.0 conn.close()
            _set_remaining(sock, deadline)
            conn.request("POST", target, body=body, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
        except TimeoutError:
            raise ExtenderError(f"Post {quote(url)}: context deadline exceeded "
                                "(Client.Timeout exceeded while awaiting headers)") from None
        except ConnectionRefusedError:
            host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
            port = parts.port or (443 if parts.scheme == "https" else 80)
            raise ExtenderError(f"Post {quote(url)}: dial tcp {host}:{port}: connect: connection refused") from None
        except (OSError, http.client.HTTPException) as err:
            raise ExtenderError(f"Post {quote(url)}: {err}") from None
        if response.status != 200:
            raise ExtenderError(f"failed {action} with extender at URL {url}, code {response.status}")
        return _read_body(sock, response, deadline)
    finally:
        conn.close()


def _set_remaining(sock: socket.socket, deadline: float | None) -> None:
    """http.Client.Timeout bounds the whole exchange, not each socket operation."""
    if deadline is not None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        sock.settimeout(remaining)


def _read_body(sock: socket.socket, response: http.client.HTTPResponse, deadline: float | None) -> bytes:
    chunks = []
    try:
        while True:
            _set_remaining(sock, deadline)
            chunk = response.read1(65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    except TimeoutError:
        raise ExtenderError("context deadline exceeded "
                            "(Client.Timeout or context cancellation while reading body)") from None
    except (OSError, http.client.HTTPException) as err:
        raise ExtenderError(str(err) or "unexpected EOF") from None


class _HTTPSConnection(http.client.HTTPSConnection):
    """Verifies (and sends SNI for) tlsConfig.serverName instead of the URL's host when set."""

    def __init__(self, host: str, port: int | None, *, timeout: float | None, context: ssl.SSLContext,
                 server_name: str) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self._server_name = server_name or host

    def connect(self) -> None:
        http.client.HTTPConnection.connect(self)
        self.sock = self._context.wrap_socket(self.sock, server_hostname=self._server_name)


def make_ssl_context(enable_https: bool, tls: Any) -> tuple[ssl.SSLContext | None, str]:
    """`makeTransport` + client-go `TLSConfigFor`: (context or None for the defaults, server name).

    enableHTTPS does not choose the scheme (the URL does); without a CA it turns on `insecure`.
    Data fields win over files, as in client-go. Construction errors raise `ConfigError`.
    """
    tls = tls or TLSConfig()
    has_ca = bool(tls.ca_file or tls.ca_data)
    insecure = tls.insecure or (enable_https and not has_ca)
    has_cert = bool((tls.cert_file or tls.cert_data) and (tls.key_file or tls.key_data))
    if not (has_ca or has_cert or insecure or tls.server_name):
        return None, ""
    if has_ca and insecure:
        raise ConfigError("specifying a root certificates file with the insecure flag is not allowed", "tlsConfig")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        if insecure:
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        elif has_ca:
            ca = tls.ca_data or open(tls.ca_file, "rb").read()
            context.load_verify_locations(cadata=ca.decode("latin-1"))
        else:
            context.load_default_certs()
    except (OSError, ValueError, ssl.SSLError) as err:
        raise ConfigError(f"unable to load root certificates: {err}", "tlsConfig") from None
    if has_cert:
        _load_client_cert(context, tls)
    return context, tls.server_name


def _load_client_cert(context: ssl.SSLContext, tls: Any) -> None:
    """The ssl module reads key pairs only from files, so PEM data goes through a private temp dir."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for data, path, name in ((tls.cert_data, tls.cert_file, "cert.pem"), (tls.key_data, tls.key_file, "key.pem")):
            if data:
                path = os.path.join(tmp, name)
                with open(path, "wb") as f:
                    f.write(data)
            paths.append(path)
        try:
            context.load_cert_chain(paths[0], paths[1])
        except (OSError, ssl.SSLError) as err:
            raise ConfigError(f"tls: failed to load the client key pair: {err}", "tlsConfig") from None



__all__ = [
    "ExtenderError",
    "FilterResult",
    "HostPriority",
    "MAX_EXTENDER_PRIORITY",
    "MIN_EXTENDER_PRIORITY",
    "MetaVictims",
    "TLSConfig",
    "Victims",
    "binding_args",
    "convert_to_meta_victims",
    "decode_binding_result",
    "decode_filter_result",
    "decode_host_priorities",
    "decode_preemption_result",
    "extender_args",
    "make_ssl_context",
    "post",
    "preemption_args",
    "unmarshal",
]
