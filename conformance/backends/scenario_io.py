"""What every backend does the same way with a scenario before running it."""

from __future__ import annotations

import json
from typing import Any, Mapping

from reference.scenario import EXTENDER_SCRIPT_ANNOTATION, EXTENDER_URL_PLACEHOLDER, Scenario, pod_key
from reference.timeline import created


def with_extender_url(config: Mapping[str, Any], base_url: str) -> dict[str, Any]:
    """The config with `${EXTENDER_URL}` in every extender's urlPrefix replaced by `base_url`."""
    out = dict(config)
    if "extenders" in out:
        out["extenders"] = [
            {**e, "urlPrefix": str(e.get("urlPrefix", "")).replace(EXTENDER_URL_PLACEHOLDER, base_url.rstrip("/"))}
            for e in out["extenders"]]
    return out


def extender_scripts(scenario: Scenario) -> dict[str, Any]:
    """Pod key -> parsed extender script, for every workload pod (or pod the timeline creates) with one."""
    scripts = {}
    for manifest in (*scenario.workload, *created(scenario.timeline, "Pod")):
        text = ((manifest.get("metadata") or {}).get("annotations") or {}).get(EXTENDER_SCRIPT_ANNOTATION)
        if text:
            scripts[pod_key(manifest)] = json.loads(text)
    return scripts


__all__ = ["extender_scripts", "with_extender_url"]
