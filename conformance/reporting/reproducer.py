"""Reproducer directories: the shrunk scenario, kubectl-applyable manifests, and the replay command.

A reproducer is a CI artifact: the paths it stores (the own scheduler's local Go modules and CRDs, the
directory in its replay command) are relative to the directory the run started in, the project's root,
and replay resolves them against its own working directory, so a reproducer downloaded into another
checkout replays when `sched-conformance reproduce` runs from that checkout's root. Paths outside the
project stay absolute."""

from __future__ import annotations

import json
import os
import re
import shutil
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from ..builds import BuildSpec

from reference.scenario import Scenario, ScenarioError

META = "meta.json"
OWN_SCHEDULER = "own-scheduler.toml"


def write(directory: str | Path, scenario: Scenario, *, invariant: str, backend: str, message: str,
          own_scheduler: str | None = None, user_extenders: list[dict[str, Any]] | None = None,
          extra_meta: dict[str, Any] | None = None, replay: str | None = None, root: Path | None = None) -> Path:
    """Write `scenario.json`, `manifests.yaml`, `scheduler-config.yaml`, `meta.json` and `README.md`; with
    `own_scheduler` (the build's `--own-scheduler` TOML), also `own-scheduler.toml`, which replay builds
    (or takes from the build cache) instead of the stock scheduler; `user_extenders` (the user's extenders[]
    entries) go into meta.json, and replay puts the recording proxy in front of them again. `root`: the directory
    the run started in (default: the working directory). An earlier reproducer in `directory` is replaced."""
    out = fresh(directory)
    (out / "scenario.json").write_text(scenario.to_json() + "\n")
    objects = [*scenario.objects, *scenario.nodes, *scenario.pods, *scenario.workload]
    (out / "manifests.yaml").write_text(yaml.safe_dump_all(objects, sort_keys=False))
    config = scenario.config or {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
    (out / "scheduler-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    meta = {"invariant": invariant, "backend": backend}
    if own_scheduler is not None:
        meta["ownScheduler"] = write_own_scheduler(out, own_scheduler, root)
    if user_extenders:
        meta["userExtenders"] = user_extenders
    meta.update(extra_meta or {})
    (out / META).write_text(json.dumps(meta, indent=2) + "\n")
    command = replay or replay_command(relative(out, root), backend)
    (out / "README.md").write_text(
        f"# {'Difference' if invariant == 'diff' else 'Counterexample to'} `{invariant}`\n\n```\n{message}\n```\n\n"
        f"Reproduce with:\n\n```sh\n{command}\n```\n\n{RUN_FROM_ROOT if own_scheduler is not None else ''}"
        "On a cluster: `kubectl apply -f manifests.yaml` with a scheduler started from "
        "`scheduler-config.yaml` (nodes are fake: they need `status` patched in, see docs/scenario.md).\n"
        + (TIMELINE_NOTE if scenario.timeline else ""))
    return out


TIMELINE_NOTE = ("\nThe scenario's `timeline` (in `scenario.json`) is not in `manifests.yaml`: on a cluster, "
                 "apply its events in order while the scheduler works (docs/scenario.md, Timeline).\n")
RUN_FROM_ROOT = (f"Run it from the project's root: the paths in `{OWN_SCHEDULER}` are relative to the directory the "
                 "failing run started in.\n\n")


def fresh(directory: str | Path) -> Path:
    """`directory`, created, without an earlier reproducer's files (a stale own-scheduler.toml would replay)."""
    out = Path(directory)
    if (out / META).is_file():
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    return out


def remove_stale(directory: str | Path, **meta: Any) -> bool:
    """Remove the reproducer in `directory` when its meta.json has these values (the same invariant on the
    same backend passed since): True when one was removed."""
    path = Path(directory)
    try:
        recorded = json.loads((path / META).read_text())
    except (OSError, ValueError):
        return False
    if not isinstance(recorded, dict) or any(recorded.get(k) != v for k, v in meta.items()):
        return False
    shutil.rmtree(path)
    return True


def relative(path: str | Path, root: Path | None = None) -> Path:
    """`path` relative to `root` (default: the working directory) when inside it, else absolute."""
    base = (root or Path.cwd()).resolve()
    target = Path(path).expanduser().resolve()
    return Path(os.path.relpath(target, base)) if target.is_relative_to(base) else target


def write_own_scheduler(out: Path, toml: str, root: Path | None = None, name: str = OWN_SCHEDULER) -> str:
    """Write a build's `--own-scheduler` TOML (`BuildSpec.to_toml()`) into the reproducer `out` as `name`, its
    local paths relative to `root`; returns `name`, for meta.json."""
    table = tomllib.loads(toml)
    for key in ("go-modules", "crds"):
        if key in table:
            table[key] = [v if key == "go-modules" and "@" in v else str(relative(v, root)) for v in table[key]]
    (out / name).write_text("".join(f"{key} = {json.dumps(value)}\n" for key, value in table.items()))
    return name


def own_scheduler_spec(directory: str | Path, meta: dict[str, Any]) -> "BuildSpec | None":
    """The build a reproducer replays on (its relative paths against the working directory), or None."""
    return load_own_scheduler(Path(directory) / meta["ownScheduler"]) if meta.get("ownScheduler") else None


def load_own_scheduler(file: Path) -> "BuildSpec":
    """A reproducer's build file, its relative paths against the working directory."""
    from ..builds.spec import BuildSpecError, load_table
    try:
        data = tomllib.loads(file.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BuildSpecError(f"{file}: cannot read the reproducer's build ({exc})") from None
    return load_table(data.get("tool", {}).get("sched-conformance", data), base=Path.cwd(),
                      origin=f"{file} (paths relative to the working directory)")


def replay_command(directory: str | Path, backend: str) -> str:
    return f"sched-conformance reproduce {directory} --backend {backend}"


def read(directory: str | Path) -> tuple[Scenario, dict[str, Any]]:
    """The scenario and its metadata; errors name the missing or bad file."""
    path = Path(directory)
    scenario_file = path / "scenario.json"
    if not scenario_file.is_file():
        raise ScenarioError(f"{scenario_file}: not found; pass a directory written by a failing run")
    scenario = Scenario.loads(scenario_file.read_text())
    meta_file = path / META
    meta = json.loads(meta_file.read_text()) if meta_file.is_file() else {}
    return scenario, meta


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80] or "failure"


__all__ = ["OWN_SCHEDULER", "fresh", "load_own_scheduler", "own_scheduler_spec", "read", "relative", "remove_stale",
           "replay_command", "slug", "write", "write_own_scheduler"]
