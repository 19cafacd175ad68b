"""The ActionType bits and unions are upstream's (kube-scheduler framework/types.go, v1.37.2)."""

from reference.events import ActionType


def test_action_type_bits_follow_upstream_order():
    names = ["ADD", "DELETE", "UPDATE_NODE_ALLOCATABLE", "UPDATE_NODE_LABEL", "UPDATE_NODE_TAINT",
             "UPDATE_NODE_CONDITION", "UPDATE_NODE_ANNOTATION", "UPDATE_NODE_DECLARED_FEATURE",
             "UPDATE_NODE_PREEMPTION_POLICY", "UPDATE_POD_LABEL", "UPDATE_POD_SCALE_DOWN", "UPDATE_POD_SCALE_UP",
             "UPDATE_POD_TOLERATION", "UPDATE_POD_SCHEDULING_GATES_ELIMINATED", "UPDATE_POD_GENERATED_RESOURCE_CLAIM"]
    assert [ActionType[name].value for name in names] == [1 << i for i in range(len(names))]


def test_all_and_update_are_the_unions():
    assert ActionType.ALL == 32767
    assert ActionType.UPDATE == ActionType.ALL & ~(ActionType.ADD | ActionType.DELETE)
    assert ActionType.UPDATE_NODE_TAINT in ActionType.UPDATE and ActionType.ADD not in ActionType.UPDATE
