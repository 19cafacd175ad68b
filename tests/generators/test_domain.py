"""The user's vocabulary (generators.Domain): validated like the API server validates, drawn onto valid
objects, every entry reached, and shrunk away when a counterexample does not need it."""

from __future__ import annotations

import pytest
from hypothesis import find, given

from generators import Domain, DomainError, scenarios, with_domain

from .support import FAST, sample
from .test_validity import assert_valid

DOMAIN = Domain.from_mapping({"labels": {"example.com/tier": ["gold", "silver"], "example.com/slot": []},
                              "annotations": {"example.com/budget": ["10"]},
                              "taints": {"example.com/fpga-only": ["yes"]},
                              "resources": ["example.com/fpga"]})


@pytest.mark.parametrize("table, named", [
    ({"labels": {"bad key!": []}}, "domain.labels: key 'bad key!' is not a valid label key"),
    ({"labels": {"a/b/c": []}}, "domain.labels: key 'a/b/c' is not a valid label key"),
    ({"labels": {"tier": ["-gold"]}}, "domain.labels.'tier': value '-gold' is not a valid label value"),
    ({"labels": {"tier": "gold"}}, "domain.labels.'tier': expected a list of strings"),
    ({"taints": {"example.com/x": ["a b"]}}, "domain.taints.'example.com/x': value 'a b'"),
    ({"annotations": {"sched-conformance.io/probe-script": []}}, "is the suite's own"),
    ({"resources": ["cpu"]}, "domain.resources: 'cpu' is not an extended resource name"),
    ({"resources": ["kubernetes.io/fpga"]}, "'kubernetes.io/fpga' is not an extended resource name"),
    ({"resources": "example.com/fpga"}, "domain.resources: expected a list"),
    ({"nodes": {}}, "domain.nodes: unknown; use labels, annotations, taints, resources"),
    (["labels"], "domain: expected a table"),
])
def test_a_bad_entry_is_named_with_the_rule_it_breaks(table, named):
    with pytest.raises(DomainError) as caught:
        Domain.from_mapping(table)
    assert named in str(caught.value) and "\n" not in str(caught.value)


def test_what_a_source_scan_found_is_kept_only_where_valid():
    found = Domain.from_mapping({"labels": {"example.com/tier": ["gold", "not valid"], "bad key!": ["x"]},
                                 "resources": ["example.com/fpga", "cpu"], "sources": {}}, strict=False)
    assert found == Domain({"example.com/tier": ("gold",)}, resources=("example.com/fpga",))


def test_domains_merge_by_union():
    a = Domain({"k": ("1",)}, resources=("example.com/a",))
    b = Domain({"k": ("2",), "j": ()}, taints={"t": ()}, resources=("example.com/a", "example.com/b"))
    assert a.merged(b) == Domain({"j": (), "k": ("1", "2")}, taints={"t": ()},
                                 resources=("example.com/a", "example.com/b"))


def test_without_a_domain_the_scenarios_are_drawn_as_before():
    strategy = scenarios()
    assert with_domain(strategy, Domain()) is strategy


@FAST
@given(with_domain(scenarios(), DOMAIN))
def test_decorated_objects_are_valid(scenario):
    for manifest in (*scenario.nodes, *scenario.pods, *scenario.workload):
        assert_valid(manifest)


def test_every_entry_of_the_domain_is_drawn():
    seen: set[str] = set()
    for scenario in sample(with_domain(scenarios(), DOMAIN), 60):
        for node in scenario.nodes:
            seen |= {f"label {k}={v}" for k, v in node["metadata"].get("labels", {}).items()}
            seen |= {f"taint {t['key']}" for t in node.get("spec", {}).get("taints", ())}
            seen |= {f"resource {r}" for r in node["status"]["allocatable"]}
        for pod in scenario.workload:
            seen |= {f"annotation {k}={v}" for k, v in pod["metadata"].get("annotations", {}).items()}
            seen |= {f"toleration {t.get('key')}" for t in pod["spec"].get("tolerations", ())}
            seen |= {f"request {r}" for c in pod["spec"]["containers"]
                     for r in (c.get("resources") or {}).get("requests", {})}
    wanted = {"label example.com/tier=gold", "label example.com/tier=silver", "label example.com/slot=a",
              "label example.com/slot=1", "annotation example.com/budget=10", "taint example.com/fpga-only",
              "toleration example.com/fpga-only", "resource example.com/fpga", "request example.com/fpga"}
    assert wanted <= seen, sorted(wanted - seen)


def test_decorations_shrink_to_the_one_a_counterexample_needs():
    def gold(scenario) -> bool:
        return any(n["metadata"]["labels"].get("example.com/tier") == "gold" for n in scenario.nodes)
    smallest = find(with_domain(scenarios(), DOMAIN), gold, settings=FAST)
    assert len(smallest.nodes) == 1 and len(smallest.workload) == 1
    assert smallest.workload[0] == smallest.workload[0] | {"metadata": {"name": "pod-0", "namespace": "default"}}
    node = smallest.nodes[0]
    assert {k for k in node["metadata"]["labels"] if k.startswith("example.com/")} == {"example.com/tier"}
    assert "example.com/fpga" not in node["status"]["allocatable"] and not node.get("spec", {}).get("taints")
