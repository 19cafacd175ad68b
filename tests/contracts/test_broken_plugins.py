"""Every contract property catches its deliberately broken plugin (tests/contracts/brokenplugins), built as a
user's scheduler the project has never seen (--own-scheduler, a local Go module), with a shrunk input."""

from __future__ import annotations

import os

import pytest

from conformance.contracts import REGISTRY, find_violation

from .conftest import needs_go

pytestmark = needs_go

# plugin -> the property that must catch it
BROKEN = {
    "BrokenSort": "queuesort-strict-weak-order",
    "BrokenOnePerNode": "prefilter-extensions-consistent",
    "BrokenFlaky": "plugin-deterministic",
    "BrokenToucher": "plugin-no-input-mutation",
    "BrokenOverscore": "score-normalized-range",
    "BrokenLeaky": "reserve-unreserve-restores",
    "BrokenDoubleRelease": "unreserve-idempotent",
    "BrokenZoneOnly": "queueing-hint-no-lost-wakeup",
    "BrokenFit": "queueing-hint-no-lost-wakeup",  # by the pod lowering its own requests (pods/resize)
    "BrokenPanicky": "plugin-no-panic",
    "BrokenRacy": "plugin-race-free",
    "BrokenGate": "plugin-no-input-mutation",       # at PreEnqueue
    "BrokenPreempt": "plugin-no-panic",             # at PostFilter
    "BrokenPermit": "permit-result-legal",
    "BrokenPreBind": "plugin-deterministic",        # at PreBind
    "BrokenBinder": "bind-success-binds",
    "BrokenPostBind": "plugin-no-input-mutation",   # at PostBind
    "BrokenUnresolvable": "prefilter-extensions-consistent",  # by the code alone: it rejects the same nodes
    "BrokenBindingLeak": "failed-binding-restores",  # leaks what PreBind committed when the binding fails
}
# the new points' plugins: the point the violation must name
AT = {"BrokenGate": "preEnqueue", "BrokenPreempt": "postFilter", "BrokenPreBind": "preBind",
      "BrokenPostBind": "postBind", "BrokenUnresolvable": "UnschedulableAndUnresolvable",
      "BrokenFit": "pod-0 update (target): cluster events", "BrokenBindingLeak": "Bind failing,"}
RACE_ENV = "SCHED_CONFORMANCE_RACE"


def test_every_property_has_a_broken_plugin():
    assert set(BROKEN.values()) == set(REGISTRY)


@pytest.mark.parametrize("plugin", sorted(BROKEN))
def test_the_broken_plugin_is_caught_by_its_property(broken, plugin):
    prop = REGISTRY[BROKEN[plugin]]
    if prop.race and not os.environ.get(RACE_ENV):
        pytest.skip(f"the -race driver is a cold build of several minutes; set {RACE_ENV}=1 to run it")
    driver = broken.driver(plugin, race=prop.race)
    failure = find_violation(driver, prop, profile="ci", max_examples=100, shrink_seconds=5)
    assert failure is not None, f"{prop.id} let {plugin} through"
    assert failure.violation.property_id == prop.id
    assert failure.violation.calls, "the violation carries the call sequence that shows it"
    if plugin in AT:  # caught at the extension point the plugin breaks, not elsewhere in the cycle
        assert f"{AT[plugin]} " in failure.violation.message, failure.violation.message


def test_a_correct_reserve_plugin_passes_what_its_twin_fails(broken):
    """BrokenDoubleRelease restores after one Reserve/Unreserve: only unreserve-idempotent may catch it."""
    driver = broken.driver("BrokenDoubleRelease")
    assert find_violation(driver, REGISTRY["reserve-unreserve-restores"], profile="ci", max_examples=50) is None


def test_a_leak_only_a_failed_binding_shows_passes_reserve_then_unreserve(broken):
    """BrokenBindingLeak frees an uncommitted hold in Unreserve: only a binding cycle that ran its PreBind
    before failing leaks, which reserve-unreserve-restores never runs."""
    driver = broken.driver("BrokenBindingLeak")
    for prop in ("reserve-unreserve-restores", "unreserve-idempotent", "plugin-deterministic"):
        assert find_violation(driver, REGISTRY[prop], profile="ci", max_examples=50) is None, prop


def test_only_the_mutation_property_pays_for_the_digests(broken, tmp_path):
    """Without `watch` the driver digests nothing and reports no mutation; a reproducer records the choice, so
    that its replay answers as the failing run did."""
    from conformance.contracts import reproducer
    from conformance.contracts.calls import cycle
    from conformance.contracts.inputs import PluginInput

    driver = broken.driver("BrokenToucher")
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-0"},
            "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-0", "namespace": "default"},
           "spec": {"containers": [{"name": "c", "image": "i"}]}}
    calls = cycle(driver.points, PluginInput((node,), (), pod), pod)
    assert any(r.get("mutated") for r in driver.run(calls))
    with driver.watching(False):
        assert not any(r.get("mutated") for r in driver.run(calls))
    assert driver.watch
    failure = find_violation(driver, REGISTRY["plugin-deterministic"], profile="ci", max_examples=20)
    assert failure is None, "BrokenToucher answers the same twice; only the mutation property may catch it"
    failure = find_violation(driver, REGISTRY["plugin-no-input-mutation"], profile="ci", max_examples=100,
                             shrink_seconds=2)
    recorded = reproducer.write(tmp_path / "r", failure, config=None, race=False)
    assert '"watch": true' in (recorded / reproducer.CALLS).read_text()
