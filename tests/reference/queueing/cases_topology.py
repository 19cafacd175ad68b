"""queue.go's CoreResourceEnqueueTestCases (v1.37.2) for InterPodAffinity and PodTopologySpread, in
upstream's order and words."""

from __future__ import annotations

from tests.reference.queueing.harness import case
from tests.reference.queueing.st import (DO_NOT_SCHEDULE, REQUIRED, TAINT_NODE_NOT_READY, exists, make_node as N,
                                         make_pod as P, taint)

CPU = "cpu"


def spread(pod, key: str, label: str, min_domains: int | None = None):
    """`.SpreadConstraint(1, key, DoNotSchedule, MakeLabelSelector().Exists(label), min_domains, nil, nil, nil)`."""
    return pod.spread_constraint(1, key, DO_NOT_SCHEDULE, exists(label), min_domains, None, None, None)


def _spread_case(name: str, trigger, pod3_min_domains: int = 3):
    """Upstream's three cases on one node "fake-node" holding pod1 (key1) and pod2 (key2), where pod3 (key1)
    and pod4 (key2) spread over "node" and only pod3 is requeued; they differ in the trigger (and pod3's
    minDomains)."""
    return case(
        name,
        plugins=["PodTopologySpread"],
        nodes=[N().name("fake-node").label("node", "fake-node").capacity({CPU: "2"}).obj()],
        initial_pods=[P().name("pod1").label("key1", "val").container("image").node("fake-node").obj(),
                      P().name("pod2").label("key2", "val").container("image").node("fake-node").obj()],
        pods=[spread(P().name("pod3").label("key1", "val"), "node", "key1", pod3_min_domains)
              .container("image").obj(),
              spread(P().name("pod4").label("key2", "val"), "node", "key2", 3).container("image").obj()],
        trigger=trigger,
        want={"pod3"})


CASES = [
    case("Pod rejected by the PodAffinity plugin is requeued when a new Node is created",
         plugins=["InterPodAffinity"],
         nodes=[N().name("fake-node").label("node", "fake-node").capacity({CPU: "2"}).obj()],
         initial_pods=[P().label("anti", "anti").name("pod1").pod_anti_affinity_exists("anti", "node", REQUIRED)
                       .container("image").node("fake-node").obj()],
         pods=[P().label("anti", "anti").name("pod2").pod_anti_affinity_exists("anti", "node", REQUIRED)
               .container("image").obj()],
         trigger=lambda c: c.create_node(N().name("fake-node2").label("node", "fake-node2").capacity({CPU: "2"}).obj()),
         want={"pod2"}),
    case("Pod rejected by the InterPodAffinity plugin is requeued when deleting the existed pod's label that matches "
         "the podAntiAffinity",
         plugins=["InterPodAffinity"],
         nodes=[N().name("fake-node").label("node", "fake-node").obj()],
         initial_pods=[P().name("pod1").label("anti1", "anti1").label("anti2", "anti2").container("image")
                       .node("fake-node").obj()],
         pods=[P().name("pod2").label("anti1", "anti1").pod_anti_affinity_exists("anti1", "node", REQUIRED)
               .container("image").obj(),
               P().name("pod3").label("anti2", "anti2").pod_anti_affinity_exists("anti2", "node", REQUIRED)
               .container("image").obj()],
         trigger=lambda c: c.update_pod(P().name("pod1").label("anti2", "anti2").container("image").node("fake-node")
                                        .obj()),
         want={"pod2"}),
    case("Pod rejected by the InterPodAffinity plugin is requeued when deleting the existing pod that matches the "
         "target podAntiAffinity",
         plugins=["InterPodAffinity"],
         nodes=[N().name("fake-node").label("node", "fake-node").obj()],
         initial_pods=[P().name("pod1").label("anti1", "anti1").container("image").node("fake-node").obj(),
                       P().name("pod2").label("anti2", "anti2").container("image").node("fake-node").obj()],
         pods=[P().name("pod3").label("anti1", "anti1").pod_anti_affinity_exists("anti1", "node", REQUIRED)
               .container("image").obj(),
               P().name("pod4").label("anti2", "anti2").pod_anti_affinity_exists("anti2", "node", REQUIRED)
               .container("image").obj()],
         trigger=lambda c: c.delete_pod("pod1"),
         want={"pod3"}),
    case("Pod rejected by the InterPodAffinity plugin is requeued when deleting the existing pod with podAntiAffinity "
         "that matches the target pod",
         plugins=["InterPodAffinity"],
         nodes=[N().name("fake-node").label("node", "fake-node").obj()],
         initial_pods=[P().name("pod1").pod_anti_affinity_exists("anti1", "node", REQUIRED).container("image")
                       .node("fake-node").obj(),
                       P().name("pod2").pod_anti_affinity_exists("anti2", "node", REQUIRED).container("image")
                       .node("fake-node").obj()],
         pods=[P().name("pod3").label("anti1", "anti1").container("image").obj(),
               P().name("pod4").label("anti2", "anti2").container("image").obj()],
         trigger=lambda c: c.delete_pod("pod1"),
         want={"pod3"}),
    case("Pod rejected by the PodAffinity plugin is requeued when updating the existed pod's label to make it match "
         "the pod's podAffinity",
         plugins=["InterPodAffinity"],
         nodes=[N().name("fake-node").label("node", "fake-node").obj()],
         initial_pods=[P().name("pod1").container("image").node("fake-node").obj()],
         pods=[P().name("pod2").pod_affinity_exists("aaa", "node", REQUIRED).container("image").obj(),
               P().name("pod3").pod_affinity_exists("bbb", "node", REQUIRED).container("image").obj()],
         trigger=lambda c: c.update_pod(P().name("pod1").label("aaa", "bbb").container("image").node("fake-node")
                                        .obj()),
         want={"pod2"}),
    case("Pod rejected by the InterPodAffinity plugin is requeued when creating the node with the topologyKey label "
         "of the pod affinity",
         plugins=["InterPodAffinity"],
         nodes=[N().name("fake-node1").label("aaa", "fake-node").obj()],
         pods=[P().name("pod1").pod_affinity_exists("bbb", "zone", REQUIRED).container("image").obj(),
               P().name("pod2").pod_affinity_exists("ccc", "region", REQUIRED).container("image").obj()],
         trigger=lambda c: c.create_node(N().name("fake-node2").label("zone", "zone1").obj()),
         want={"pod1"}),
    case("Pod rejected by the InterPodAffinity plugin is requeued when updating the node with the topologyKey label "
         "of the pod affinity",
         plugins=["InterPodAffinity", "NodeAffinity"],
         nodes=[N().name("fake-node").label("region", "region-1").obj(),
                N().name("fake-node2").label("region", "region-2").label("group", "b").obj()],
         initial_pods=[P().name("pod1").label("affinity1", "affinity1").container("image").node("fake-node").obj()],
         pods=[P().name("pod2").label("affinity1", "affinity1").pod_affinity_exists("affinity1", "node", REQUIRED)
               .container("image").obj(),
               P().name("pod3").label("affinity1", "affinity1").pod_affinity_exists("affinity1", "other", REQUIRED)
               .container("image").obj(),
               P().name("pod4").pod_affinity_exists("affinity1", "region", REQUIRED)
               .node_affinity_in("group", ["b"]).container("image").obj()],
         trigger=lambda c: c.update_node(N().name("fake-node").label("node", "fake-node").label("region", "region-2")
                                         .obj()),
         want={"pod2", "pod4"}),
    case("Pod rejected by the InterPodAffinity plugin is requeued when updating the node with the topologyKey label "
         "of the pod anti affinity",
         plugins=["InterPodAffinity"],
         nodes=[N().name("fake-node").label("node", "fake-node").label("service", "service-a")
                .label("other", "fake-node").obj()],
         initial_pods=[P().name("pod1").label("anti1", "anti1").container("image").node("fake-node").obj()],
         pods=[P().name("pod2").label("anti1", "anti1").pod_anti_affinity_exists("anti1", "node", REQUIRED)
               .container("image").obj(),
               P().name("pod3").label("anti1", "anti1").pod_anti_affinity_exists("anti1", "service", REQUIRED)
               .container("image").obj(),
               P().name("pod4").label("anti1", "anti1").pod_anti_affinity_exists("anti1", "other", REQUIRED)
               .container("image").obj()],
         trigger=lambda c: c.update_node(N().name("fake-node").label("service", "service-b")
                                         .label("region", "fake-node").label("other", "fake-node").obj()),
         want={"pod2", "pod3"}),
    case("Pod rejected by the InterPodAffinity plugin is requeued when creating the node with the topologyKey label "
         "of the pod anti affinity",
         plugins=["InterPodAffinity"],
         nodes=[N().name("fake-node1").label("zone", "fake-node").label("node", "fake-node").obj()],
         initial_pods=[P().name("pod1").label("anti1", "anti1").container("image").node("fake-node1").obj()],
         pods=[P().name("pod2").pod_anti_affinity_exists("anti1", "zone", REQUIRED).container("image").obj(),
               P().name("pod3").pod_anti_affinity_exists("anti1", "node", REQUIRED).container("image").obj()],
         trigger=lambda c: c.create_node(N().name("fake-node2").label("zone", "fake-node").obj()),
         want={"pod2", "pod3"}),
    _spread_case("Pods with PodTopologySpread should be requeued when a Pod with matching label is scheduled",
                 lambda c: c.create_pod(P().name("pod5").label("key1", "val").node("fake-node")
                                        .container("image").obj())),
    _spread_case("Pods with PodTopologySpread should be requeued when a scheduled Pod label is updated to match "
                 "the selector",
                 lambda c: c.update_pod(P().name("pod1").label("key3", "val").container("image")
                                        .node("fake-node").obj())),
    _spread_case("Pods with PodTopologySpread should be requeued when a scheduled Pod with matching label is "
                 "deleted",
                 lambda c: c.delete_pod("pod1"), pod3_min_domains=2),
    case("Pods with PodTopologySpread should be requeued when a Node with topology label is created",
         plugins=["PodTopologySpread"],
         nodes=[N().name("fake-node1").label("node", "fake-node").obj(),
                N().name("fake-node2").label("zone", "fake-zone").obj()],
         initial_pods=[P().name("pod1").label("key1", "val").container("image").node("fake-node1").obj(),
                       P().name("pod2").label("key1", "val").container("image").node("fake-node2").obj()],
         pods=[spread(P().name("pod3").label("key1", "val"), "node", "key1", 2).container("image").obj(),
               spread(P().name("pod4").label("key1", "val"), "zone", "key1", 2).container("image").obj()],
         trigger=lambda c: c.create_node(N().name("fake-node3").label("node", "fake-node").obj()),
         want={"pod3"}),
    case("Pods with PodTopologySpread should be requeued when a Node is updated to have the topology label",
         plugins=["PodTopologySpread"],
         nodes=[N().name("fake-node1").label("node", "fake-node").label("region", "fake-node")
                .label("service", "service-a").obj(),
                N().name("fake-node2").label("node", "fake-node").label("region", "fake-node")
                .label("service", "service-a").obj()],
         initial_pods=[spread(P().name("pod1").label("key1", "val"), "node", "key1").container("image")
                       .node("fake-node1").obj(),
                       spread(P().name("pod2").label("key1", "val"), "zone", "key1").container("image")
                       .node("fake-node2").obj(),
                       spread(P().name("pod3").label("key1", "val"), "region", "key1").container("image")
                       .node("fake-node2").obj(),
                       spread(P().name("pod4").label("key1", "val"), "service", "key1").container("image")
                       .node("fake-node2").obj()],
         pods=[spread(P().name(f"pod{i}").label("key1", "val"), key, "key1", 3).container("image").obj()
               for i, key in ((5, "node"), (6, "zone"), (7, "region"), (8, "other"), (9, "service"))],
         trigger=lambda c: c.update_node(N().name("fake-node2").label("zone", "fake-node").label("region", "fake-node")
                                         .label("service", "service-b").obj()),
         want={"pod5", "pod6", "pod9"}),
    case("Pods with PodTopologySpread should be requeued when a Node with a topology label is deleted",
         plugins=["PodTopologySpread"],
         nodes=[N().name("fake-node1").label("node", "fake-node").obj(),
                N().name("fake-node2").label("zone", "fake-node").obj()],
         initial_pods=[spread(P().name("pod1").label("key1", "val"), "node", "key1").container("image")
                       .node("fake-node1").obj(),
                       spread(P().name("pod2").label("key1", "val"), "zone", "key1").container("image")
                       .node("fake-node2").obj()],
         pods=[spread(P().name("pod3").label("key1", "val"), "node", "key1", 3).container("image").obj(),
               spread(P().name("pod4").label("key1", "val"), "zone", "key1", 3).container("image").obj()],
         trigger=lambda c: c.delete_node("fake-node2"),
         want={"pod4"}),
    case("Pods with PodTopologySpread should be requeued when a NodeTaint of a Node with a topology label has been "
         "updated",
         plugins=["PodTopologySpread"],
         nodes=[N().name("fake-node1").label("node", "fake-node").obj(),
                N().name("fake-node2").label("zone", "fake-node").obj(),
                N().name("fake-node3").label("zone", "fake-node").taints([taint(TAINT_NODE_NOT_READY)]).obj()],
         initial_pods=[spread(P().name("pod1").label("key1", "val"), "node", "key1").container("image")
                       .node("fake-node1").obj(),
                       spread(P().name("pod2").label("key1", "val"), "node", "key1").container("image")
                       .node("fake-node2").obj()],
         pods=[spread(P().name("pod3").label("key1", "val"), "node", "key1", 3).container("image").obj(),
               spread(P().name("pod4").label("key1", "val"), "zone", "key1", 3).container("image")
               .toleration("aaa").obj()],
         trigger=lambda c: c.update_node(N().name("fake-node3").label("zone", "fake-node")
                                         .taints([taint("aaa", value="bbb")]).obj()),
         want={"pod4"}),
]
