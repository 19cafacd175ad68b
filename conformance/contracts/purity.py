"""Properties of any single call: it does not panic, gives the same answer twice, changes none of its inputs."""

from __future__ import annotations

from .base import PANIC, ContractViolation, Property, brief, register, run_checked
from .calls import answers, cycle, snapshot
from .inputs import PluginInput
from .inputs_objects import plugin_inputs_with_objects

CYCLE_POINTS = frozenset({"preEnqueue", "preFilter", "filter", "postFilter", "preScore", "score", "reserve", "permit",
                          "preBind", "bind", "postBind"})


def _no_panic(driver, inp: PluginInput) -> bool:
    run_checked(driver, cycle(driver.points, inp, inp.pod))
    return True


def _deterministic(driver, inp: PluginInput) -> bool:
    # Both cycles in one sequence: the driver gives every sequence a fresh plugin instance, and a plugin
    # that answers from what earlier calls left in it must meet its own history here.
    calls = cycle(driver.points, inp, inp.pod)
    again = len(calls)
    calls = cycle(driver.points, inp, inp.pod, state="again", calls=calls + [snapshot(inp)])
    results = run_checked(driver, calls)
    first, second = answers(calls[:again], results[:again]), answers(calls, results, again)
    for a, b in zip(first, second):
        if a != b:
            raise ContractViolation("plugin-deterministic", f"{a[0]}{' on ' + a[1] if a[1] else ''} answered "
                                    f"differently to the same inputs: first {a[2:]}, then {b[2:]}", calls, results)
    return True


def _no_input_mutation(driver, inp: PluginInput) -> bool:
    calls = cycle(driver.points, inp, inp.pod)
    results = run_checked(driver, calls)
    for call, result in zip(calls, results):
        if result.get("mutated"):
            raise ContractViolation("plugin-no-input-mutation",
                                    f"{call['point']}{' on ' + call['node'] if call.get('node') else ''} changed "
                                    f"{', '.join(result['mutated'])} it was given ({brief(result)})", calls, results)
    return True


register(Property(
    PANIC, "no extension point panics on a valid input: the framework recovers nothing, a panic kills kube-scheduler",
    "pkg/scheduler/framework/runtime/framework.go (no recover around plugin calls; cmd/kube-scheduler crashes)",
    CYCLE_POINTS, plugin_inputs_with_objects, _no_panic))
register(Property(
    "plugin-deterministic", "the same inputs twice give the same status, reasons, node names and scores",
    "staging/src/k8s.io/kube-scheduler/framework/interface.go (plugins are functions of pod, node info and "
    "CycleState; the scheduler re-runs them on retries, preemption dry-runs and nominated pods)",
    CYCLE_POINTS, plugin_inputs_with_objects, _deterministic))
register(Property(
    "plugin-no-input-mutation", "no extension point changes the pod, the node info(s) or other plugins' cycle "
    "state it was given (deep comparison before and after each call)",
    "staging/src/k8s.io/kube-scheduler/framework/interface.go (PreFilterExtensions: \"must treat the nodeInfo "
    "parameter as read-only and must NOT mutate it\"; the snapshot, the pod object and the CycleState are shared by "
    "every plugin and, at Filter and Score, by 16 goroutines)",
    CYCLE_POINTS, plugin_inputs_with_objects, _no_input_mutation, watch=True))
