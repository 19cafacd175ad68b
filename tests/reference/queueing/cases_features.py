"""queue.go's CoreResourceEnqueueTestCases (v1.37.2) for NodeDeclaredFeatures, in upstream's order and
words. As upstream, they run with a mock node feature (ndftesting.NewMockFeature): FeatureA, which a pod
needs when its first toleration has tolerationSeconds > 0; no pod field of v1.37.2's own features is
modelled by the reference (reference/plugins/node_declared_features.py)."""

from __future__ import annotations

from reference.plugins.node_declared_features import Feature
from reference.types import Pod, Toleration
from tests.reference.queueing.harness import case
from tests.reference.queueing.st import make_node as N, make_pod as P


def _needs_feature_a(pod: Pod) -> bool:
    seconds = pod.tolerations[0].toleration_seconds if pod.tolerations else None
    return seconds is not None and seconds > 0


FEATURE_A = Feature("FeatureA", _needs_feature_a)


def tolerating(seconds: int) -> list[Toleration]:
    """`[]v1.Toleration{{Key: "featureA", Effect: NoExecute, TolerationSeconds: &seconds}}`."""
    return [Toleration(key="featureA", effect="NoExecute", toleration_seconds=seconds)]


def _features_case(name: str, trigger, want: set[str]):
    """One node "node-1" declaring nothing, pod1 needing FeatureA: rejected by NodeDeclaredFeatures."""
    return case(name, plugins=["NodeDeclaredFeatures"], features=[FEATURE_A],
                nodes=[N().name("node-1").obj()],
                pods=[P().name("pod1").container("pause").tolerations(tolerating(200)).obj()],
                trigger=trigger, want=want)


CASES = [
    _features_case("pod becomes schedulable after node update with required feature",
                   lambda c: c.update_node_status(N().name("node-1").declared_features("FeatureA").obj()),
                   want={"pod1"}),
    _features_case("pod remains unschedulable after node update that does not update declared features",
                   lambda c: c.update_node(N().name("node-1").label("foo", "bar").obj()),
                   want=set()),
    _features_case("pod becomes schedulable after pod update that removes feature requirement",
                   lambda c: c.update_pod(P().name("pod1").container("pause")
                                          .tolerations(tolerating(0)).obj()),
                   want={"pod1"}),
    _features_case("pod remains unschedulable after pod update that does not remove feature requirement",
                   lambda c: c.update_pod(P().name("pod1").label("foo", "bar").container("pause")
                                          .tolerations(tolerating(200)).obj()),
                   want=set()),
]
