"""The plugin driver on the releases besides the pin: `K8S_VERSION=1.34.3 harness/build.sh --no-scheduler
--driver` (and 1.35.4, 1.36.4) builds it with the release's tag (harness/fwk, harness/driver/compat*.go); the
in-tree plugins keep their contracts there and a broken plugin built as a user's scheduler is caught.

A driver build of another release is seconds with the GOCACHE warm for it but a cold build of several minutes
on a fresh machine (the user's build adds the runner and kube-scheduler), so these run only with
SCHED_CONFORMANCE_OTHER_RELEASES=1 and Go; otherwise they are skipped.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from conformance.contracts import REGISTRY, ContractViolation, find_violation
from conformance.contracts.calls import snapshot
from conformance.contracts.driver import PluginDriver
from conformance.contracts.session import ContractSession
from conformance.builds.own_scheduler import resolve

from .conftest import BROKEN_OWN, needs_go
from conformance.contracts.inputs import PluginInput, WithEvents

from .test_in_tree import _node, assert_keeps_contracts, finding_inputs
from .test_target_updates import RESOURCES, _pod, _target

HARNESS = Path(__file__).resolve().parents[2] / "harness"
RELEASES = ("1.34.3", "1.35.4", "1.36.4")
pytestmark = [
    needs_go,
    pytest.mark.skipif(os.environ.get("SCHED_CONFORMANCE_OTHER_RELEASES") != "1",
                       reason="cold-builds other Kubernetes releases (minutes each); set "
                              "SCHED_CONFORMANCE_OTHER_RELEASES=1 to run"),
]


@pytest.fixture(scope="module", params=RELEASES)
def release(request) -> Iterator[tuple[str, Path]]:
    version = request.param
    proc = subprocess.run([str(HARNESS / "build.sh"), "--no-scheduler", "--driver"],
                          env={**os.environ, "K8S_VERSION": version}, capture_output=True, text=True)
    assert proc.returncode == 0, f"K8S_VERSION={version} harness/build.sh --driver failed:\n{proc.stderr[-4000:]}"
    yield version, HARNESS / "bin" / f"v{version}" / "driver"


@pytest.mark.parametrize("plugin", ("PrioritySort", "NodeResourcesFit", "InterPodAffinity", "DefaultPreemption",
                                    "VolumeBinding", "DefaultBinder"))
def test_the_in_tree_plugin_keeps_its_contracts(release, plugin):
    version, binary = release
    driver = PluginDriver(binary, config=None, plugin=plugin).start()
    try:
        assert driver.info["kubernetesVersion"] == f"v{version}"
        assert_keeps_contracts(driver, plugin, f" on v{version}")
    finally:
        driver.close()


def test_the_interpodaffinity_finding_and_the_upstream_fix_before_it(release):
    """The node-add side of kubernetes/kubernetes#134393 is lost on every release; its pod-delete side, fixed by
    #135325 in v1.36, is caught on v1.34 and v1.35: the property finds the bug upstream fixed by hand."""
    version, binary = release
    driver = PluginDriver(binary, config=None, plugin="InterPodAffinity").start()
    try:
        before, added, deleted = finding_inputs()
        prop = REGISTRY["queueing-hint-no-lost-wakeup"]
        with pytest.raises(ContractViolation, match=r"node node-1 add.*accept it on node-1"):
            prop.check(driver, WithEvents(before, (added,)))
        if version.startswith(("1.34.", "1.35.")):
            with pytest.raises(ContractViolation, match=r"pod running-0 delete.*AssignedPodDelete.*accept it on node-0"):
                prop.check(driver, WithEvents(before, (deleted,)))
        else:
            assert prop.check(driver, WithEvents(before, (deleted,)))
    finally:
        driver.close()


def test_the_pods_own_update_is_an_unscheduled_pods_update_before_v1_37(release):
    """Before v1.37 PriorityQueue.Update derived the pod's own update as any pod's (PodSchedulingPropertiesChange
    without isTargetPod): the resource is UnschedulablePod, which NodeResourcesFit's Pod registration matches, and
    its hint queues the pod's own scale-down (isSchedulableAfterPodScaleDown: the same UID)."""
    version, binary = release
    driver = PluginDriver(binary, config=None, plugin="NodeResourcesFit").start()
    try:
        old = _pod(containers=[{"name": "c0", "image": "i", "resources": RESOURCES}])
        new = _pod(containers=[{"name": "c0", "image": "i", "resources": {"requests": {"cpu": "1"}}}])
        calls = [snapshot(PluginInput((_node("node-0"),), (), old)),
                 {"point": "hint", "pod": new, "event": _target(old, new)}]
        assert driver.run(calls)[1]["hint"] == {"events": ["UnschedulablePodUpdatePodScaleDown"],
                                                "registered": ["Pod/Delete|UpdatePodScaleDown"], "queue": True}
    finally:
        driver.close()


@pytest.fixture(scope="module")
def broken_older() -> Iterator[ContractSession]:
    """The broken plugins built as a user's scheduler on v1.35 (before v1.35 the plugin interfaces were in
    k8s.io/kubernetes, which the module does not require; sort_until136.go is its v1.35/v1.36 Less)."""
    session = ContractSession(resolve(own_file=str(BROKEN_OWN), k8s_version="1.35.4"))
    yield session
    session.close()


@pytest.mark.parametrize("plugin, property_id", [("BrokenSort", "queuesort-strict-weak-order"),
                                                 ("BrokenZoneOnly", "queueing-hint-no-lost-wakeup"),
                                                 ("BrokenFit", "queueing-hint-no-lost-wakeup"),
                                                 ("BrokenOnePerNode", "prefilter-extensions-consistent")])
def test_a_broken_plugin_is_caught_on_an_older_release(broken_older, plugin, property_id):
    driver = broken_older.driver(plugin)
    assert driver.info["kubernetesVersion"] == "v1.35.4"
    failure = find_violation(driver, REGISTRY[property_id], profile="ci", max_examples=100, shrink_seconds=5)
    assert failure is not None and failure.violation.property_id == property_id
