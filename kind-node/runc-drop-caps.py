#!/usr/bin/python3 -S
"""OCI runtime wrapper: runc, minus the capabilities this machine cannot grant.

Why: on some VMs the capability bounding set of every process lacks a capability (here
CAP_SYS_RESOURCE). `docker run --privileged` (what kind runs its nodes with) asks runc for every
capability, and runc fails with "unable to apply caps: operation not permitted". No container can
hold a capability its parent's bounding set lacks, so dropping the missing ones from the request
changes nothing a container could have done on this host.

What: for `runc create|run` it removes those capabilities from the bundle's config.json
(`--bundle DIR`, default the working directory); for `runc exec` from the process spec
(`--process FILE`); then it execs the real runc with the unchanged arguments. Everything else
passes straight through.

Installed by kind-node/docker-setup.sh (which substitutes @RUNC@) as docker's default runtime
in /etc/docker/daemon.json; `kind-node/docker-setup.sh --undo` removes it again.
"""

import json
import os
import sys

RUNC = "@RUNC@"

# linux/capability.h, in bit order.
CAPS = ["CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER", "FSETID", "KILL", "SETGID", "SETUID",
        "SETPCAP", "LINUX_IMMUTABLE", "NET_BIND_SERVICE", "NET_BROADCAST", "NET_ADMIN", "NET_RAW",
        "IPC_LOCK", "IPC_OWNER", "SYS_MODULE", "SYS_RAWIO", "SYS_CHROOT", "SYS_PTRACE", "SYS_PACCT",
        "SYS_ADMIN", "SYS_BOOT", "SYS_NICE", "SYS_RESOURCE", "SYS_TIME", "SYS_TTY_CONFIG", "MKNOD",
        "LEASE", "AUDIT_WRITE", "AUDIT_CONTROL", "SETFCAP", "MAC_OVERRIDE", "MAC_ADMIN", "SYSLOG",
        "WAKE_ALARM", "BLOCK_SUSPEND", "AUDIT_READ", "PERFMON", "BPF", "CHECKPOINT_RESTORE"]

# runc's global options that take a value (they come before the command).
GLOBAL_WITH_VALUE = {"--root", "--log", "--log-format", "--criu", "--rootless"}


def missing_caps() -> set[str]:
    """CAP_* names this process (and so any container it starts) cannot have."""
    with open("/proc/self/status") as status:
        bounding = next(int(line.split()[1], 16) for line in status if line.startswith("CapBnd:"))
    return {f"CAP_{name}" for bit, name in enumerate(CAPS) if not bounding >> bit & 1}


def command_and_rest(argv: list[str]) -> tuple[str | None, list[str]]:
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in GLOBAL_WITH_VALUE:
            i += 2
        elif arg.startswith("-"):
            i += 1
        else:
            return arg, argv[i + 1:]
    return None, []


def option(args: list[str], long: str, short: str) -> str | None:
    for i, arg in enumerate(args):
        if arg in (long, short) and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(long + "="):
            return arg.split("=", 1)[1]
    return None


def strip(capabilities: dict, drop: set[str]) -> bool:
    changed = False
    for kind, names in capabilities.items():
        if isinstance(names, list) and drop.intersection(names):
            capabilities[kind] = [name for name in names if name not in drop]
            changed = True
    return changed


def rewrite(path: str, process_of, drop: set[str]) -> None:
    with open(path) as f:
        spec = json.load(f)
    process = process_of(spec)
    if process and strip(process.get("capabilities") or {}, drop):
        with open(path, "w") as f:
            json.dump(spec, f)


def main() -> None:
    args = sys.argv[1:]
    drop = missing_caps()
    command, rest = command_and_rest(args)
    if drop and command in ("create", "run"):
        bundle = option(rest, "--bundle", "-b") or os.getcwd()
        rewrite(os.path.join(bundle, "config.json"), lambda spec: spec.get("process"), drop)
    elif drop and command == "exec":
        process = option(rest, "--process", "-p")
        if process:
            rewrite(process, lambda spec: spec, drop)
    os.execv(RUNC, [RUNC] + args)


if __name__ == "__main__":
    main()
