"""The scripted extender server, driven through the reference's own HTTP extender client."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.core.errors import ConformanceError
from conformance.extender.script import ExtenderScriptError, parse_script
from conformance.extender.verbs import NO_BINDER
from conformance.extender.server import ExtenderServer
from reference.extender import ExtenderError, HostPriority, HTTPExtender, Victims
from reference.extender_wire import binding_args, extender_args, preemption_args
from reference.gofmt import marshal
from reference.nodeinfo import NodeInfo, Snapshot
from reference.probe.trace import Trace
from reference.scenario import EXTENDER_SCRIPT_ANNOTATION
from reference.types import Pod
from tests.builders import node, node_info, pod

EXT = "ext-0"


class Binder:
    """The backend's binder hook: records calls; answers `error` (or raises `raises`)."""

    def __init__(self, error: str | None = None, raises: Exception | None = None) -> None:
        self.calls: list[tuple[str, str, str, str]] = []
        self.error, self.raises = error, raises
        self._lock = threading.Lock()

    def __call__(self, namespace: str, name: str, uid: str, node_name: str) -> str | None:
        with self._lock:
            self.calls.append((namespace, name, uid, node_name))
        if self.raises is not None:
            raise self.raises
        return self.error


@pytest.fixture
def binder() -> Binder:
    return Binder()


@pytest.fixture
def server(binder):
    with ExtenderServer(trace=Trace(), binder=binder) as s:
        yield s


def client(server: ExtenderServer, name: str = EXT, **config: Any) -> HTTPExtender:
    return HTTPExtender.from_config({"urlPrefix": f"{server.base_url}/{name}", "filterVerb": "filter",
                                     "prioritizeVerb": "prioritize", "bindVerb": "bind", "preemptVerb": "preempt",
                                     "weight": 1, **config})


def scripted(name: str = "p", script: Any = None, **kwargs: Any) -> Pod:
    annotations = {} if script is None else {
        EXTENDER_SCRIPT_ANNOTATION: script if isinstance(script, str) else json.dumps(script)}
    return pod(name, namespace="ns", uid=f"uid-{name}", annotations=annotations, **kwargs)


def nodes(*names: str) -> list[NodeInfo]:
    return [node_info(node(n, labels={"name": n})) for n in names]


def names(infos: list[NodeInfo]) -> list[str]:
    return [i.name for i in infos]


def post(server: ExtenderServer, path: str, body: bytes) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", int(server.base_url.rsplit(":", 1)[1]), timeout=10)
    try:
        conn.request("POST", path, body=body)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def records(server: ExtenderServer) -> list[dict[str, Any]]:
    """The trace without seq and t, which every record has."""
    return [{k: v for k, v in r.items() if k not in ("seq", "t")} for r in server.trace.snapshot()]


# --- lifecycle ---------------------------------------------------------------------------------

def test_start_serves_127_0_0_1_on_an_ephemeral_port_and_stop_is_idempotent():
    s = ExtenderServer()
    with pytest.raises(ConformanceError, match="not running; call start"):
        s.base_url
    before = set(threading.enumerate())
    url = s.start()
    assert url == s.base_url and url.startswith("http://127.0.0.1:") and int(url.rsplit(":", 1)[1]) > 0
    [thread] = [t for t in threading.enumerate() if t not in before and t.name == "extender-server"]
    assert thread.daemon
    with pytest.raises(ConformanceError, match="already serves"):
        s.start()
    s.stop()
    s.stop()
    assert not thread.is_alive()
    with pytest.raises(ExtenderError, match="connection refused"):
        client_at(url).filter(scripted(), nodes("n1"))
    assert s.start().startswith("http://127.0.0.1:")  # restartable
    s.stop()


def client_at(url: str) -> HTTPExtender:
    return HTTPExtender(url_prefix=f"{url}/{EXT}", filter_verb="filter", node_cache_capable=True)


def test_context_manager_stops_the_server():
    with ExtenderServer() as s:
        url = s.base_url
        assert names(client_at(url).filter(scripted(), nodes("n1"))[0]) == ["n1"]
    with pytest.raises(ExtenderError, match="connection refused"):
        client_at(url).filter(scripted(), nodes("n1"))


# --- filter ------------------------------------------------------------------------------------

@pytest.mark.parametrize("cache", [False, True], ids=["Nodes", "NodeNames"])
def test_filter_without_script_passes_every_node(server, cache):
    feasible, failed, unresolvable = client(server, nodeCacheCapable=cache).filter(scripted(), nodes("n1", "n2"))
    assert (names(feasible), failed, unresolvable) == (["n1", "n2"], {}, {})
    assert records(server) == [{"pod": "ns/p", "point": "extender.filter", "extender": EXT, "nodes": ["n1", "n2"],
                                "code": "Success", "failed": {}, "unresolvable": {}}]


@pytest.mark.parametrize("cache", [False, True], ids=["Nodes", "NodeNames"])
def test_filter_script_fails_nodes_of_the_request_only(server, cache):
    script = {EXT: {"filter": {"fail": {"n1": "busy", "n9": "not asked"}, "unresolvable": {"n3": "gone", "n1": "x"}}}}
    feasible, failed, unresolvable = client(server, nodeCacheCapable=cache).filter(
        scripted(script=script), nodes("n1", "n2", "n3"))
    assert (names(feasible), failed, unresolvable) == (["n2"], {"n1": "busy"}, {"n1": "x", "n3": "gone"})
    [record] = records(server)
    assert (record["failed"], record["unresolvable"]) == ({"n1": "busy"}, {"n1": "x", "n3": "gone"})


def test_filter_nodes_form_answers_the_node_objects_it_was_sent(server):
    feasible, _, _ = client(server).filter(scripted(script={EXT: {"filter": {"fail": {"n1": "no"}}}}),
                                           nodes("n1", "n2"))
    [n2] = feasible
    assert n2.node is not None and dict(n2.node.labels) == {"name": "n2"}


def test_filter_answers_in_the_form_it_was_asked(server):
    args = extender_args(scripted(), [node("n1")], True)
    assert json.loads(post(server, f"/{EXT}/filter", marshal(args))[1]) == {
        "Nodes": None, "NodeNames": ["n1"], "FailedNodes": {}, "FailedAndUnresolvableNodes": {}, "Error": ""}
    args = extender_args(scripted(), [node("n1")], False)
    body = json.loads(post(server, f"/{EXT}/filter", marshal(args))[1])
    assert body["NodeNames"] is None and body["Nodes"]["items"] == args["Nodes"]["items"]


def test_filter_error_field(server):
    with pytest.raises(ExtenderError, match="^extender says no$"):
        client(server).filter(scripted(script={EXT: {"filter": {"error": "extender says no"}}}), nodes("n1"))
    [record] = records(server)
    assert (record["code"], record["error"]) == ("Error", "extender says no")


@pytest.mark.parametrize("verb", ["filter", "prioritize", "bind", "preempt"])
@pytest.mark.parametrize("status", [201, 404, 503])
def test_scripted_http_status(server, binder, verb, status):
    p = scripted(script={EXT: {verb: {"status": status}}})
    if verb == "bind":  # a bind request carries no pod, hence no annotation
        server.set_scripts({"ns/p": {EXT: {verb: {"status": status}}}})
    with pytest.raises(ExtenderError) as err:
        call(client(server), verb, p)
    assert str(err.value) == f"failed {verb} with extender at URL {server.base_url}/{EXT}/{verb}, code {status}"
    [record] = records(server)
    assert (record["point"], record["code"], record["status"]) == (f"extender.{verb}", "Error", status)
    assert binder.calls == []


def call(ext: HTTPExtender, verb: str, p: Pod) -> Any:
    if verb == "filter":
        return ext.filter(p, nodes("n1"))
    if verb == "prioritize":
        return ext.prioritize(p, nodes("n1"))
    if verb == "bind":
        return ext.bind(p, "n1")
    snapshot, victims = preemption_cluster()
    return ext.process_preemption(p, victims, snapshot)


# --- prioritize --------------------------------------------------------------------------------

@pytest.mark.parametrize("cache", [False, True], ids=["Nodes", "NodeNames"])
def test_prioritize_scores_request_nodes_default_zero(server, cache):
    script = {EXT: {"prioritize": {"scores": {"n2": 7, "n3": -(2**63), "n9": 5}}}}
    got = client(server, nodeCacheCapable=cache, weight=3).prioritize(scripted(script=script), nodes("n1", "n2", "n3"))
    assert got == ([HostPriority("n1", 0), HostPriority("n2", 7), HostPriority("n3", -(2**63))], 3)
    [record] = records(server)
    assert record["scores"] == {"n1": 0, "n2": 7, "n3": -(2**63)} and record["code"] == "Success"


def test_prioritize_error_is_http_500_with_the_message(server):
    """HostPriorityList has no Error field, so a scripted error can only be an HTTP error."""
    p = scripted(script={EXT: {"prioritize": {"error": "cannot score"}}})
    with pytest.raises(ExtenderError, match="^failed prioritize with extender at URL .*, code 500$"):
        client(server).prioritize(p, nodes("n1"))
    status, body = post(server, f"/{EXT}/prioritize", marshal(extender_args(p, [node("n1")], True)))
    assert (status, body) == (500, b"cannot score\n")
    assert [(r["code"], r["error"], r["status"]) for r in records(server)] == [("Error", "cannot score", 500)] * 2


# --- bind --------------------------------------------------------------------------------------

def test_bind_calls_the_binder_hook(server, binder):
    client(server).bind(scripted(), "n1")
    assert binder.calls == [("ns", "p", "uid-p", "n1")]
    assert records(server) == [{"pod": "ns/p", "point": "extender.bind", "extender": EXT, "nodes": ["n1"],
                                "code": "Success"}]


@pytest.mark.parametrize("hook,message", [
    pytest.param(Binder(error="conflict: already bound"), "conflict: already bound", id="hook error"),
    pytest.param(Binder(raises=KeyError("ns/p")), "binder hook raised KeyError: 'ns/p'", id="hook raises"),
    pytest.param(None, NO_BINDER, id="no hook"),
])
def test_bind_hook_failure_is_the_bind_error(hook, message):
    with ExtenderServer(trace=Trace(), binder=hook) as s:
        with pytest.raises(ExtenderError) as err:
            client(s).bind(scripted(), "n1")
        assert str(err.value) == message
        assert [(r["code"], r["error"]) for r in records(s)] == [("Error", message)]


def test_binder_can_be_set_after_construction(server):
    late = Binder()
    server.binder = late
    client(server).bind(scripted(), "n2")
    assert late.calls == [("ns", "p", "uid-p", "n2")]


def test_bind_script_error_skips_the_hook(server, binder):
    p = scripted(script={EXT: {"bind": {"error": "refused"}}})
    client(server).filter(p, nodes("n1"))  # the bind request has no pod: the server remembers its script
    with pytest.raises(ExtenderError, match="^refused$"):
        client(server).bind(p, "n1")
    assert binder.calls == []


def test_registered_script_wins_over_the_annotation(server, binder):
    ext = client(server)
    p = scripted(script={EXT: {"filter": {"fail": {"n1": "annotation"}}}})
    server.set_scripts({"ns/p": {EXT: {"filter": {"fail": {"n1": "registered"}}, "bind": {"error": "no"}}}})
    assert ext.filter(p, nodes("n1"))[1] == {"n1": "registered"}
    with pytest.raises(ExtenderError, match="^no$"):
        ext.bind(p, "n1")
    server.set_scripts({"ns/p": json.dumps({EXT: {"filter": {"fail": {"n1": "as text"}}}})})
    assert ext.filter(p, nodes("n1"))[1] == {"n1": "as text"}


def test_set_scripts_forgets_remembered_scripts(server, binder):
    ext = client(server)
    ext.filter(scripted(script={EXT: {"bind": {"error": "scenario 1"}}}), nodes("n1"))
    server.set_scripts({})
    ext.bind(scripted(), "n1")  # a new scenario: the old annotation no longer applies
    assert binder.calls == [("ns", "p", "uid-p", "n1")]


def test_set_scripts_rejects_a_bad_script_naming_the_pod(server):
    with pytest.raises(ExtenderScriptError, match=r"^extender script of pod ns/p: ext-0: unknown verb 'bnid'"):
        server.set_scripts({"ns/p": {EXT: {"bnid": {}}}})


# --- preempt -----------------------------------------------------------------------------------

def preemption_cluster() -> tuple[Snapshot, dict[str, tuple[list[Pod], int]]]:
    a, b, c = pod("a", node_name="n1"), pod("b", node_name="n1"), pod("c", node_name="n2")
    return Snapshot([node("n1"), node("n2")], [a, b, c]), {"n2": ([c], 0), "n1": ([a, b], 1)}


@pytest.mark.parametrize("cache", [False, True], ids=["NodeNameToVictims", "NodeNameToMetaVictims"])
def test_preempt_without_script_echoes_the_candidates(server, cache):
    snapshot, victims = preemption_cluster()
    got = client(server, nodeCacheCapable=cache).process_preemption(scripted(), victims, snapshot)
    assert got == {"n1": Victims([pod("a", node_name="n1"), pod("b", node_name="n1")], 1),
                   "n2": Victims([pod("c", node_name="n2")], 0)}
    [record] = records(server)
    assert record["nodes"] == ["n1", "n2"]  # Go sends the map with sorted keys
    assert record["victims"] == ({"n1": ["default/a", "default/b"], "n2": ["default/c"]} if not cache else
                                 {"n1": ["a", "b"], "n2": ["c"]})  # UIDs the server has never seen as pods


@pytest.mark.parametrize("cache", [False, True], ids=["NodeNameToVictims", "NodeNameToMetaVictims"])
def test_preempt_script_narrows_by_pod_key(server, cache):
    snapshot, victims = preemption_cluster()
    server.set_pod_uids({"b": "default/b"})
    script = {EXT: {"preempt": {"victims": {"n1": ["default/b", "default/c"], "n9": ["default/x"]}}}}
    got = client(server, nodeCacheCapable=cache).process_preemption(scripted(script=script), victims, snapshot)
    assert got == {"n1": Victims([pod("b", node_name="n1")], 1)}
    assert records(server)[0]["victims"] == {"n1": ["default/b"]}


def test_preempt_learns_uids_from_whole_pods(server):
    snapshot, victims = preemption_cluster()
    client(server).process_preemption(scripted(), victims, snapshot)
    script = {EXT: {"preempt": {"victims": {"n2": ["default/c"]}}}}
    got = client(server, nodeCacheCapable=True).process_preemption(scripted(script=script), victims, snapshot)
    assert got == {"n2": Victims([pod("c", node_name="n2")], 0)}


def test_set_scripts_forgets_learned_uids_but_not_registered_ones(server):
    snapshot, victims = preemption_cluster()
    server.set_pod_uids({"a": "default/a"})
    client(server).process_preemption(scripted(), victims, snapshot)  # learns b and c from whole pods
    server.set_scripts({})
    client(server, nodeCacheCapable=True).process_preemption(scripted(), victims, snapshot)
    assert [r["victims"] for r in records(server)] == [
        {"n1": ["default/a", "default/b"], "n2": ["default/c"]}, {"n1": ["default/a", "b"], "n2": ["c"]}]


def test_preempt_may_keep_a_node_without_victims(server):
    """The scheduler, not the extender, rejects that ("expected at least one victim pod on node")."""
    snapshot, victims = preemption_cluster()
    script = {EXT: {"preempt": {"victims": {"n2": []}}}}
    assert client(server).process_preemption(scripted(script=script), victims, snapshot) == {"n2": Victims([], 0)}


def test_preempt_script_with_no_nodes_removes_every_candidate(server):
    snapshot, victims = preemption_cluster()
    script = {EXT: {"preempt": {"victims": {}}}}
    assert client(server).process_preemption(scripted(script=script), victims, snapshot) == {}


def test_preempt_error_is_http_500(server):
    snapshot, victims = preemption_cluster()
    p = scripted(script={EXT: {"preempt": {"error": "no preemption today"}}})
    with pytest.raises(ExtenderError, match="code 500$"):
        client(server).process_preemption(p, victims, snapshot)
    assert [(r["error"], r["status"]) for r in records(server)] == [("no preemption today", 500)]


# --- scripts per pod and per extender; the trace -----------------------------------------------

def test_scripts_are_per_pod_and_per_extender(server):
    script = {"ext-0": {"filter": {"fail": {"n1": "zero"}}}, "ext-1": {"filter": {"fail": {"n2": "one"}}}}
    p, q = scripted("p", script=script), scripted("q")
    assert names(client(server, "ext-0").filter(p, nodes("n1", "n2"))[0]) == ["n2"]
    assert names(client(server, "ext-1").filter(p, nodes("n1", "n2"))[0]) == ["n1"]
    assert names(client(server, "ext-2").filter(p, nodes("n1", "n2"))[0]) == ["n1", "n2"]
    assert names(client(server, "ext-0").filter(q, nodes("n1", "n2"))[0]) == ["n1", "n2"]
    assert [(r["extender"], r["pod"], r["failed"]) for r in records(server)] == [
        ("ext-0", "ns/p", {"n1": "zero"}), ("ext-1", "ns/p", {"n2": "one"}), ("ext-2", "ns/p", {}),
        ("ext-0", "ns/q", {})]


def test_trace_records_carry_seq_and_t_and_the_trace_can_be_swapped(server):
    server.trace = Trace(clock=lambda: 1.5)
    client(server).filter(scripted(), nodes("n1"))
    client(server).prioritize(scripted(), nodes("n1"))
    first = server.trace
    server.trace = Trace()
    client(server).bind(scripted(), "n1")
    assert [(r["seq"], r["t"], r["point"]) for r in first.snapshot()] == [
        (0, 1.5, "extender.filter"), (1, 1.5, "extender.prioritize")]
    assert [(r["seq"], r["point"]) for r in server.trace.snapshot()] == [(0, "extender.bind")]


# --- scripts -----------------------------------------------------------------------------------

def test_parse_script_reads_every_field():
    script = parse_script(json.dumps({
        "ext-0": {"filter": {"fail": {"n1": "a"}, "unresolvable": {"n2": "b"}, "error": "e", "status": 503},
                  "prioritize": {"scores": {"n1": -3}}},
        "ext-1": {"bind": {"error": "no"}, "preempt": {"victims": {"n1": ["ns/a"]}}}}))
    f = script["ext-0"]["filter"]
    assert (f.fail, f.unresolvable, f.error, f.status) == ({"n1": "a"}, {"n2": "b"}, "e", 503)
    assert script["ext-0"]["prioritize"].scores == {"n1": -3}
    assert (script["ext-1"]["bind"].error, script["ext-1"]["bind"].status) == ("no", 200)
    assert script["ext-1"]["preempt"].victims == {"n1": ("ns/a",)}
    assert parse_script(None) == parse_script("") == {} and script["ext-1"]["bind"].victims is None


# --- malformed requests ------------------------------------------------------------------------

GOOD_FILTER = marshal(extender_args(scripted(), [node("n1")], True))


@pytest.mark.parametrize("path,body,message", [
    pytest.param("/", GOOD_FILTER, "unknown path '/'; use /<extender>/<verb>", id="root"),
    pytest.param("/ext-0", GOOD_FILTER, "unknown path '/ext-0'", id="no verb"),
    pytest.param("/ext-0/filtre", GOOD_FILTER, "verb one of filter, prioritize, bind, preempt", id="unknown verb"),
    pytest.param("/a/ext-0/filter", GOOD_FILTER, "unknown path '/a/ext-0/filter'", id="deeper path"),
    pytest.param("//filter", GOOD_FILTER, "unknown path '/filter'", id="empty extender name"),  # http.server folds //
    pytest.param("/ext-0/filter/", GOOD_FILTER, "unknown path '/ext-0/filter/'", id="trailing slash"),
    pytest.param("/ext-0/filter", b"", "body is not JSON: Expecting value", id="empty body"),
    pytest.param("/ext-0/filter", b"{\"Pod\": ", "body is not JSON", id="truncated JSON"),
    pytest.param("/ext-0/filter", b"\xff\xfe{}", "body is not UTF-8", id="not UTF-8"),
    pytest.param("/ext-0/filter", b"NaN", "body is not JSON: NaN is not JSON", id="NaN"),
    pytest.param("/ext-0/filter", b"[" * 100_000, "nested too deeply", id="deep nesting"),
    pytest.param("/ext-0/filter", b"[]", "ExtenderArgs: expected a JSON object with Pod, Nodes, NodeNames, got []",
                 id="array"),
    pytest.param("/ext-0/filter", b'{"pod": {}}', "ExtenderArgs: unknown field 'pod'; the Go struct has Pod",
                 id="lowercase key"),
    pytest.param("/ext-0/filter", b'{"Pod": null, "NodeNames": []}', "ExtenderArgs.Pod: expected a Pod object",
                 id="null pod"),
    pytest.param("/ext-0/filter", b'{"Pod": {"metadata": {"name": "p"}}, "NodeNames": null, "Nodes": null}',
                 "set exactly one of Nodes (a NodeList) and NodeNames (nodeCacheCapable), got neither", id="no nodes"),
    pytest.param("/ext-0/filter", b'{"Pod": {"metadata": {"name": "p"}}, "NodeNames": [], "Nodes": {}}',
                 "got both", id="both node forms"),
    pytest.param("/ext-0/prioritize", b'{"Pod": {"metadata": {"name": "p"}}, "NodeNames": "n1"}',
                 "ExtenderArgs.NodeNames: expected a list of node names, got 'n1'", id="names not a list"),
    pytest.param("/ext-0/filter", b'{"Pod": {"metadata": {"name": "p"}}, "Nodes": {"items": [{"metadata": {}}]}}',
                 "ExtenderArgs.Nodes.items[0]: expected a Node object with metadata.name", id="nameless node"),
    pytest.param("/ext-0/filter", b'{"Pod": {"metadata": {"name": "p", "namespace": 3}}, "NodeNames": []}',
                 "ExtenderArgs.Pod.metadata.namespace: expected a string, got 3", id="namespace type"),
    pytest.param("/ext-0/bind", b'{"PodName": "p", "Node": 1}', "ExtenderBindingArgs.Node: expected a string",
                 id="bind node type"),
    pytest.param("/ext-0/bind", b'{"PodName": "p", "PodNamespace": "ns", "PodUID": "u"}',
                 "ExtenderBindingArgs.Node: missing or empty", id="bind without node"),
    pytest.param("/ext-0/preempt", b'{"Pod": {"metadata": {"name": "p"}}, "NodeNameToVictims": {"n1": null}}',
                 "ExtenderPreemptionArgs.NodeNameToVictims['n1']: expected a JSON object", id="null victims"),
    pytest.param("/ext-0/preempt", b'{"Pod": {"metadata": {"name": "p"}}, '
                                   b'"NodeNameToMetaVictims": {"n1": {"Pods": [{"UID": 1}]}}}',
                 "NodeNameToMetaVictims['n1'].Pods[0].UID: expected a string, got 1", id="uid type"),
    pytest.param("/ext-0/preempt", b'{"Pod": {"metadata": {"name": "p"}}, '
                                   b'"NodeNameToMetaVictims": {"n1": {"Pods": [], "NumPDBViolations": 1.0}}}',
                 "NumPDBViolations: expected an integer, got 1.0", id="float count"),
    pytest.param("/ext-0/preempt", b'{"Pod": {"metadata": {"name": "p"}}}', "got neither", id="no victims"),
])
def test_malformed_requests_get_400_with_one_line(server, path, body, message):
    status, reply = post(server, path, body)
    assert status == 400
    text = reply.decode()
    assert message in text and text.endswith("\n") and text.count("\n") == 1
    known_verb = path in {f"/{EXT}/{verb}" for verb in ("filter", "prioritize", "bind", "preempt")}
    assert [(r["point"], r["code"], r["error"], r["status"]) for r in records(server)] == (
        [(path.replace(f"/{EXT}/", "extender."), "Error", text.strip(), 400)] if known_verb else [])


@pytest.mark.parametrize("script,message", [
    pytest.param("{not json", "not JSON: Expecting property name", id="not JSON"),
    pytest.param([], "expected an object of extender -> verb -> action, got a list", id="list"),
    pytest.param({EXT: []}, "ext-0: expected an object of verb -> action, got a list", id="verbs list"),
    pytest.param({EXT: {"Filter": {}}}, "ext-0: unknown verb 'Filter'; verbs: filter, prioritize, bind, preempt",
                 id="verb case"),
    pytest.param({EXT: {"filter": {"scores": {}}}}, "ext-0.filter: unknown field 'scores'; allowed: fail, "
                                                    "unresolvable, error, status", id="field of another verb"),
    pytest.param({EXT: {"filter": {"fail": ["n1"]}}}, "ext-0.filter.fail: expected an object of node -> reason",
                 id="fail list"),
    pytest.param({EXT: {"prioritize": {"scores": {"n1": 1.5}}}}, "ext-0.prioritize.scores: expected an object of "
                                                                 "node -> int64 score", id="float score"),
    pytest.param({EXT: {"prioritize": {"scores": {"n1": 2**63}}}}, "int64 score", id="score beyond int64"),
    pytest.param({EXT: {"bind": {"status": 200}}}, "ext-0.bind.status: 200 is not an HTTP status in 201-599; "
                                                   "leave it out to answer 200", id="status 200"),
    pytest.param({EXT: {"bind": {"status": 100}}}, "100 is not an HTTP status in 201-599", id="status 1xx"),
    pytest.param({EXT: {"bind": {"status": True}}}, "True is not an HTTP status", id="status bool"),
    pytest.param({EXT: {"bind": {"error": 1}}}, "ext-0.bind.error: expected a string, got 1", id="error type"),
    pytest.param({EXT: {"preempt": {"victims": {"n1": "default/a"}}}}, "ext-0.preempt.victims: expected an object "
                                                                       "of node -> list of pod keys", id="victims"),
])
def test_bad_script_annotation_gets_400_naming_it(server, script, message):
    p = scripted(script=script)
    status, reply = post(server, f"/{EXT}/filter", marshal(extender_args(p, [node("n1")], True)))
    assert status == 400
    prefix = f"pod ns/p: invalid annotation {EXTENDER_SCRIPT_ANNOTATION}: "
    assert reply.decode().startswith(prefix) and message in reply.decode()
    [record] = records(server)
    assert (record["pod"], record["code"], record["status"]) == ("ns/p", "Error", 400)
    assert record["error"] == reply.decode().strip()


def test_remembered_bad_script_also_fails_bind(server, binder):
    p = scripted(script={EXT: {"bind": {"eror": "typo"}}})
    assert post(server, f"/{EXT}/filter", marshal(extender_args(p, [node("n1")], True)))[0] == 400
    status, reply = post(server, f"/{EXT}/bind", marshal(binding_args(p, "n1")))
    assert (status, binder.calls) == (400, [])
    assert b"unknown field 'eror'" in reply


def test_body_over_the_limit():
    with ExtenderServer(max_body_bytes=100) as s:
        status, reply = post(s, f"/{EXT}/filter", b" " * 101)
        assert (status, reply) == (400, b"body of 101 bytes is over the limit of 100; raise max_body_bytes\n")
        assert records(s) == [{"pod": "", "point": "extender.filter", "extender": EXT, "code": "Error",
                               "error": reply.decode().strip(), "status": 400}]
        assert post(s, f"/{EXT}/filter", b" " * 100)[1].startswith(b"body is not JSON")  # at the limit: read


@pytest.mark.parametrize("headers,message", [
    pytest.param("Transfer-Encoding: chunked\r\n", "chunked request bodies are not supported", id="chunked"),
    pytest.param("", "Content-Length header missing", id="no length"),
    pytest.param("Content-Length: -5\r\n", "Content-Length '-5' is not a byte count", id="negative length"),
])
def test_body_framing_errors(server, headers, message):
    assert message in raw_exchange(server, f"POST /{EXT}/filter HTTP/1.1\r\nHost: x\r\n{headers}\r\n".encode())


def test_a_client_that_stops_sending_gets_400_after_the_read_timeout():
    with ExtenderServer(read_timeout=0.2) as s:
        reply = raw_exchange(s, f"POST /{EXT}/filter HTTP/1.1\r\nContent-Length: 50\r\n\r\n{{".encode())
        assert "400" in reply.splitlines()[0] and "timed out after 0.2s reading a body of 50 bytes" in reply


def test_a_body_cut_short_gets_400(server):
    reply = raw_exchange(server, f"POST /{EXT}/filter HTTP/1.1\r\nContent-Length: 50\r\n\r\n{{".encode(),
                         shut_write=True)
    assert "body ended after 1 of 50 bytes" in reply


def raw_exchange(server: ExtenderServer, data: bytes, shut_write: bool = False) -> str:
    """Send raw bytes on a fresh connection and read everything the server answers until it closes."""
    with socket.create_connection(("127.0.0.1", int(server.base_url.rsplit(":", 1)[1])), timeout=10) as sock:
        sock.sendall(data)
        if shut_write:
            sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", errors="replace")


@pytest.mark.parametrize("garbage", [b"\x00\xff\x10garbage\r\n\r\n", b"GET\r\n\r\n", b"POST / HTTP/9.9\r\n\r\n",
                                     b"\r\n" * 10, b"x" * 70_000 + b"\r\n\r\n"])
def test_non_http_garbage_does_not_hurt_the_server(server, garbage):
    raw_exchange(server, garbage)
    assert names(client(server, nodeCacheCapable=True).filter(scripted(), nodes("n1"))[0]) == ["n1"]


# --- random input ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shared_server():
    with ExtenderServer(trace=Trace(), binder=Binder()) as s:
        yield s


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20)
verbs = st.sampled_from(["filter", "prioritize", "bind", "preempt"])
VICTIMS = {"n1": Victims([pod("a", node_name="n1"), pod("b", node_name="n1")], 1)}
VALID = [
    ("filter", extender_args(scripted(), [node("n1"), node("n2")], False)),
    ("filter", extender_args(scripted(), [node("n1"), node("n2")], True)),
    ("prioritize", extender_args(scripted(), [node("n1")], False)),
    ("bind", binding_args(scripted(), "n1")),
    ("preempt", preemption_args(scripted(), VICTIMS, False)),
    ("preempt", preemption_args(scripted(), VICTIMS, True)),
]


def json_paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every position in a JSON document, outermost first, as a tuple of keys and indices."""
    inner = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return [path] + [p for key, item in inner for p in json_paths(item, (*path, key))]


@st.composite
def mutated_requests(draw: st.DrawFn) -> tuple[str, bytes]:
    """A valid request with one value, at any depth, replaced by random JSON: near misses go deepest.

    Shrinks towards replacing the whole body, then towards the simplest JSON value.
    """
    verb, valid = draw(st.sampled_from(VALID))
    body = json.loads(json.dumps(valid))
    path = draw(st.sampled_from(json_paths(body)))
    replacement = draw(json_values)
    if not path:
        return verb, json.dumps(replacement).encode()
    parent = body
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = replacement
    return verb, json.dumps(body).encode()


def assert_answers_sanely(server: ExtenderServer, verb: str, body: bytes) -> None:
    status, reply = post(server, f"/{EXT}/{verb}", body)
    assert status in (200, 400), (status, reply)
    if status == 200:
        json.loads(reply)
    else:
        assert reply.endswith(b"\n") and reply.count(b"\n") == 1, reply


@settings(max_examples=100, deadline=None)
@given(verb=verbs, body=st.binary(max_size=300))
def test_random_bytes_get_an_answer(shared_server, verb, body):
    assert_answers_sanely(shared_server, verb, body)


@settings(max_examples=100, deadline=None)
@given(verb=verbs, value=json_values)
def test_random_json_gets_an_answer(shared_server, verb, value):
    assert_answers_sanely(shared_server, verb, json.dumps(value).encode())


@settings(max_examples=100, deadline=None)
@given(request=mutated_requests())
def test_near_miss_requests_get_an_answer(shared_server, request):
    assert_answers_sanely(shared_server, *request)


WRONG_KINDS = [None, 0, 7, -1, 1.5, True, "", "x", [], [1], ["x"], {}, {"a": 1}, [{"metadata": 1}]]


def test_every_position_with_every_kind_of_value():
    """The exhaustive companion of the near-miss test: each value kind at each position of each request.

    It calls `answer` directly: what HTTP adds is tested above, and 1,300 round trips would cost seconds.
    """
    server = ExtenderServer(binder=Binder())
    for verb, valid in VALID:
        for path in json_paths(valid)[1:]:
            for wrong in WRONG_KINDS:
                body = json.loads(json.dumps(valid))
                parent = body
                for key in path[:-1]:
                    parent = parent[key]
                parent[path[-1]] = wrong
                answer = server.answer(EXT, verb, json.dumps(body).encode())
                assert answer.status in (200, 400), (path, wrong, answer)


def test_the_shared_server_still_works_after_random_input(shared_server):
    assert names(client(shared_server, nodeCacheCapable=True).filter(scripted(), nodes("n1"))[0]) == ["n1"]


# --- concurrency -------------------------------------------------------------------------------

def test_many_concurrent_requests_each_get_their_own_pods_answer(server, binder):
    """Every third pod's script refuses the bind, which only the script remembered for that pod knows."""
    count = 200

    def one(i: int) -> tuple[list[HostPriority], str]:
        script = {EXT: {"prioritize": {"scores": {"n1": i}}}}
        if i % 3 == 0:
            script[EXT]["bind"] = {"error": f"refused p{i}"}
        p = scripted(f"p{i}", script=script)
        ext = client(server, nodeCacheCapable=i % 2 == 0)
        scores, _ = ext.prioritize(p, nodes("n0", "n1"))
        try:
            ext.bind(p, f"n{i % 2}")
        except ExtenderError as exc:
            return scores, str(exc)
        return scores, ""

    with ThreadPoolExecutor(max_workers=32) as pool:
        results = list(pool.map(one, range(count)))
    assert results == [([HostPriority("n0", 0), HostPriority("n1", i)], f"refused p{i}" if i % 3 == 0 else "")
                       for i in range(count)]
    assert sorted(binder.calls) == sorted(("ns", f"p{i}", f"uid-p{i}", f"n{i % 2}") for i in range(count) if i % 3)
    trace = server.trace.snapshot()
    assert [r["seq"] for r in trace] == list(range(2 * count))
    assert sorted((r["pod"], r["point"]) for r in trace) == sorted(
        (f"ns/p{i}", f"extender.{v}") for i in range(count) for v in ("prioritize", "bind"))
    assert all(r["scores"]["n1"] == int(r["pod"][4:]) for r in trace if r["point"] == "extender.prioritize")
