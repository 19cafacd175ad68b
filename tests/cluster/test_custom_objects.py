"""customObjects and --crd on the real control plane: CRDs installed for a run and removed after it,
custom objects created per scenario (namespace mapped, run labels) and removed with it."""

from pathlib import Path

import pytest

from conformance.cluster import apply
from conformance.cluster.backend import ClusterBackend
from conformance.cluster.custom import CRDS
from conformance.cluster.kube import Kube
from conformance.core.errors import BackendFailure, BackendUnavailable

from .scenarios import node, pod, scenario

CRD_FILE = Path(__file__).parent / "data" / "test-crds.yaml"
WIDGETS = "/apis/test.sched-conformance.io/v1/widgets"
GADGETS = "/apis/test.sched-conformance.io/v1/gadgets"
NAMES = ("widgets.test.sched-conformance.io", "gadgets.test.sched-conformance.io")


@pytest.fixture(scope="module")
def kube(control_plane):
    k = Kube.connect(str(control_plane.kubeconfig))
    yield k
    k.close()


def _custom(size=1):
    return scenario(nodes=[node("node-0")], workload=[pod("pod-0", namespace="team")],
                    customObjects=[{"apiVersion": "test.sched-conformance.io/v1", "kind": "Widget",
                                    "metadata": {"name": "w", "namespace": "team"}, "spec": {"size": size}},
                                   {"apiVersion": "test.sched-conformance.io/v1", "kind": "Gadget",
                                    "metadata": {"name": "g"}, "spec": {"anything": [1, 2]}}])


def test_crds_are_installed_for_the_run_and_objects_live_with_their_scenario(control_plane, kube, monkeypatch):
    seen = {}
    create = apply.create_workload

    def create_workload(k, plan):
        seen["widgets"] = k.list(WIDGETS)[0]
        seen["gadgets"] = k.list(GADGETS)[0]
        create(k, plan)
    monkeypatch.setattr(apply, "create_workload", create_workload)
    backend = ClusterBackend(control_plane=control_plane, crds=(CRD_FILE,))
    try:
        assert backend.custom.installed == list(NAMES) and "custom-objects" in backend.capabilities
        out = backend.run(_custom())
        assert out.pods["team/pod-0"].phase == "bound"
        [widget], [gadget] = seen["widgets"], seen["gadgets"]
        # The widget is in the scenario's own namespace for "team", both carry the run's labels.
        assert widget["metadata"]["namespace"].startswith(f"scc-{backend.run_id}-1-")
        assert widget["metadata"]["namespace"].endswith("team") and widget["spec"] == {"size": 1}
        assert gadget["metadata"]["labels"]["sched-conformance.io/run"] == backend.run_id
        assert "namespace" not in gadget["metadata"]
        assert kube.list(WIDGETS)[0] == [] and kube.list(GADGETS)[0] == [], "gone with the scenario"
        backend.run(_custom(2))  # the same names again: nothing was left by the first scenario
    finally:
        backend.close()
    assert [kube.get(f"{CRDS}/{name}") for name in NAMES] == [None, None], "the run's CRDs are removed"


def test_a_crd_that_was_there_is_left_alone(control_plane, kube):
    first = ClusterBackend(control_plane=control_plane, crds=(CRD_FILE,))
    try:
        second = ClusterBackend(control_plane=control_plane, crds=(CRD_FILE,))
        assert second.custom.installed == [] and any("already there" in n for n in second.notes)
        second.close()
        assert all(kube.get(f"{CRDS}/{name}") is not None for name in NAMES)
    finally:
        first.close()


def test_a_kind_the_api_server_does_not_serve_names_the_fix(control_plane):
    backend = ClusterBackend(control_plane=control_plane)
    try:
        with pytest.raises(BackendFailure, match=r"does not serve Widget in test.sched-conformance.io/v1; "
                                                 r"install its CustomResourceDefinition with --crd FILE"):
            backend.run(_custom())
    finally:
        backend.close()


def test_a_crd_file_that_is_not_crds_is_refused_before_anything_starts(control_plane, tmp_path):
    bad = tmp_path / "crd.yaml"
    bad.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    with pytest.raises(BackendUnavailable, match=r"document 1 is a ConfigMap, not a CustomResourceDefinition"):
        ClusterBackend(control_plane=control_plane, crds=(bad,))


def test_the_runners_layout_against_the_api_server_matches_an_empty_scenarios_plugins(control_plane):
    # The layout request builds the frameworks with Handle.KubeConfig() at the control plane, for plugins
    # that start their own clients (Coscheduling); it must report what an in-process scenario reports.
    from conformance.backends.upstream import UpstreamBackend
    from reference.scenario import Scenario
    try:
        runner = UpstreamBackend(observe=())
    except BackendUnavailable as exc:
        pytest.skip(str(exc))
    config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
              "profiles": [{"schedulerName": "default-scheduler",
                            "plugins": {"multiPoint": {"enabled": [{"name": "Probe0"}]}}}]}
    try:
        laid_out = runner.layout(config, str(control_plane.kubeconfig))
        assert laid_out == dict(runner.run(Scenario(config=config)).plugins)
        assert any(p["name"] == "Probe0" for p in laid_out["default-scheduler"]["filter"]["enabled"])
        with pytest.raises(BackendFailure, match="does not exist"):
            runner.layout({**config, "profiles": [{"schedulerName": "x", "plugins": {
                "filter": {"enabled": [{"name": "NoSuchPlugin"}]}}}]}, str(control_plane.kubeconfig))
    finally:
        runner.close()
