"""`sched-conformance plugins FILE` and `validate FILE`: a KubeSchedulerConfiguration as the scheduler sees it.

With the stock plugins the reference loads, defaults and validates it (upstream's messages). With the user's
own scheduler (the own-scheduler flags, an --own-scheduler file or [tool.sched-conformance] with Go modules
or another release) only that build knows the user's plugins, their args and extension points: the config
goes to its runner, which builds the profiles exactly as kube-scheduler --config would.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .core.errors import ConformanceError
from .options import add_cli_options

COMMAND = "config"  # the option table's command name for the own-scheduler flags of both


def add_to(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("plugins", help="effective plugins per extension point of each profile")
    p.add_argument("config", help="KubeSchedulerConfiguration YAML (kubescheduler.config.k8s.io/v1)")
    p.add_argument("--json", action="store_true", help="print upstream's ListPlugins JSON shape")
    add_cli_options(p, COMMAND)
    p.set_defaults(run=_plugins)
    v = sub.add_parser("validate", help="check a KubeSchedulerConfiguration like kube-scheduler --config")
    v.add_argument("config")
    add_cli_options(v, COMMAND)
    v.set_defaults(run=_validate)


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ConformanceError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start}); pass a "
                               "KubeSchedulerConfiguration YAML file") from None
    except OSError as e:
        raise ConformanceError(f"cannot read {path!r}: {e.strerror}; pass an existing config file") from None


def _own_scheduler(args: argparse.Namespace) -> Any:
    """The user's build when the flags (or their project) name one, else None."""
    from .builds.own_scheduler import resolve
    own = resolve(modules=args.conformance_go_modules, plugins=args.conformance_go_plugins,
                  imports=args.conformance_go_imports, k8s_version=args.conformance_k8s_version,
                  own_file=args.conformance_own_scheduler)
    return own if own is not None and own.builds else None


def _on_build(own: Any, path: str, text: str) -> dict[str, Any]:
    """Per profile, upstream's ListPlugins for the config, from the user's build; its refusal as one line."""
    import yaml

    from reference.scenario import Scenario

    from .backends.upstream import UpstreamBackend
    from .core.errors import BackendFailure
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConformanceError(f"{path}: not YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(document, dict):
        raise ConformanceError(f"{path}: not a KubeSchedulerConfiguration (kind: KubeSchedulerConfiguration)")
    runner = UpstreamBackend(runner=own.runner(), observe=())
    try:
        return dict(runner.run(Scenario(config=document)).plugins)
    except BackendFailure as exc:
        reason = str(exc).splitlines()[0].split("refuses the scenario: ", 1)[-1]
        raise ConformanceError(f"{path}: the scheduler build rejects it: {reason}") from None
    finally:
        runner.close()


def _plugins(args: argparse.Namespace) -> int:
    text = _read(args.config)
    own = _own_scheduler(args)
    if own is not None:
        listed = _on_build(own, args.config, text)
    else:
        from reference.config import expand_config, list_plugins, load_config
        listed = {name: list_plugins(p) for name, p in expand_config(load_config(text)).items()}
    if args.json:
        print(json.dumps(listed, indent=2))
        return 0
    for name, points in listed.items():
        print(f"profile {name}:")
        for point, plugins in points.items():
            if point == "multiPoint":  # expanded into the points already
                continue
            names = [entry["name"] for entry in (plugins or {}).get("enabled", ())]
            print(f"  {point:<11} {', '.join(names) if names else '-'}")
    return 0


def _validate(args: argparse.Namespace) -> int:
    text = _read(args.config)
    own = _own_scheduler(args)
    if own is not None:
        profiles = len(_on_build(own, args.config, text))
    else:
        from reference.config import expand_config, load_config
        config = load_config(text)
        expand_config(config)
        profiles = len(config.profiles)
    print(f"{args.config}: valid ({profiles} profile(s))")
    return 0


__all__ = ["add_to"]
