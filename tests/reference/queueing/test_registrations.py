"""Every default plugin that may reject a pod registers its events, as each upstream plugin implements
EnqueueExtensions (pkg/scheduler/framework/plugins/*, v1.37.2); none falls back to the default
registration (every event, always Queue) that upstream gives plugins without it."""

from __future__ import annotations

import pytest

from reference.events import NODE, ActionType, ClusterEvent
from reference.interfaces import FilterPlugin, PermitPlugin, PreEnqueuePlugin, PreFilterPlugin, ReservePlugin
from reference.plugins import in_tree_registry
from reference.scheduler.build import build_scheduler
from reference.scheduler.queue_hints import profile_hint_map

REJECTING = (PreEnqueuePlugin, PreFilterPlugin, FilterPlugin, ReservePlugin, PermitPlugin)
SPECS = [s for s in in_tree_registry() if issubclass(s.plugin_type, REJECTING)]


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_plugin_registers_its_events(spec) -> None:
    assert callable(getattr(spec.plugin_type, "events_to_register", None))


def test_default_profile_hint_map() -> None:
    sched = build_scheduler()
    hint_map = profile_hint_map(sched.frameworks["default-scheduler"])
    node_add = [fn.plugin_name for e, fns in hint_map.items() for fn in fns
                if e.resource == NODE and e.action_type & ActionType.ADD]
    assert sorted(node_add) == sorted(["NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
                                       "NodeResourcesFit", "VolumeRestrictions", "VolumeBinding", "VolumeZone",
                                       "PodTopologySpread", "InterPodAffinity", "DynamicResources",
                                       "NodeDeclaredFeatures"])
    assert ClusterEvent(NODE, ActionType.ALL) not in hint_map  # nobody is on the default registration
