"""HTTPExtender against a real HTTP server; ports pkg/scheduler/extender_test.go.

Ported: TestIsInterested (all 5 cases), TestConvertToMetaVictims and TestConvertToVictims (their
one case each). Not ported: TestSchedulerWithExtenders, which drives SchedulePod with in-process
fake extenders (tf.FakeExtender, not HTTPExtender); it belongs with the scheduler's tests.
"""

from __future__ import annotations

import base64
import json
import shutil
import ssl
import subprocess
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from reference.errors import ConfigError
from reference.extender import (
    DEFAULT_EXTENDER_TIMEOUT, ExtenderError, HostPriority, HTTPExtender, ManagedResource, MetaVictims, TLSConfig,
    Victims, parse_go_duration)
from reference.extender_wire import convert_to_meta_victims
from reference.nodeinfo import NodeInfo, Snapshot
from reference.types import Container, Pod
from tests.builders import node, node_info, pod


# --- a scripted extender server --------------------------------------------------------------

@dataclass
class Reply:
    body: Any = None
    status: int = 200
    raw: bytes | None = None
    delay: float = 0.0
    trickle: float = 0.0  # seconds between body bytes


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    data: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.data)


@dataclass
class FakeExtender:
    url: str
    requests: list[Request] = field(default_factory=list)
    replies: dict[str, Reply] = field(default_factory=dict)

    def reply(self, path: str, body: Any = None, **kwargs: Any) -> None:
        self.replies[path] = Reply(body, **kwargs)


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        fake: FakeExtender = self.server.fake  # type: ignore[attr-defined]
        data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        fake.requests.append(Request(self.path, dict(self.headers), data))
        reply = fake.replies.get(self.path, Reply(status=404))
        time.sleep(reply.delay)
        payload = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            for i in range(0, len(payload), 1 if reply.trickle else len(payload) or 1):
                self.wfile.write(payload[i:i + 1] if reply.trickle else payload)
                self.wfile.flush()
                time.sleep(reply.trickle)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def make_server():
    servers = []

    def start(context: ssl.SSLContext | None = None) -> FakeExtender:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        server.daemon_threads = True
        if context is not None:
            server.socket = context.wrap_socket(server.socket, server_side=True)
        scheme = "https" if context else "http"
        server.fake = FakeExtender(f"{scheme}://127.0.0.1:{server.server_address[1]}")  # type: ignore[attr-defined]
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        thread.start()
        servers.append((server, thread))
        return server.fake  # type: ignore[attr-defined]

    yield start
    for server, thread in servers:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def ext(make_server) -> FakeExtender:
    return make_server()


def two_nodes() -> list[NodeInfo]:
    return [node_info(node("n1"), pod("a", node_name="n1")), node_info(node("n2"))]


def the_pod() -> Pod:
    return pod("p", namespace="ns", uid="uid-p")


# --- capabilities ------------------------------------------------------------------------------

@pytest.mark.parametrize("verbs,expected", [
    pytest.param({}, (False, False, False, False), id="no verbs"),
    pytest.param({"filter_verb": "filter"}, (True, False, False, False), id="filter"),
    pytest.param({"prioritize_verb": "prioritize", "weight": 1}, (False, True, False, False), id="prioritize"),
    pytest.param({"bind_verb": "bind"}, (False, False, True, False), id="bind"),
    pytest.param({"preempt_verb": "preempt"}, (False, False, False, True), id="preempt"),
])
def test_capabilities(verbs, expected):
    e = HTTPExtender(url_prefix="http://x", **verbs)
    assert (e.is_filter(), e.is_prioritizer(), e.is_binder(), e.supports_preemption()) == expected


def test_name_is_url_prefix_and_ignorable():
    e = HTTPExtender(url_prefix="http://ext:8888/sched/", ignorable=True)
    assert e.name == "http://ext:8888/sched/"
    assert e.is_ignorable() and not HTTPExtender(url_prefix="http://x").is_ignorable()


MEMORY = [ManagedResource("memory")]


@pytest.mark.parametrize("managed,p,want", [
    # TestIsInterested
    pytest.param([], Pod("p"), True, id="Empty managed resources"),
    pytest.param(MEMORY, Pod("p", containers=(Container("app"),)), False, id="Managed memory, empty resources"),
    pytest.param(MEMORY, Pod("p", containers=(Container("c", requests={"memory": 0}),)), True,
                 id="Managed memory, container memory with Requests"),
    pytest.param(MEMORY, Pod("p", containers=(Container("c", limits={"memory": 0}),)), True,
                 id="Managed memory, container memory with Limits"),
    pytest.param(MEMORY, Pod("p", containers=(Container("app"),),
                             init_containers=(Container("i", requests={"memory": 0}),)), True,
                 id="Managed memory, init container memory"),
    # beyond upstream's table
    pytest.param(MEMORY, Pod("p", init_containers=(Container("i", limits={"memory": 1}),)), True,
                 id="init container limit"),
    pytest.param([("example.com/gpu", True)], Pod("p", containers=(Container("c", requests={"cpu": 1}),)), False,
                 id="other resource only"),
    pytest.param([("example.com/gpu", False)], Pod("p", containers=(Container("c", limits={"example.com/gpu": 2}),)),
                 True, id="tuple form of managed resource"),
])
def test_is_interested(managed, p, want):
    assert HTTPExtender(url_prefix="http://x", managed_resources=managed).is_interested(p) is want


# --- upstream conversion tests ----------------------------------------------------------------

def upstream_pod(name: str, uid: str) -> Pod:
    return Pod(name, uid=uid)


def test_convert_to_meta_victims():
    """TestConvertToMetaVictims: NumPDBViolations is transferred to nodeNameToMetaVictims."""
    victims = {
        "node1": Victims([upstream_pod("pod1", "uid1"), upstream_pod("pod3", "uid3")], 1),
        "node2": Victims([upstream_pod("pod2", "uid2"), upstream_pod("pod4", "uid4")], 2),
    }
    assert convert_to_meta_victims(victims) == {
        "node1": MetaVictims(["uid1", "uid3"], 1),
        "node2": MetaVictims(["uid2", "uid4"], 2),
    }


def test_convert_to_victims():
    """TestConvertToVictims: NumPDBViolations is transferred from NodeNameToMetaVictims."""
    pods = [upstream_pod(f"pod{i}", f"uid{i}") for i in range(1, 5)]
    infos = {name: NodeInfo.of(node(name), [pods[i], pods[i + 2]]) for i, name in enumerate(["node1", "node2"])}
    meta = {"node1": MetaVictims(["uid1", "uid3"], 1), "node2": MetaVictims(["uid2", "uid4"], 2)}
    got = HTTPExtender(url_prefix="").convert_to_victims(meta, infos)
    assert got == {"node1": Victims([pods[0], pods[2]], 1), "node2": Victims([pods[1], pods[3]], 2)}


def test_victims_without_uids_keep_apart_through_a_node_cache_capable_extender():
    """Pods without a UID (a scenario's pods) are named by key: two victims must not become one."""
    pods = [Pod("a", namespace="ns"), Pod("b", namespace="ns")]
    meta = convert_to_meta_victims({"node1": Victims(pods, 0)})
    assert meta == {"node1": MetaVictims(["ns/a", "ns/b"], 0)}
    infos = {"node1": NodeInfo.of(node("node1"), pods)}
    assert HTTPExtender(url_prefix="").convert_to_victims({"node1": MetaVictims(["ns/b"], 0)}, infos) == {
        "node1": Victims([pods[1]], 0)}


# --- filter ------------------------------------------------------------------------------------

def test_filter_sends_node_list_and_maps_returned_nodes(ext):
    ext.reply("/filter", {"Nodes": {"items": [{"metadata": {"name": "n2", "labels": {"k": "v"}}}]},
                          "FailedNodes": {"n1": "no"}, "FailedAndUnresolvableNodes": {}, "Error": ""})
    e = HTTPExtender(url_prefix=ext.url + "/", filter_verb="filter")
    feasible, failed, unresolvable = e.filter(the_pod(), two_nodes())
    [request] = ext.requests
    assert request.path == "/filter"
    assert request.headers["Content-Type"] == "application/json"
    body = request.json
    assert list(body) == ["Pod", "Nodes", "NodeNames"]
    assert body["NodeNames"] is None
    assert [n["metadata"]["name"] for n in body["Nodes"]["items"]] == ["n1", "n2"]
    assert body["Pod"]["metadata"] == {"name": "p", "namespace": "ns", "uid": "uid-p"}
    # Upstream builds fresh NodeInfos from the returned nodes: the extender's node, no pods.
    assert [(n.name, dict(n.node.labels), n.pods) for n in feasible] == [("n2", {"k": "v"}, [])]
    assert (failed, unresolvable) == ({"n1": "no"}, {})


def test_filter_keeps_the_path_of_the_url_prefix(ext):
    ext.reply("/scheduler/v1/filter", {"Nodes": {"items": []}})
    e = HTTPExtender(url_prefix=ext.url + "/scheduler/v1//", filter_verb="filter")
    assert e.filter(the_pod(), two_nodes()) == ([], {}, {})
    assert ext.requests[0].path == "/scheduler/v1/filter"


def test_filter_returns_nodes_for_nodes(ext):
    ext.reply("/filter", {"Nodes": {"items": [{"metadata": {"name": "n1"}}]}})
    e = HTTPExtender(url_prefix=ext.url, filter_verb="filter")
    assert e.filter(the_pod(), [node("n1"), node("n2")])[0] == [node("n1", allocatable={})]


def test_filter_with_empty_input_sends_null_items(ext):
    ext.reply("/filter", {})
    HTTPExtender(url_prefix=ext.url, filter_verb="filter").filter(the_pod(), [])
    assert ext.requests[0].json["Nodes"] == {"metadata": {}, "items": None}


def test_filter_node_cache_capable_maps_names_to_the_given_objects(ext):
    ext.reply("/filter", {"NodeNames": ["n2", "n1"], "FailedNodes": {"x": "y"},
                          "FailedAndUnresolvableNodes": {"n3": "gone"}})
    nodes = two_nodes()
    e = HTTPExtender(url_prefix=ext.url, filter_verb="filter", node_cache_capable=True)
    feasible, failed, unresolvable = e.filter(the_pod(), nodes)
    body = ext.requests[0].json
    assert body["Nodes"] is None and body["NodeNames"] == ["n1", "n2"]
    assert feasible[0] is nodes[1] and feasible[1] is nodes[0]
    assert (failed, unresolvable) == ({"x": "y"}, {"n3": "gone"})


def test_filter_node_cache_capable_unknown_name_is_an_error(ext):
    ext.reply("/filter", {"NodeNames": ["n1", "n9"]})
    e = HTTPExtender(url_prefix=ext.url, filter_verb="filter", node_cache_capable=True)
    with pytest.raises(ExtenderError) as err:
        e.filter(the_pod(), two_nodes())
    assert str(err.value) == (f'extender "{ext.url}" claims a filtered node "n9" '
                              "which is not found in the input node list")


def test_filter_node_cache_capable_falls_back_to_returned_nodes(ext):
    ext.reply("/filter", {"NodeNames": None, "Nodes": {"items": [{"metadata": {"name": "n9"}}]}})
    e = HTTPExtender(url_prefix=ext.url, filter_verb="filter", node_cache_capable=True)
    assert [n.name for n in e.filter(the_pod(), two_nodes())[0]] == ["n9"]


def test_filter_without_nodes_or_names_filters_everything(ext):
    ext.reply("/filter", {"FailedNodes": {"n1": "a", "n2": "b"}})
    e = HTTPExtender(url_prefix=ext.url, filter_verb="filter")
    assert e.filter(the_pod(), two_nodes()) == ([], {"n1": "a", "n2": "b"}, {})


def test_filter_without_verb_returns_input_and_sends_nothing(ext):
    nodes = two_nodes()
    feasible, failed, unresolvable = HTTPExtender(url_prefix=ext.url).filter(the_pod(), nodes)
    assert feasible == nodes and feasible[0] is nodes[0]
    assert (failed, unresolvable, ext.requests) == ({}, {}, [])


def test_filter_error_field(ext):
    ext.reply("/filter", {"Error": "extender is sad", "NodeNames": ["n1"]})
    with pytest.raises(ExtenderError, match="^extender is sad$"):
        HTTPExtender(url_prefix=ext.url, filter_verb="filter").filter(the_pod(), two_nodes())


@pytest.mark.parametrize("reply", [
    pytest.param({"nodenames": ["n1"], "failednodes": {"n2": "x"}, "failedandunresolvablenodes": {"n3": "y"}},
                 id="lowercase"),
    pytest.param({"NODENAMES": ["n1"], "FailedNODES": {"n2": "x"}, "failedAndUnresolvableNodes": {"n3": "y"}},
                 id="mixed case"),
    pytest.param({"NodeNames": ["n2"], "nodenames": ["n1"], "FailedNodes": {"n2": "x"},
                  "FailedAndUnresolvableNodes": {"n3": "y"}, "Unknown": 1}, id="last duplicate wins"),
])
def test_filter_response_keys_are_case_insensitive(ext, reply):
    ext.reply("/filter", reply)
    e = HTTPExtender(url_prefix=ext.url, filter_verb="filter", node_cache_capable=True)
    feasible, failed, unresolvable = e.filter(the_pod(), two_nodes())
    assert ([n.name for n in feasible], failed, unresolvable) == (["n1"], {"n2": "x"}, {"n3": "y"})


def test_error_field_is_case_insensitive(ext):
    ext.reply("/filter", {"error": "lower"})
    with pytest.raises(ExtenderError, match="^lower$"):
        HTTPExtender(url_prefix=ext.url, filter_verb="filter").filter(the_pod(), two_nodes())


# --- transport errors --------------------------------------------------------------------------

@pytest.mark.parametrize("status", [500, 404, 201, 302])
def test_non_200_is_an_error(ext, status):
    ext.reply("/filter", {"NodeNames": ["n1"]}, status=status)
    with pytest.raises(ExtenderError) as err:
        HTTPExtender(url_prefix=ext.url, filter_verb="filter").filter(the_pod(), two_nodes())
    assert str(err.value) == f"failed filter with extender at URL {ext.url}/filter, code {status}"


def test_timeout_while_awaiting_headers(ext):
    ext.reply("/filter", {}, delay=1.0)
    e = HTTPExtender(url_prefix=ext.url, filter_verb="filter", http_timeout_seconds=0.2)
    start = time.monotonic()
    with pytest.raises(ExtenderError) as err:
        e.filter(the_pod(), two_nodes())
    assert time.monotonic() - start < 0.8
    assert str(err.value) == (f'Post "{ext.url}/filter": context deadline exceeded '
                              "(Client.Timeout exceeded while awaiting headers)")


def test_timeout_bounds_the_whole_exchange(ext):
    """Each byte arrives well within the timeout, but the whole body does not."""
    ext.reply("/filter", {"Error": ""}, trickle=0.1)
    e = HTTPExtender(url_prefix=ext.url, filter_verb="filter", http_timeout_seconds=0.5)
    with pytest.raises(ExtenderError, match=r"^context deadline exceeded \(Client.Timeout or context "
                                            r"cancellation while reading body\)$"):
        e.filter(the_pod(), two_nodes())


def test_response_within_timeout_succeeds(ext):
    ext.reply("/filter", {"NodeNames": ["n1"]}, delay=0.1)
    e = HTTPExtender(url_prefix=ext.url, filter_verb="filter", node_cache_capable=True, http_timeout_seconds=2)
    assert [n.name for n in e.filter(the_pod(), two_nodes())[0]] == ["n1"]


def test_connection_refused():
    with ThreadingHTTPServer(("127.0.0.1", 0), _Handler) as closed:
        port = closed.server_address[1]
    e = HTTPExtender(url_prefix=f"http://127.0.0.1:{port}", filter_verb="filter")
    with pytest.raises(ExtenderError) as err:
        e.filter(the_pod(), two_nodes())
    assert str(err.value) == (f'Post "http://127.0.0.1:{port}/filter": '
                              f"dial tcp 127.0.0.1:{port}: connect: connection refused")


def test_unsupported_scheme():
    with pytest.raises(ExtenderError, match='^Post "ftp://x/filter": unsupported protocol scheme "ftp"$'):
        HTTPExtender(url_prefix="ftp://x", filter_verb="filter").filter(the_pod(), two_nodes())


@pytest.mark.parametrize("raw,message", [
    pytest.param(b"", "^EOF$", id="empty body"),
    pytest.param(b"{not json", "^invalid JSON", id="syntax error"),
    pytest.param(b"[]", "^json: cannot unmarshal array into Go value of type v1.ExtenderFilterResult$",
                 id="array for a struct"),
    pytest.param(b'{"Error": 7}', "^json: cannot unmarshal number into Go struct field "
                                  "ExtenderFilterResult.Error of type string$", id="number for a string"),
    pytest.param(b'{"NodeNames": "n1"}', "^json: cannot unmarshal string into Go struct field "
                                         r"ExtenderFilterResult.NodeNames of type \[\]string$", id="string for a list"),
])
def test_undecodable_responses(ext, raw, message):
    ext.reply("/filter", raw=raw)
    with pytest.raises(ExtenderError, match=message):
        HTTPExtender(url_prefix=ext.url, filter_verb="filter").filter(the_pod(), two_nodes())


def test_only_the_first_json_value_is_read(ext):
    ext.reply("/filter", raw=b' {"NodeNames": ["n2"]} trailing {garbage')
    e = HTTPExtender(url_prefix=ext.url, filter_verb="filter", node_cache_capable=True)
    assert [n.name for n in e.filter(the_pod(), two_nodes())[0]] == ["n2"]


def test_null_response_is_the_zero_result(ext):
    ext.reply("/filter", raw=b"null")
    assert HTTPExtender(url_prefix=ext.url, filter_verb="filter").filter(the_pod(), two_nodes()) == ([], {}, {})


def test_request_json_is_go_marshalled(ext):
    ext.reply("/filter", {})
    p = pod("p", labels={"app": "<a&b>"})
    HTTPExtender(url_prefix=ext.url, filter_verb="filter").filter(p, [])
    raw = ext.requests[0].data
    assert b'"app":"\\u003ca\\u0026b\\u003e"' in raw and b" " not in raw


# --- prioritize --------------------------------------------------------------------------------

def test_prioritize_sends_args_and_returns_scores_with_weight(ext):
    ext.reply("/prioritize", [{"Host": "n1", "Score": 3}, {"host": "n2", "score": 10}])
    e = HTTPExtender(url_prefix=ext.url, prioritize_verb="prioritize", weight=5)
    scores, weight = e.prioritize(the_pod(), two_nodes())
    assert (scores, weight) == ([HostPriority("n1", 3), HostPriority("n2", 10)], 5)
    body = ext.requests[0].json
    assert ext.requests[0].path == "/prioritize"
    assert list(body) == ["Pod", "Nodes", "NodeNames"] and body["NodeNames"] is None


def test_prioritize_node_cache_capable_sends_names(ext):
    ext.reply("/prioritize", None)
    e = HTTPExtender(url_prefix=ext.url, prioritize_verb="prioritize", weight=1, node_cache_capable=True)
    assert e.prioritize(the_pod(), two_nodes()) == ([], 1)
    body = ext.requests[0].json
    assert body["Nodes"] is None and body["NodeNames"] == ["n1", "n2"]


def test_prioritize_without_verb_scores_zero_with_weight_zero(ext):
    e = HTTPExtender(url_prefix=ext.url, weight=7)
    assert e.prioritize(the_pod(), two_nodes()) == ([("n1", 0), ("n2", 0)], 0)
    assert ext.requests == []


@pytest.mark.parametrize("score,literal", [(1.5, "number 1.5"), ("3", "string"), (2**63, f"number {2**63}")])
def test_prioritize_score_must_be_int64(ext, score, literal):
    ext.reply("/prioritize", [{"Host": "n1", "Score": score}])
    e = HTTPExtender(url_prefix=ext.url, prioritize_verb="prioritize", weight=1)
    with pytest.raises(ExtenderError) as err:
        e.prioritize(the_pod(), two_nodes())
    assert str(err.value) == (f"json: cannot unmarshal {literal} into Go struct field HostPriority.Score "
                              "of type int64")


def test_prioritize_non_200(ext):
    ext.reply("/prioritize", [], status=503)
    e = HTTPExtender(url_prefix=ext.url, prioritize_verb="prioritize", weight=1)
    with pytest.raises(ExtenderError, match=f"^failed prioritize with extender at URL {ext.url}/prioritize, code 503$"):
        e.prioritize(the_pod(), two_nodes())


# --- bind --------------------------------------------------------------------------------------

def test_bind_sends_binding_args(ext):
    ext.reply("/bind", {"Error": ""})
    HTTPExtender(url_prefix=ext.url, bind_verb="bind").bind(the_pod(), "n1")
    assert ext.requests[0].path == "/bind"
    assert ext.requests[0].json == {"PodName": "p", "PodNamespace": "ns", "PodUID": "uid-p", "Node": "n1"}


@pytest.mark.parametrize("reply", [{"Error": "no room"}, {"error": "no room"}])
def test_bind_error_field(ext, reply):
    ext.reply("/bind", reply)
    with pytest.raises(ExtenderError, match="^no room$"):
        HTTPExtender(url_prefix=ext.url, bind_verb="bind").bind(the_pod(), "n1")


def test_bind_without_verb(ext):
    with pytest.raises(ExtenderError, match="^unexpected empty bindVerb in extender$"):
        HTTPExtender(url_prefix=ext.url).bind(the_pod(), "n1")
    assert ext.requests == []


# --- preemption --------------------------------------------------------------------------------

def preemption_cluster() -> tuple[Snapshot, dict[str, tuple[list[Pod], int]]]:
    a, b, c = pod("a", node_name="n1"), pod("b", node_name="n1"), pod("c", node_name="n2")
    snapshot = Snapshot([node("n1"), node("n2")], [a, b, c])
    return snapshot, {"n2": ([c], 0), "n1": ([a, b], 1)}


def test_preemption_sends_full_victims(ext):
    ext.reply("/preempt", {"NodeNameToMetaVictims": {"n1": {"Pods": [{"UID": "b"}], "NumPDBViolations": 0}}})
    snapshot, victims = preemption_cluster()
    e = HTTPExtender(url_prefix=ext.url, preempt_verb="preempt")
    got = e.process_preemption(the_pod(), victims, snapshot)
    assert got == {"n1": Victims([pod("b", node_name="n1")], 0)}
    body = ext.requests[0].json
    assert list(body) == ["Pod", "NodeNameToVictims", "NodeNameToMetaVictims"]
    assert body["NodeNameToMetaVictims"] is None
    assert list(body["NodeNameToVictims"]) == ["n1", "n2"]  # Go marshals map keys sorted
    n1 = body["NodeNameToVictims"]["n1"]
    assert [p["metadata"]["name"] for p in n1["Pods"]] == ["a", "b"] and n1["NumPDBViolations"] == 1


def test_preemption_node_cache_capable_sends_meta_victims(ext):
    ext.reply("/preempt", {"nodenametometavictims": {
        "n2": {"pods": [{"uid": "c"}], "numpdbviolations": 4}, "n1": {"Pods": [], "NumPDBViolations": 0}}})
    snapshot, victims = preemption_cluster()
    e = HTTPExtender(url_prefix=ext.url, preempt_verb="preempt", node_cache_capable=True)
    got = e.process_preemption(the_pod(), victims, snapshot)
    assert got == {"n2": Victims([pod("c", node_name="n2")], 4), "n1": Victims([], 0)}
    body = ext.requests[0].json
    assert body["NodeNameToVictims"] is None
    assert body["NodeNameToMetaVictims"] == {
        "n1": {"Pods": [{"UID": "a"}, {"UID": "b"}], "NumPDBViolations": 1},
        "n2": {"Pods": [{"UID": "c"}], "NumPDBViolations": 0}}


@pytest.mark.parametrize("lookup", [
    pytest.param(lambda s: {i.name: i for i in s.node_info_list}, id="mapping of NodeInfo"),
    pytest.param(lambda s: {i.name: [p.pod for p in i.pods] for i in s.node_info_list}, id="mapping of pods"),
    pytest.param(lambda s: s.get, id="callable"),
])
def test_preemption_node_lookups(ext, lookup):
    ext.reply("/preempt", {"NodeNameToMetaVictims": {"n1": {"Pods": [{"UID": "a"}], "NumPDBViolations": 2}}})
    snapshot, victims = preemption_cluster()
    e = HTTPExtender(url_prefix=ext.url, preempt_verb="preempt")
    assert e.process_preemption(the_pod(), victims, lookup(snapshot)) == {"n1": Victims([pod("a", node_name="n1")], 2)}


def test_preemption_null_result_is_empty(ext):
    ext.reply("/preempt", {"NodeNameToMetaVictims": None})
    snapshot, victims = preemption_cluster()
    assert HTTPExtender(url_prefix=ext.url, preempt_verb="preempt").process_preemption(
        the_pod(), victims, snapshot) == {}


@pytest.mark.parametrize("reply,message", [
    pytest.param({"NodeNameToMetaVictims": {"n9": {"Pods": []}}}, 'nodeinfo not found for node name "n9"',
                 id="unknown node"),
    pytest.param({"NodeNameToMetaVictims": {"n2": {"Pods": [{"UID": "a"}]}}},
                 "extender: {url} claims to preempt pod (UID: &{{a}}) on node: n2, but the pod is not found on that node",
                 id="pod not on that node"),
    pytest.param({"NodeNameToMetaVictims": {"n1": None}},
                 "extender {url} returned null victims for node n1 (upstream kube-scheduler panics here)",
                 id="null victims"),
    pytest.param({"NodeNameToMetaVictims": {"n1": {"Pods": [None]}}},
                 "extender {url} returned a null victim pod on node n1 (upstream kube-scheduler panics here)",
                 id="null victim pod"),
])
def test_preemption_result_errors(ext, reply, message):
    ext.reply("/preempt", reply)
    snapshot, victims = preemption_cluster()
    with pytest.raises(ExtenderError) as err:
        HTTPExtender(url_prefix=ext.url, preempt_verb="preempt").process_preemption(the_pod(), victims, snapshot)
    assert str(err.value) == message.format(url=ext.url)


def test_preemption_without_verb(ext):
    snapshot, victims = preemption_cluster()
    with pytest.raises(ExtenderError) as err:
        HTTPExtender(url_prefix=ext.url).process_preemption(the_pod(), victims, snapshot)
    assert str(err.value) == f"preempt verb is not defined for extender {ext.url} but run into ProcessPreemption"
    assert ext.requests == []


def test_preemption_non_200(ext):
    ext.reply("/preempt", {}, status=500)
    snapshot, victims = preemption_cluster()
    with pytest.raises(ExtenderError, match=f"^failed preempt with extender at URL {ext.url}/preempt, code 500$"):
        HTTPExtender(url_prefix=ext.url, preempt_verb="preempt").process_preemption(the_pod(), victims, snapshot)


# --- configuration -----------------------------------------------------------------------------

def test_from_config_maps_v1_names():
    e = HTTPExtender.from_config({
        "urlPrefix": "http://ext", "filterVerb": "f", "preemptVerb": "pre", "prioritizeVerb": "pri",
        "weight": 3, "bindVerb": "b", "enableHTTPS": False, "httpTimeout": "1m30s", "nodeCacheCapable": True,
        "managedResources": [{"name": "example.com/foo", "ignoredByScheduler": True}, {"name": "example.com/bar"}],
        "ignorable": True})
    assert (e.name, e.filter_verb, e.preempt_verb, e.prioritize_verb, e.weight, e.bind_verb) == (
        "http://ext", "f", "pre", "pri", 3, "b")
    assert e.http_timeout_seconds == 90 and e.node_cache_capable and e.is_ignorable()
    assert e.managed_resources == (ManagedResource("example.com/foo", True), ManagedResource("example.com/bar"))


@pytest.mark.parametrize("value,seconds", [
    (None, DEFAULT_EXTENDER_TIMEOUT), ("0s", DEFAULT_EXTENDER_TIMEOUT), (0, DEFAULT_EXTENDER_TIMEOUT),
    ("500ms", 0.5), ("1h2m3.5s", 3723.5), (2, 2.0), (0.25, 0.25), ("-1s", None),
])
def test_http_timeout(value, seconds):
    raw = {"urlPrefix": "http://x"} | ({} if value is None else {"httpTimeout": value})
    assert HTTPExtender.from_config(raw).http_timeout_seconds == seconds


@pytest.mark.parametrize("text,seconds", [
    ("0", 0.0), ("5s", 5.0), ("+5s", 5.0), ("-1.5h", -5400.0), ("1.5m", 90.0), (".5s", 0.5), ("1.s", 1.0),
    ("100us", 1e-4), ("100\u00b5s", 1e-4), ("3ns", 3e-9), ("1h1m1s1ms", 3661.001),
])
def test_parse_go_duration(text, seconds):
    assert parse_go_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text,message", [
    ("", 'time: invalid duration ""'), ("5", 'time: missing unit in duration "5"'),
    ("5d", 'time: unknown unit "d" in duration "5d"'), ("abc", 'time: invalid duration "abc"'),
    ("--5s", 'time: invalid duration "--5s"'), (".s", 'time: invalid duration ".s"'),
])
def test_parse_go_duration_errors(text, message):
    with pytest.raises(ValueError) as err:
        parse_go_duration(text)
    assert str(err.value) == message


@pytest.mark.parametrize("raw,field,message", [
    pytest.param({"urlPrefix": "x", "filterverb": "f"}, "extenders[0]", 'unknown field "filterverb"', id="unknown"),
    pytest.param({"urlPrefix": "x", "weight": "1"}, "extenders[0].weight", "expected int, got '1'", id="weight"),
    pytest.param({"urlPrefix": "x", "weight": True}, "extenders[0].weight", "expected int, got True", id="bool weight"),
    pytest.param({"urlPrefix": "x", "httpTimeout": "5"}, "extenders[0].httpTimeout",
                 'time: missing unit in duration "5"', id="duration"),
    pytest.param({"urlPrefix": "x", "managedResources": [{"nam": "a"}]}, "extenders[0].managedResources[0]",
                 'unknown field "nam"', id="managed resource"),
    pytest.param({"urlPrefix": "x", "tlsConfig": {"caData": "%%%"}}, "extenders[0].tlsConfig.caData",
                 "illegal base64 data: '%%%'", id="base64"),
])
def test_from_config_errors(raw, field, message):
    with pytest.raises(ConfigError) as err:
        HTTPExtender.from_config(raw)
    assert (err.value.field, err.value.message) == (field, message)


def test_of_reads_a_config_model():
    @dataclass
    class Model:
        url_prefix: str = "http://x"
        filter_verb: str = "f"
        preempt_verb: str = ""
        prioritize_verb: str = "p"
        weight: int = 2
        bind_verb: str = ""
        enable_https: bool = False
        tls_config: Any = None
        http_timeout: float = 0.0
        node_cache_capable: bool = True
        managed_resources: tuple = (ManagedResource("example.com/a", True),)
        ignorable: bool = True

    e = HTTPExtender.of(Model())
    assert (e.filter_verb, e.prioritize_verb, e.weight, e.http_timeout_seconds, e.node_cache_capable) == (
        "f", "p", 2, DEFAULT_EXTENDER_TIMEOUT, True)
    assert e.managed_resources == (ManagedResource("example.com/a", True),) and e.is_ignorable()


# --- HTTPS -------------------------------------------------------------------------------------

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make certificates")


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A CA, a server certificate for 127.0.0.1 and ext.example, and a client certificate."""
    d = tmp_path_factory.mktemp("pki")

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=d, check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
        "-subj", "/CN=test-ca")
    for name, ext in (("server", "subjectAltName=IP:127.0.0.1,DNS:ext.example"), ("client", "extendedKeyUsage=clientAuth")):
        run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={name}")
        (d / f"{name}.ext").write_text(ext + "\n")
        run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", f"{name}.crt", "-days", "2", "-extfile", f"{name}.ext")
    return d


def server_context(pki, require_client_cert: bool = False) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(pki / "server.crt", pki / "server.key")
    if require_client_cert:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(pki / "ca.crt")
    return context


def b64(path) -> str:
    return base64.b64encode(path.read_bytes()).decode()


def https_filter(fake: FakeExtender, **config: Any) -> list[str]:
    fake.reply("/filter", {"NodeNames": ["n1"]})
    e = HTTPExtender.from_config({"urlPrefix": fake.url, "filterVerb": "filter", "nodeCacheCapable": True, **config})
    return [n.name for n in e.filter(the_pod(), two_nodes())[0]]


@needs_openssl
def test_https_enable_https_without_ca_skips_verification(make_server, pki):
    assert https_filter(make_server(server_context(pki)), enableHTTPS=True) == ["n1"]


@needs_openssl
def test_https_verifies_against_system_roots_by_default(make_server, pki):
    fake = make_server(server_context(pki))
    with pytest.raises(ExtenderError, match=f'^Post "{fake.url}/filter": .*CERTIFICATE_VERIFY_FAILED'):
        https_filter(fake)


@needs_openssl
@pytest.mark.parametrize("ca", ["caData", "caFile"])
def test_https_with_ca(make_server, pki, ca):
    value = b64(pki / "ca.crt") if ca == "caData" else str(pki / "ca.crt")
    assert https_filter(make_server(server_context(pki)), enableHTTPS=True, tlsConfig={ca: value}) == ["n1"]


@needs_openssl
def test_https_server_name(make_server, pki):
    fake = make_server(server_context(pki))
    tls = {"caData": b64(pki / "ca.crt"), "serverName": "ext.example"}
    assert https_filter(fake, tlsConfig=tls) == ["n1"]
    with pytest.raises(ExtenderError, match="Hostname mismatch|doesn't match"):
        https_filter(fake, tlsConfig=tls | {"serverName": "other.example"})


@needs_openssl
def test_https_client_certificate(make_server, pki):
    fake = make_server(server_context(pki, require_client_cert=True))
    tls = {"caData": b64(pki / "ca.crt"), "certData": b64(pki / "client.crt"), "keyData": b64(pki / "client.key")}
    assert https_filter(fake, tlsConfig=tls) == ["n1"]
    files = {"caFile": str(pki / "ca.crt"), "certFile": str(pki / "client.crt"), "keyFile": str(pki / "client.key")}
    assert https_filter(fake, tlsConfig=files) == ["n1"]
    with pytest.raises(ExtenderError, match=f'^Post "{fake.url}/filter": '):
        https_filter(fake, tlsConfig={"caData": b64(pki / "ca.crt")})


def test_insecure_with_ca_is_rejected():
    with pytest.raises(ConfigError, match="specifying a root certificates file with the insecure flag is not allowed"):
        HTTPExtender(url_prefix="https://x", tls_config=TLSConfig(insecure=True, ca_data=b"pem"))


def test_bad_ca_data_is_rejected():
    with pytest.raises(ConfigError, match="^tlsConfig: unable to load root certificates: "):
        HTTPExtender(url_prefix="https://x", tls_config=TLSConfig(ca_data=b"not a certificate"))
