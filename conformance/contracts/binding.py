"""The binding cycle's answers mean what the framework takes them to: a Permit wait has a timeout, a Bind that
says Success bound the pod."""

from __future__ import annotations

from .base import ContractViolation, Property, brief, register, run_checked
from .calls import cycle
from .inputs import PluginInput
from .inputs_objects import plugin_inputs_with_objects

PERMIT_CODES = frozenset({"Success", "Wait", "Unschedulable", "UnschedulableAndUnresolvable", "Pending", "Error"})


def _binding_calls(driver, inp: PluginInput, point: str):
    calls = cycle(driver.points & {"preEnqueue", "preFilter", "filter", "reserve", "permit", "preBind", "bind"},
                  inp, inp.pod)
    results = run_checked(driver, calls)
    return calls, results, [i for i, c in enumerate(calls) if c["point"] == point and not results[i].get("skipped")]


def _permit_legal(driver, inp: PluginInput) -> bool:
    calls, results, at = _binding_calls(driver, inp, "permit")
    for i in at:
        r = results[i]
        if r.get("code") not in PERMIT_CODES:
            raise ContractViolation("permit-result-legal", f"Permit on {calls[i]['node']} returned {r.get('code')}, "
                                    "which the framework turns into an Error (\"running Permit plugin\"); Permit "
                                    f"returns Success, Wait or a rejection ({brief(r)})", calls, results)
        if r.get("code") == "Wait" and (r.get("timeout") or 0) <= 0:
            raise ContractViolation("permit-result-legal", f"Permit on {calls[i]['node']} said Wait with a timeout of "
                                    f"{r.get('timeout') or 0} ns: the waiting pod's timer fires at once and rejects "
                                    f"it (\"rejected due to timeout\") ({brief(r)})", calls, results)
    return bool(at)


def _bind_binds(driver, inp: PluginInput) -> bool:
    calls, results, at = _binding_calls(driver, inp, "bind")
    for i in at:
        r, node = results[i], calls[i]["node"]
        bound = r.get("bound") or ""
        if r.get("code") == "Success" and bound != node:
            raise ContractViolation("bind-success-binds", f"Bind to {node} returned Success but the API server saw "
                                    f"{'no binding' if not bound else 'the pod bound to ' + bound}: the scheduler "
                                    f"reports the pod scheduled and never retries it", calls, results)
        if r.get("code") == "Skip" and bound:
            raise ContractViolation("bind-success-binds", f"Bind to {node} returned Skip (not handled) but bound the pod "
                                    f"to {bound}: the next Bind plugin binds it again and fails", calls, results)
    return bool(at)


register(Property(
    "permit-result-legal", "Permit returns Success, a rejection (Unschedulable, UnschedulableAndUnresolvable, "
    "Pending) or Error, or Wait with a timeout above zero",
    "staging/src/k8s.io/kube-scheduler/framework/interface.go PermitPlugin (\"must return success or wait with "
    "timeout duration\"); pkg/scheduler/framework/runtime/framework.go RunPermitPlugins (Skip and other codes: "
    "\"running Permit plugin %q\" error) and waiting_pods_map.go newWaitingPod (time.AfterFunc(timeout) rejects)",
    frozenset({"permit"}), plugin_inputs_with_objects, _permit_legal))
register(Property(
    "bind-success-binds", "a Bind that returns Success has bound the pod to that node in the API; one that returns "
    "Skip has bound nothing",
    "staging/src/k8s.io/kube-scheduler/framework/interface.go BindPlugin (\"If a bind plugin chooses to handle a "
    "Pod, the remaining bind plugins are skipped. When a bind plugin does not handle a pod, it must return Skip\"); "
    "pkg/scheduler/schedule_one.go bind and finishBinding (Success: the pod is reported Scheduled)",
    frozenset({"bind"}), plugin_inputs_with_objects, _bind_binds))
