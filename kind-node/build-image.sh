#!/usr/bin/env bash
# Builds the kind node image offline and prints its tag on stdout (progress goes to stderr).
#
#   kind-node/build-image.sh [--bin DIR] [--force]
#
# Nothing is pulled from a registry:
#   1. base rootfs: Debian bookworm minbase with packages.txt, made with debootstrap from the Debian
#      mirror ($DEBIAN_MIRROR, default http://deb.debian.org/debian), imported as
#      sched-conformance/kind-base:<hash of packages.txt> (kept: the slow step, reused by later builds);
#   2. control-plane images: kube-apiserver, kube-controller-manager, kube-scheduler (the harness's,
#      with the probe plugins), etcd and pause, each its binary plus the shared libraries it links on
#      an empty image, tagged as kubeadm expects (registry.k8s.io/<name>:<tag>, from `kubeadm config
#      images list`);
#   3. the node: kind's images/base files from the sigs.k8s.io/kind module plus containerd, kubelet,
#      kubeadm, kubectl (Dockerfile), then the control-plane images imported into its containerd
#      (as kind's own node-image build does) and committed.
# Binaries come from DIR (default harness/bin; `harness/build.sh --control-plane --kind` builds them).
# The result is tagged sched-conformance/kind-node:<k8s version>-<hash of every input> and reused
# while no input changed; --force rebuilds steps 2 and 3. A build that fails or is interrupted
# removes its container and intermediate images (the base image of step 1 stays only when complete).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=$root/harness/bin
force=false
while (($#)); do
	case $1 in
	--bin) bin=$(cd "$2" && pwd) && shift ;;
	--force) force=true ;;
	-h | --help) sed -n '2,22s/^# \{0,1\}//p' "$0" && exit 0 ;;
	*) echo "build-image: unknown argument $1 (see --help)" >&2 && exit 2 ;;
	esac
	shift
done

start=$SECONDS
log() { echo "[kind-node +$((SECONDS - start))s] $*" >&2; }
die() { echo "build-image: $*" >&2; exit 1; }

KIND_VERSION=$(sed -n 's/^KIND_VERSION=//p' "$here/versions.env")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
binaries=(kube-apiserver kube-controller-manager kube-scheduler etcd pause kubelet kubeadm kubectl
	containerd ctr containerd-shim-runc-v2)
for b in "${binaries[@]}"; do
	[[ -x $bin/$b ]] || die "$bin/$b is missing: run harness/build.sh --control-plane --kind (or pass --bin DIR)"
done
command -v docker >/dev/null || die "no docker command: run kind-node/docker-setup.sh --install as root"
docker info >/dev/null 2>&1 || die "the Docker daemon is not reachable: run kind-node/docker-setup.sh as root"
kind_files=$(go env GOMODCACHE)/sigs.k8s.io/kind@$KIND_VERSION/images/base/files
if [[ ! -d $kind_files ]]; then
	(cd "$here/bin-module" && GOFLAGS=-mod=mod go mod download "sigs.k8s.io/kind@$KIND_VERSION") >/dev/null
fi
[[ -d $kind_files ]] || die "sigs.k8s.io/kind@$KIND_VERSION has no images/base/files in the module cache"

k8s_version=$("$bin/kubeadm" version -o short)
# What kubeadm will run, e.g. registry.k8s.io/kube-apiserver:v1.37.2 ... registry.k8s.io/pause:3.10.2
mapfile -t wanted < <("$bin/kubeadm" config images list --kubernetes-version "$k8s_version" 2>/dev/null)
image_of() { printf '%s\n' "${wanted[@]}" | grep -m1 "/$1:" || die "kubeadm lists no $1 image"; }

sha() { sha256sum | cut -c1-64; }
# quiet CMD...: CMD's output only when it fails (docker build's progress and deprecation notes are noise here).
quiet() {
	local out
	if ! out=$("$@" 2>&1); then
		echo "$out" | tail -20 >&2
		die "\`$*\` failed (its output is above)"
	fi
}
base_key=$( (cat "$here/packages.txt"; echo "$mirror") | sha | cut -c1-16)
base_image=sched-conformance/kind-base:$base_key
inputs_key=$( {
	echo "$base_key $k8s_version $KIND_VERSION"
	cat "$here/Dockerfile" "$here/build-image.sh" "$here/versions.env" "$here"/files/*
	(cd "$kind_files" && find . -type f | LC_ALL=C sort | xargs sha256sum)
	(cd "$bin" && sha256sum "${binaries[@]}")
} | sha | cut -c1-16)
node_image=sched-conformance/kind-node:$k8s_version-$inputs_key

if ! $force && docker image inspect "$node_image" >/dev/null 2>&1; then
	log "node image $node_image is up to date"
	echo "$node_image"
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/kind-node.XXXXXX")
container=
temp_images=()
cleanup() {
	local rc=$?
	[[ -n $container ]] && docker rm -f -v "$container" >/dev/null 2>&1
	((${#temp_images[@]})) && docker rmi -f "${temp_images[@]}" >/dev/null 2>&1
	rm -rf "$work"
	((rc == 0)) || log "build failed; its container and intermediate images are removed"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. base rootfs -----------------------------------------------------------------------------
if docker image inspect "$base_image" >/dev/null 2>&1; then
	log "step base: $base_image is up to date"
else
	command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"
	[[ $(id -u) == 0 ]] || die "debootstrap needs root: run as root once to make $base_image"
	log "step base: debootstrap bookworm from $mirror (a few minutes)"
	include=$(grep -v '^#' "$here/packages.txt" | paste -sd,)
	debootstrap --variant=minbase --include="$include" bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
		die "debootstrap failed (last lines: $(tail -3 "$work/debootstrap.log" | tr '\n' ' ')); check $mirror is reachable"
	rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
	log "step base: importing the rootfs as $base_image"
	tar -C "$work/rootfs" -c . | docker import - "$base_image.partial" >/dev/null
	temp_images+=("$base_image.partial")
	docker tag "$base_image.partial" "$base_image"
	rm -rf "$work/rootfs"
fi

# --- 2. control-plane images --------------------------------------------------------------------
# image_context DIR BINARY: BINARY in DIR/usr/local/bin plus the shared libraries it links.
image_context() {
	local dir=$1 binary=$2
	mkdir -p "$dir/usr/local/bin" "$dir/tmp"
	chmod 1777 "$dir/tmp"
	cp "$binary" "$dir/usr/local/bin/"
	# (a static binary has none: ldd fails, grep finds nothing)
	{ ldd "$binary" 2>/dev/null || true; } | { grep -oE '/[^ ]+' || true; } | while read -r lib; do
		mkdir -p "$dir$(dirname "$lib")"
		cp -L "$lib" "$dir$lib"
	done
	printf 'FROM scratch\nCOPY . /\nENV PATH=/usr/local/bin:/usr/bin:/bin\n' >"$dir/Dockerfile"
}
declare -A component_entrypoint=([pause]=/usr/local/bin/pause)
log "step images: ${wanted[*]}"
tars=()
renames=()
for name in kube-apiserver kube-controller-manager kube-scheduler etcd pause; do
	image=$(image_of "$name")
	image_context "$work/img-$name" "$bin/$name"
	if [[ -n ${component_entrypoint[$name]:-} ]]; then
		echo "ENTRYPOINT [\"${component_entrypoint[$name]}\"]" >>"$work/img-$name/Dockerfile"
	fi
	# Built under a private name (a real registry.k8s.io image in this docker stays untouched),
	# renamed to what kubeadm expects inside the node's containerd.
	private=sched-conformance/cp-$name:$inputs_key
	quiet docker build -q -t "$private" "$work/img-$name"
	temp_images+=("$private")
	docker save "$private" -o "$work/$name.tar"
	tars+=("$work/$name.tar")
	renames+=("docker.io/$private=$image")
	rm -rf "$work/img-$name"
done

# --- 3. the node image ----------------------------------------------------------------------------
log "step node: assembling kind $KIND_VERSION base files and the node binaries"
ctx=$work/node
mkdir -p "$ctx/bin"
cp -r "$kind_files" "$ctx/files"
cp -r "$here/files" "$ctx/own"
chmod -R u+w "$ctx/files"
for b in containerd ctr containerd-shim-runc-v2 kubelet kubeadm kubectl; do cp "$bin/$b" "$ctx/bin/"; done
echo "$k8s_version" >"$ctx/version"
# kind's cri-base.json: ctr's default OCI spec with kind's product-files hook and no rlimits.
"$bin/ctr" oci spec | /usr/bin/python3 -c '
import json, sys
spec = json.load(sys.stdin)
spec.setdefault("hooks", {}).setdefault("createContainer", []).append({"path": "/kind/bin/mount-product-files.sh"})
spec["process"].pop("rlimits", None)
json.dump(spec, sys.stdout, indent=2)' >"$ctx/cri-base.json"
cp "$here/Dockerfile" "$ctx/Dockerfile"
stage=$node_image-stage
quiet docker build -q --build-arg "BASE=$base_image" --build-arg "PAUSE_IMAGE=$(image_of pause)" -t "$stage" "$ctx"
temp_images+=("$stage")
rm -rf "$ctx"

log "step node: importing ${#tars[@]} images into the node's containerd"
container=$(docker run -d --privileged --entrypoint=sleep "$stage" infinity)
docker exec "$container" bash -c 'nohup containerd >/tmp/containerd.log 2>&1 &'
docker exec "$container" bash -c 'for i in $(seq 50); do [ -S /run/containerd/containerd.sock ] && ctr version >/dev/null 2>&1 && exit 0; sleep 0.2; done; cat /tmp/containerd.log; exit 1' >&2 ||
	die "containerd did not start in the build container"
for tar in "${tars[@]}"; do
	docker exec -i "$container" ctr --namespace=k8s.io images import --label=io.cri-containerd.pinned=pinned \
		--all-platforms --no-unpack --digests - <"$tar" 2>&1 >/dev/null | { grep -v 'level=warning' >&2 || true; }
done
for rename in "${renames[@]}"; do
	quiet docker exec "$container" ctr --namespace=k8s.io images tag --force "${rename%%=*}" "${rename#*=}"
	quiet docker exec "$container" ctr --namespace=k8s.io images rm "${rename%%=*}"
done
docker exec "$container" ctr --namespace=k8s.io images list -q 2>/dev/null | grep -v '^sha256:' | sed 's/^/    /' >&2
# (it stays a zombie: `sleep` as PID 1 reaps nobody)
docker exec "$container" bash -c 'pkill -x containerd; for i in $(seq 150); do ps -o stat= -C containerd | grep -qv Z || exit 0; sleep 0.2; done; ps -ef; exit 1' >&2 ||
	die "containerd did not stop in the build container"
docker exec "$container" rm -f /tmp/containerd.log
docker commit --change 'ENTRYPOINT [ "/usr/local/bin/entrypoint", "/sbin/init" ]' \
	--change "LABEL sched-conformance.inputs=$inputs_key" "$container" "$node_image" >/dev/null
log "node image $node_image built ($(docker image inspect -f '{{.Size}}' "$node_image" | awk '{printf "%.0f MB", $1/1e6}'))"
echo "$node_image"
