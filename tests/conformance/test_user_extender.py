"""The user's running extender in the scenarios (`--extender URL`): every exchange is checked against the
wire contract; a broken, garbage-answering or dead extender is a violation showing the exchange, and
its reproducer replays through the proxy again."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conformance.extender.contract import Exchange, check
from conformance.builds.own_scheduler import OwnSchedulerError, resolve

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[2]
NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-0"},
        "status": {"allocatable": {"cpu": "1"}, "capacity": {"cpu": "1"}}}
POD = {"metadata": {"name": "pod-0", "namespace": "default", "uid": "u0"}, "spec": {"containers": []}}


def nodes_request(*names: str) -> bytes:
    items = [{**NODE, "metadata": {"name": n}} for n in names]
    return json.dumps({"Pod": POD, "Nodes": {"items": items}}).encode()


def exchange(kind: str, request: bytes, response: object, status: int | None = 200) -> Exchange:
    body = response if isinstance(response, bytes) else json.dumps(response).encode()
    return Exchange("http://127.0.0.1:1/x", kind, kind, request, status=status, response=body,
                    error="" if status else "connection refused")


@pytest.mark.parametrize("kind, request_body, response, problem", [
    ("filter", nodes_request("node-0", "node-1"), {"NodeNames": ["node-0", "node-7"]},
     "names nodes it was not given: node-7"),
    ("filter", nodes_request("node-0"), {"NodeNames": ["node-0"], "FailedNodes": {"node-0": "no"}},
     "FailedNodes also lists passing nodes: node-0"),
    ("prioritize", nodes_request("node-0"), [{"Host": "node-0", "Score": 11}], "score 11 for node-0 is outside [0, 10]"),
    ("prioritize", nodes_request("node-0"), b"<html>oops</html>", "is not a v1.HostPriorityList"),
    ("bind", b'{"PodName": "p", "Node": "n"}', {"Error": 3}, "is not a v1.ExtenderBindingResult"),
    ("filter", nodes_request("node-0"), b"", "HTTP 500", ),
    ("filter", nodes_request("node-0"), b"", "no answer: connection refused"),
])
def test_a_broken_answer_is_named(kind, request_body, response, problem):
    status = 500 if problem == "HTTP 500" else None if problem.startswith("no answer") else 200
    problems = check(exchange(kind, request_body, response, status))
    assert any(problem in p for p in problems), problems


@pytest.mark.parametrize("kind, request_body, response", [
    ("filter", nodes_request("node-0", "node-1"), {"NodeNames": ["node-0"], "FailedNodes": {"node-1": "full"}}),
    ("filter", nodes_request("node-0"), {"Error": "busy"}),
    ("prioritize", nodes_request("node-0"), [{"Host": "node-0", "Score": 10}]),
    ("bind", b'{"PodName": "p", "Node": "n"}', {"Error": ""}),
])
def test_a_good_answer_passes(kind, request_body, response):
    assert check(exchange(kind, request_body, response)) == []


def test_an_extender_that_is_not_an_http_url_is_one_line():
    with pytest.raises(OwnSchedulerError, match=r"^--extender 'localhost:80': give the extender's http:// URL"):
        resolve(extenders=["localhost:80"])


class Extender:
    """A running extender: `good` keeps the contract, `extra-node` adds a node it was not given, `fail`
    answers 500."""

    def __init__(self, mode: str, port: int = 0) -> None:
        mode_ = mode

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                args = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                items = (args.get("Nodes") or {}).get("items") or []
                if mode_ == "fail":
                    self.send_response(500)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if self.path.endswith("/filter"):
                    if mode_ == "extra-node" and items:
                        extra = copy.deepcopy(items[0])
                        extra["metadata"]["name"] = "node-not-given"
                        items = items + [extra]
                    answer = {"Nodes": {"items": items}, "FailedNodes": {}, "Error": ""}
                else:
                    answer = [{"Host": i["metadata"]["name"], "Score": 5} for i in items]
                body = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/scheduler"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def suite(pytester, monkeypatch, url: str):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    return pytester.runpytest_subprocess(
        "--pyargs", "conformance.suite", "-p", "no:cacheprovider", "--conformance-backend", "reference",
        "--conformance-extender", url,
        "--conformance-invariant", "extender-wire-contract", "-k", "invariant", "--conformance-profile", "ci",
        "--conformance-max-examples", "20", "--conformance-strict-coverage",
        "--conformance-reproducers", str(pytester.path / "repro"))


def test_a_contract_keeping_extender_passes(pytester, monkeypatch):
    extender = Extender("good")
    try:
        result = suite(pytester, monkeypatch, extender.url)
    finally:
        extender.close()
    result.assert_outcomes(passed=1)


def test_a_contract_breaking_extender_is_a_violation_whose_reproducer_replays(pytester, monkeypatch):
    extender = Extender("extra-node")
    try:
        result = suite(pytester, monkeypatch, extender.url)
        result.assert_outcomes(failed=1)
        text = result.stdout.str()
        assert f"[extender-wire-contract] extender {extender.url} filter: the filter result names nodes it was " \
               "not given: node-not-given" in text
        assert "request:  {" in text and "response: HTTP 200 {" in text
        reproducer = pytester.path / "repro" / "extender-wire-contract"
        meta = json.loads((reproducer / "meta.json").read_text())
        assert meta["userExtenders"][0]["urlPrefix"] == extender.url
        replay = subprocess.run([sys.executable, "-c", "import sys; from conformance.cli import main; "
                                 "sys.exit(main())", "reproduce", str(reproducer)],
                                cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert replay.returncode == 1, replay.stdout + replay.stderr
        assert "REPRODUCED on reference" in replay.stdout and "node-not-given" in replay.stdout
    finally:
        extender.close()


def test_a_dead_extender_is_a_violation_not_a_hang(pytester, monkeypatch):
    extender = Extender("good")
    url = extender.url
    extender.close()  # nothing listens there any more
    result = suite(pytester, monkeypatch, url)
    result.assert_outcomes(failed=1)
    assert "no answer:" in result.stdout.str()


# --- user-extender-ignorable-honoured, on hand-made outcomes ----------------------------------------

def _run_with(exchange_fields: dict, message: str):
    from conformance.invariants import Run
    from conformance.core.outcome import Outcome, PodOutcome
    from reference.scenario import Scenario
    scenario = Scenario.from_dict({"workload": [{"apiVersion": "v1", "kind": "Pod", "metadata": {
        "name": "pod-0", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "x"}]}}]})
    exchange = {"extender": "http://127.0.0.1:9/ext", "verb": "filter", "kind": "filter", "pod": "default/pod-0",
                "request": "{}", "status": 500, "response": "", "error": "", "seconds": 0.0, "problems": [],
                "path": "/0/filter", "ignorable": True, **exchange_fields}
    condition = {"type": "PodScheduled", "status": "False", "reason": "SchedulerError", "message": message} \
        if message else {}
    phase = "error" if message else "bound"
    outcome = Outcome("upstream", "v1.37.1", {"default/pod-0": PodOutcome(phase, "" if message else "node-0",
                                                                         condition=condition)},
                      exchanges=(exchange,))
    return Run(scenario, outcome, frozenset({"extender-exchanges"}))


UPSTREAM_500 = "failed filter with extender at URL http://127.0.0.1:4242/0/filter, code 500"


def test_an_ignorable_extenders_error_that_fails_the_pod_is_caught():
    from conformance.invariants import REGISTRY, Violation
    inv = REGISTRY["user-extender-ignorable-honoured"]
    with pytest.raises(Violation, match=r"extender http://127.0.0.1:9/ext filter failed \(ignorable: to be skipped\)"):
        inv.check(_run_with({}, UPSTREAM_500))
    with pytest.raises(Violation, match="boom"):  # an Error field in a 200 answer
        inv.check(_run_with({"status": 200, "response": '{"Error": "boom"}'}, "boom"))
    with pytest.raises(Violation, match=r"\(prioritize: to be skipped\)"):  # prioritize errors never count
        inv.check(_run_with({"kind": "prioritize", "verb": "prioritize", "path": "/0/prioritize",
                             "ignorable": False}, UPSTREAM_500.replace("filter", "prioritize")))


def test_skipping_the_error_holds_and_counts_and_a_non_ignorable_error_may_fail():
    from conformance.invariants import REGISTRY, Run
    inv = REGISTRY["user-extender-ignorable-honoured"]
    run = _run_with({}, "")  # the pod was bound despite the error: upstream skipped the extender
    inv.check(run)
    assert run.exercised
    refused = _run_with({"ignorable": False}, UPSTREAM_500)
    inv.check(refused)
    assert not refused.exercised


def test_an_ignorable_failing_extender_is_skipped_by_the_scheduler(pytester, monkeypatch, tmp_path):
    # The reference skips an ignorable extender's errors as upstream does: the rule is exercised and holds.
    extender = Extender("fail")
    config = tmp_path / "config.yaml"
    config.write_text(json.dumps({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                                  "extenders": [{"urlPrefix": extender.url, "filterVerb": "filter",
                                                 "prioritizeVerb": "prioritize", "weight": 1, "ignorable": True}]}))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    try:
        result = pytester.runpytest_subprocess(
            "--pyargs", "conformance.suite", "-p", "no:cacheprovider", "--conformance-backend", "reference",
            "--conformance-scheduler-config", str(config),
            "--conformance-invariant", "user-extender-ignorable-honoured", "-k", "invariant",
            "--conformance-max-examples", "10", "--conformance-strict-coverage")
    finally:
        extender.close()
    result.assert_outcomes(passed=1)
    assert re.search(r"user-extender-ignorable-honoured: exercised in [1-9]\d*/10 examples", result.stdout.str())
