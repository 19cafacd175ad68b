"""The KubeSchedulerConfiguration the local kube-scheduler runs: the scenario's, plus the backend's part."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from typing import Any, Mapping

from reference.scenario import EXTENDER_URL_PLACEHOLDER

API_VERSION = "kubescheduler.config.k8s.io/v1"
PROBE_NAME = re.compile(r"^Probe[0-9]+$")


def probes_in(config: Mapping[str, Any] | None) -> list[str]:
    """Probe plugin names any profile enables (at any point or multiPoint), sorted."""
    names: set[str] = set()
    for profile in (config or {}).get("profiles") or []:
        for point in ((profile or {}).get("plugins") or {}).values():
            for entry in (point or {}).get("enabled") or []:
                name = str((entry or {}).get("name", ""))
                if PROBE_NAME.match(name):
                    names.add(name)
    return sorted(names)


def _with_collector(profile: Mapping[str, Any], collector: str) -> dict[str, Any]:
    out = dict(profile)
    used = probes_in({"profiles": [profile]})
    entries = [dict(e) for e in out.get("pluginConfig") or []]
    for name in used:
        entry = next((e for e in entries if e.get("name") == name), None)
        if entry is None:
            entries.append({"name": name, "args": {"collector": collector}})
        else:
            entry["args"] = {**(entry.get("args") or {}), "collector": collector}
    if entries:
        out["pluginConfig"] = entries
    return out


def render(config: Mapping[str, Any] | None, *, kubeconfig: str, collector_url: str | None = None,
           extender_url: str | None = None) -> dict[str, Any]:
    """The scenario config with clientConnection, leaderElection off, the extender URL and probe collectors.

    `clientConnection` and `leaderElection` are the backend's business (docs/scenario.md), so any
    value the scenario has is replaced.
    """
    out: dict[str, Any] = copy.deepcopy(dict(config or {}))
    out.setdefault("apiVersion", API_VERSION)
    out.setdefault("kind", "KubeSchedulerConfiguration")
    out["clientConnection"] = {"kubeconfig": kubeconfig}
    out["leaderElection"] = {"leaderElect": False}
    if extender_url is not None and out.get("extenders"):
        out["extenders"] = [{**e, "urlPrefix": str(e.get("urlPrefix", "")).replace(
            EXTENDER_URL_PLACEHOLDER, extender_url.rstrip("/"))} for e in out["extenders"]]
    if collector_url and out.get("profiles"):
        out["profiles"] = [_with_collector(p, collector_url) for p in out["profiles"]]
    return out


def config_hash(config: Mapping[str, Any]) -> str:
    """Equal for configs that differ only in key order: the scheduler is reused while this is unchanged."""
    return hashlib.sha256(json.dumps(config, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def scheduler_names(config: Mapping[str, Any] | None) -> list[str]:
    """Profile scheduler names; the v1 default profile is `default-scheduler`."""
    profiles = (config or {}).get("profiles") or []
    return [str((p or {}).get("schedulerName") or "default-scheduler") for p in profiles] or ["default-scheduler"]


__all__ = ["API_VERSION", "PROBE_NAME", "config_hash", "probes_in", "render", "scheduler_names"]
