"""Scores reach the framework in [MinNodeScore, MaxNodeScore]."""

from __future__ import annotations

from .base import ContractViolation, Property, register, run_checked
from .calls import cycle
from .inputs import PluginInput
from .inputs_objects import plugin_inputs_with_objects

MIN_SCORE, MAX_SCORE = 0, 100


def _in_range(driver, inp: PluginInput) -> bool:
    calls = cycle(driver.points, inp, inp.pod)
    results = run_checked(driver, calls)
    for call, result in zip(calls, results):
        if call["point"] != "scores" or result.get("skipped") or result.get("code") != "Success":
            continue
        final, what = ((result["normalized"], "after NormalizeScore") if "normalized" in result
                       else (result.get("scores") or {}, "from Score (the plugin has no ScoreExtensions)"))
        for node, score in sorted(final.items()):
            if not MIN_SCORE <= score <= MAX_SCORE:
                raise ContractViolation("score-normalized-range", f"node {node} scored {score} {what}; the "
                                        f"framework rejects the pod with \"plugin returns an invalid score\" "
                                        f"(range [{MIN_SCORE}, {MAX_SCORE}])", calls, results)
        return bool(final)
    return False


register(Property(
    "score-normalized-range", "after NormalizeScore (when the plugin has ScoreExtensions) every score is in "
    "[0, 100]; without ScoreExtensions, Score itself is",
    "pkg/scheduler/framework/runtime/framework.go RunScorePlugins (\"returns an invalid score ... it should in "
    "the range of [0, 100] after normalizing\")", frozenset({"score"}), plugin_inputs_with_objects, _in_range))
