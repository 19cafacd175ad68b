"""Which runs count as leftovers, and the HTTP trace collector."""

import json
import urllib.error
import urllib.request

import pytest

from conformance.cluster.cleanup import Found, stale_runs
from conformance.cluster.collector import ARRIVAL, TraceCollector, parse_body

NOW = 1_000_000.0


def _runs(*items, alive=(), host="here"):
    return stale_runs(items, now=NOW, host=host, pid_alive=lambda pid: pid in alive, max_age=3600)


def test_a_run_whose_process_on_this_host_is_gone_is_stale():
    assert _runs(Found("Node", "node-0", "r1", "here:42", NOW - 5)) == {"r1"}
    assert _runs(Found("Node", "node-0", "r1", "here:42", NOW - 5), alive={42}) == set()


def test_another_hosts_recent_run_is_left_alone_but_an_old_one_is_stale():
    assert _runs(Found("Namespace", "a", "r1", "ci-7:42", NOW - 60)) == set()
    assert _runs(Found("Namespace", "a", "r1", "ci-7:42", NOW - 7200)) == {"r1"}


def test_objects_without_an_owner_are_stale_and_runs_are_judged_separately():
    found = [Found("PriorityClass", "p", "r1"), Found("Node", "n", "r2", "here:7", NOW)]
    assert _runs(*found, alive={7}) == {"r1"}


@pytest.fixture
def collector():
    c = TraceCollector()
    c.start()
    yield c
    c.stop()


def _post(url, body: bytes):
    req = urllib.request.Request(url, data=body, method="POST")
    with urllib.request.urlopen(req, timeout=5) as resp:
        return resp.status


def test_collector_takes_records_posted_one_by_one_as_lists_or_lines(collector):
    r = {"seq": 0, "pod": "ns/a", "point": "PreFilter", "plugin": "Probe0", "code": "Success"}
    assert _post(collector.url, json.dumps(r).encode()) == 204
    assert _post(collector.url, json.dumps([{**r, "seq": 1}, {**r, "seq": 2, "pod": "ns/b"}]).encode()) == 204
    assert _post(collector.url, (json.dumps({**r, "seq": 3}) + "\n" + json.dumps({**r, "seq": 4}) + "\n").encode()) == 204
    mine = collector.take({"ns/a"})
    assert [x["seq"] for x in mine] == [0, 1, 3, 4] and all(ARRIVAL in x for x in mine)
    assert collector.take({"ns/a"}) == []
    assert [x["seq"] for x in collector.peek({"ns/b"})] == [2]
    assert collector.last_arrival >= mine[-1][ARRIVAL]


def test_collector_rejects_garbage_and_wrong_paths(collector):
    with pytest.raises(urllib.error.HTTPError) as bad:
        _post(collector.url, b'{"point": "Filter"}')
    assert bad.value.code == 400 and b"'pod' and 'point'" in bad.value.read()
    with pytest.raises(urllib.error.HTTPError) as wrong:
        _post(collector.url.replace("/trace", "/other"), b"{}")
    assert wrong.value.code == 404
    assert collector.rejected == 2 and collector.peek({""}) == []


def test_collector_binds_loopback_only(collector):
    assert collector.url.startswith("http://127.0.0.1:")


def test_parse_body_accepts_empty():
    assert parse_body(b"  ") == []
