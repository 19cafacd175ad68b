#!/usr/bin/env bash
# Make Docker usable for kind on this machine: installed, running, and able to run --privileged.
#
#   kind-node/docker-setup.sh [--install]   set up (install docker.io with apt only when --install is given)
#   kind-node/docker-setup.sh --check       say whether Docker can run kind here; change nothing
#   kind-node/docker-setup.sh --undo        remove what this script added (runtime wrapper, daemon.json keys)
#
# Why: kind runs each node as a `docker run --privileged` container. On VMs whose capability
# bounding set lacks a capability (here CAP_SYS_RESOURCE), runc fails every privileged container
# with "unable to apply caps: operation not permitted".
#
# What it changes, only when the bounding set lacks a capability (a host whose privileged
# containers work is left alone):
#   - installs kind-node/runc-drop-caps.py as /usr/local/libexec/sched-conformance/runc-drop-caps,
#     an OCI runtime that removes the missing capabilities from the container's spec and execs runc;
#   - adds to /etc/docker/daemon.json (merged, the previous file kept as daemon.json.sched-conformance.bak):
#       "runtimes": {"sched-conformance-runc": {"path": ".../runc-drop-caps"}},
#       "default-runtime": "sched-conformance-runc"
#   - restarts dockerd so it reads the file.
# Without systemd (a container or VM whose PID 1 is something else) dockerd is started in the
# background with its log in /var/log/sched-conformance-dockerd.log.
# How to undo: kind-node/docker-setup.sh --undo (restores daemon.json's other keys, removes the
# wrapper, restarts dockerd); `apt-get remove docker.io` removes Docker itself.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
RUNTIME=sched-conformance-runc
WRAPPER=/usr/local/libexec/sched-conformance/runc-drop-caps
DAEMON_JSON=/etc/docker/daemon.json
DOCKERD_LOG=/var/log/sched-conformance-dockerd.log
mode=setup
install=false
for arg in "$@"; do
	case $arg in
	--install) install=true ;;
	--check) mode=check ;;
	--undo) mode=undo ;;
	-h | --help) sed -n '2,25s/^# \{0,1\}//p' "$0" && exit 0 ;;
	*) echo "docker-setup: unknown argument $arg (see --help)" >&2 && exit 2 ;;
	esac
done

log() { echo "docker-setup: $*" >&2; }
die() { echo "docker-setup: $*" >&2; exit 1; }

# The capabilities missing from this machine's bounding set, as CAP_* names (empty: none).
missing_caps() {
	/usr/bin/python3 -S -c "
import importlib.util, sys
spec = importlib.util.spec_from_file_location('w', '$here/runc-drop-caps.py')
w = importlib.util.module_from_spec(spec); spec.loader.exec_module(w)
print(' '.join(sorted(w.missing_caps())))"
}

docker_up() { docker info --format '{{.ServerVersion}}' >/dev/null 2>&1; }

start_dockerd() {
	if [[ -d /run/systemd/system ]]; then
		systemctl restart docker
	else
		if [[ -f /var/run/docker.pid ]] && kill -0 "$(cat /var/run/docker.pid)" 2>/dev/null; then
			local pid
			pid=$(cat /var/run/docker.pid)
			log "stopping dockerd (pid $pid) to reload $DAEMON_JSON"
			kill "$pid"
			for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
		fi
		log "starting dockerd (log: $DOCKERD_LOG)"
		nohup dockerd >>"$DOCKERD_LOG" 2>&1 </dev/null &
	fi
	for _ in $(seq 60); do docker_up && return 0; sleep 1; done
	die "dockerd did not come up in 60s; see $DOCKERD_LOG (or journalctl -u docker)"
}

# daemon.json edit: `add` sets our runtime as the default, `remove` takes it out again.
edit_daemon_json() {
	/usr/bin/python3 -S - "$1" "$DAEMON_JSON" "$RUNTIME" "$WRAPPER" <<'EOF'
import json, os, shutil, sys
action, path, runtime, wrapper = sys.argv[1:]
config = json.load(open(path)) if os.path.exists(path) else {}
before = json.dumps(config, sort_keys=True)
if action == "add":
    default = config.get("default-runtime")
    if default not in (None, "runc", runtime):
        sys.exit(f"docker-setup: {path} already sets default-runtime {default!r}; "
                 f"remove it or add {runtime} by hand (path {wrapper})")
    config.setdefault("runtimes", {})[runtime] = {"path": wrapper}
    config["default-runtime"] = runtime
else:
    config.get("runtimes", {}).pop(runtime, None)
    if not config.get("runtimes"):
        config.pop("runtimes", None)
    if config.get("default-runtime") == runtime:
        config.pop("default-runtime")
if json.dumps(config, sort_keys=True) == before:
    print("unchanged")
    sys.exit(0)
os.makedirs(os.path.dirname(path), exist_ok=True)
if os.path.exists(path):
    shutil.copy(path, path + ".sched-conformance.bak")
with open(path, "w") as f:
    json.dump(config, f, indent=2)
    f.write("\n")
print("changed")
EOF
}

missing=$(missing_caps)

if [[ $mode == check ]]; then
	command -v dockerd >/dev/null || command -v docker >/dev/null || die "no Docker: run kind-node/docker-setup.sh --install as root"
	docker_up || die "Docker is installed but its daemon is not reachable: run kind-node/docker-setup.sh as root"
	if [[ -n $missing ]] && ! docker info --format '{{.DefaultRuntime}}' | grep -qx "$RUNTIME"; then
		die "privileged containers fail here (the bounding set lacks $missing): run kind-node/docker-setup.sh as root"
	fi
	log "ok: Docker $(docker info --format '{{.ServerVersion}}'), default runtime $(docker info --format '{{.DefaultRuntime}}')"
	exit 0
fi

[[ $(id -u) == 0 ]] || die "must run as root (it installs/starts Docker and edits $DAEMON_JSON): sudo $0 $*"

if [[ $mode == undo ]]; then
	changed=$(edit_daemon_json remove)
	rm -f "$WRAPPER"
	rmdir "$(dirname "$WRAPPER")" 2>/dev/null || true
	if [[ $changed == changed ]] && docker_up; then start_dockerd; fi
	log "undone ($DAEMON_JSON $changed, wrapper removed)"
	exit 0
fi

if ! command -v dockerd >/dev/null; then
	$install || die "no dockerd here: rerun with --install (apt-get install docker.io), or install Docker yourself"
	log "installing docker.io with apt-get"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q docker.io >/dev/null ||
		{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q docker.io >/dev/null; } ||
		die "apt-get install docker.io failed"
fi

changed=unchanged
if [[ -n $missing ]]; then
	log "the bounding set lacks $missing: installing the runtime wrapper $WRAPPER"
	mkdir -p "$(dirname "$WRAPPER")"
	sed "s#@RUNC@#$(command -v runc)#" "$here/runc-drop-caps.py" >"$WRAPPER.tmp"
	chmod 755 "$WRAPPER.tmp"
	mv "$WRAPPER.tmp" "$WRAPPER"
	changed=$(edit_daemon_json add)
fi
if [[ $changed == changed ]] || ! docker_up; then start_dockerd; fi
log "ok: Docker $(docker info --format '{{.ServerVersion}}'), default runtime $(docker info --format '{{.DefaultRuntime}}')"
