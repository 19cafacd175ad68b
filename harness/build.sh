#!/usr/bin/env bash
# Builds the upstream binaries the conformance suite runs.
#
#   harness/build.sh [--control-plane] [--kind] [--driver] [--race-driver] [--no-scheduler] [--force]
#                    [--mod DIR --out DIR [--cover PKGS]]
#
# Outputs (gitignored):
#   bin/runner, bin/kube-scheduler                 unless --no-scheduler
#   bin/vocabulary                                 always but with --mod: a plugin module's own
#                                                  labels, taints, resources (cmd/vocabulary)
#   bin/kube-apiserver, bin/etcd, bin/faultproxy   with --control-plane (faultproxy: plain Go, in bin/
#                                                  whatever the release, cmd/faultproxy)
#   bin/driver                                     with --driver: one plugin driven directly
#   bin/driver-race                                with --race-driver: the same with -race (CGO)
#   bin/kubelet, kubeadm, kubectl, kube-controller-manager (from ../kind-node/bin-module),
#   bin/containerd, ctr, containerd-shim-runc-v2, kind, pause
#                                                  with --kind (the kind node image's
#                                                  binaries, see kind-node/build-image.sh)
# With K8S_VERSION=1.X.Y (other than the pinned one) the module is copied to
# bin/.mod-v1.X.Y, re-pinned there and tidied (the committed go.mod is never
# touched), and the binaries go to bin/v1.X.Y/.
# With --mod DIR --out DIR it builds a module prepared elsewhere (a user's
# build: conformance/builds writes it with their plugins) into DIR. --cover
# PKGS (comma-separated import paths: the user's plugin packages) instruments
# them in the runner and the driver (go build -cover -coverpkg), so a run can
# report which of their statements it reached (conformance/builds/coverage.py).
#
# A binary is rebuilt only when its stamp (Go version, Kubernetes version,
# sha256 of go.mod, go.sum and all non-test Go sources; bin/vocabulary's
# covers cmd/vocabulary alone, the others all but it) changed; --force
# ignores stamps.
# The default GOCACHE/GOMODCACHE are used so that they stay warm between runs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
control_plane=false
driver=false
race_driver=false
scheduler=true
kind=false
force=false
given_mod=
cover=()
given_out=
while (($#)); do
	arg=$1
	shift
	case $arg in
	--control-plane) control_plane=true ;;
	--driver) driver=true ;;
	--race-driver) race_driver=true ;;
	--no-scheduler) scheduler=false ;;
	--kind) kind=true ;;
	--force) force=true ;;
	--mod) given_mod=$(cd "$1" && pwd) && shift ;;
	--out) given_out=$1 && shift ;;
	--cover) cover=(-cover -covermode=atomic "-coverpkg=$1") && shift ;;
	-h | --help)
		sed -n '2,31s/^# \{0,1\}//p' "$0"
		exit 0
		;;
	*)
		echo "build.sh: unknown argument $arg" >&2
		exit 2
		;;
	esac
done

start=$SECONDS
log() { echo "[build.sh +$((SECONDS - start))s] $*" >&2; }

if [[ -n $given_mod ]]; then
	[[ -n $given_out ]] || { echo "build.sh: --mod needs --out" >&2; exit 2; }
	mod=$given_mod
	out=$given_out
	# The replaced version when there is one: hack/pin-k8s.sh pins kubernetes by a replace.
	version=$(cd "$mod" && go list -m -f '{{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}' k8s.io/kubernetes)
	pinned=$version
else
	pinned=$(cd "$here" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
	version=${K8S_VERSION:-$pinned}
	version=v${version#v}
fi

sources() { find "$1" -path "$1/bin" -prune -o -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -print | LC_ALL=C sort; }

if [[ -n $given_mod ]]; then
	:
elif [[ $version == "$pinned" ]]; then
	mod=$here
	out=$here/bin
else
	# Build in a copy with a fresh go.mod so that nothing resolved for the
	# pinned version (e.g. etcd) leaks into the other version's module graph.
	mod=$here/bin/.mod-$version
	out=$here/bin/$version
	src_sum=$(cd "$here" && sources . | grep -v -e '^\./go\.mod$' -e '^\./go\.sum$' | xargs sha256sum | sha256sum | cut -c1-64)
	if [[ ! -f $mod/.prepared || $(<"$mod/.prepared") != "$src_sum" ]]; then
		log "preparing module copy for $version in ${mod#"$here"/}"
		rm -rf "$mod"
		mkdir -p "$mod"
		(cd "$here" && sources . | grep -v -e '^\./go\.mod$' -e '^\./go\.sum$' | tar -cf - -T - | tar -xf - -C "$mod")
		printf 'module %s\n\ngo %s\n' "$(cd "$here" && go list -m)" "$(cd "$here" && go mod edit -json | sed -n 's/^\t"Go": "\(.*\)",$/\1/p')" >"$mod/go.mod"
		"$here/hack/pin-k8s.sh" "${version#v}" "$mod"
		(cd "$mod" && nice -n 10 go mod tidy)
		echo "$src_sum" >"$mod/.prepared"
	fi
fi
mkdir -p "$out"

gover=$(go env GOVERSION)
# Tests and their data do not change the binaries, so they stay out of the stamp;
# the runner's entry point is a test file (see cmd/runner/main_test.go). cmd/vocabulary
# links nothing of the scheduler: it has a stamp of its own and changes rebuild it alone.
tree_sum=$(cd "$mod" && sources . | grep -v -e '/testdata/' -e '_test\.go$' -e '^\./cmd/vocabulary/' \
	-e '^\./cmd/faultproxy/' |
	cat - <(echo ./cmd/runner/main_test.go) | xargs sha256sum | sha256sum | cut -c1-64)
vocabulary_sum=$(cd "$here" && sources ./cmd/vocabulary | grep -v -e '/testdata/' -e '_test\.go$' |
	cat - <(echo ./go.mod) | xargs sha256sum | sha256sum | cut -c1-64)
faultproxy_sum=$(cd "$here" && sources ./cmd/faultproxy | grep -v -e '_test\.go$' |
	cat - <(echo ./go.mod) | xargs sha256sum | sha256sum | cut -c1-64)
# The release family's build tag: the framework API moved between releases
# (harness/fwk, probe/preflight*.go, runner/compat*.go); the pinned v1.37 needs none.
case $version in
v1.34.*) k8s_tags=k8s134 ;;
v1.35.*) k8s_tags=k8s135 ;;
v1.36.*) k8s_tags=k8s136 ;;
v1.37.*) k8s_tags= ;;
*)
	echo "build.sh: k8s.io/kubernetes $version is not a release the harness builds against (v1.34 to v1.37)" >&2
	exit 2
	;;
esac
# The runner is a test binary: synctest bubbles (virtual time) exist only in tests.
runner_tags=runner${k8s_tags:+,$k8s_tags}
log "go $gover, k8s.io/kubernetes $version, module ${mod}, output ${out}"

step=$SECONDS
log "step download: go mod download"
(cd "$mod" && nice -n 10 go mod download)
log "step download: done in $((SECONDS - step))s"

# build NAME PACKAGE [extra go build args...]; GO_BUILD="test -c" builds a test binary.
build() {
	local name=$1 pkg=$2
	shift 2
	local stamp_file=$out/.stamp-$name
	local stamp="$gover $version $tree_sum ${BUILD_MOD:+$BUILD_MOD $(cat "$BUILD_MOD/go.sum" | sha256sum | cut -c1-16)} $*"
	if ! $force && [[ -x $out/$name && -f $stamp_file && $(<"$stamp_file") == "$stamp" ]]; then
		log "step $name: up to date"
		return
	fi
	local t=$SECONDS
	log "step $name: go build $pkg"
	local timer=()
	if [[ -x /usr/bin/time ]]; then
		timer=(/usr/bin/time -f "[build.sh] step $name: %e s wall, %U s user, max RSS %M KiB")
	fi
	rm -f "$stamp_file"
	# shellcheck disable=SC2086 # GO_BUILD is two words for the runner
	(cd "${BUILD_MOD:-$mod}" && "${timer[@]}" nice -n 10 go ${GO_BUILD:-build} -mod=readonly -trimpath "$@" -o "$out/$name" "$pkg")
	echo "$stamp" >"$stamp_file"
	log "step $name: done in $((SECONDS - t))s ($(du -h "$out/$name" | cut -f1))"
}

k8s_ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$version"
# Plain Go (go/ast) whatever the release: built once into bin/ from this module.
if [[ -z $given_mod ]]; then
	(mod=$here out=$here/bin version=any tree_sum=$vocabulary_sum && build vocabulary ./cmd/vocabulary -ldflags "-s -w")
fi
if $scheduler; then
	GO_BUILD="test -c" build runner ./cmd/runner -tags "$runner_tags" -ldflags "$k8s_ldflags" ${cover[@]+"${cover[@]}"}
	build kube-scheduler ./cmd/kube-scheduler -tags "$k8s_tags" -ldflags "$k8s_ldflags"
fi
if $driver || $race_driver; then
	if $driver; then
		build driver ./cmd/driver -tags "$k8s_tags" -ldflags "$k8s_ldflags" ${cover[@]+"${cover[@]}"}
	fi
	if $race_driver; then
		CGO_ENABLED=1 build driver-race ./cmd/driver -race -tags "$k8s_tags" -ldflags "$k8s_ldflags"
	fi
fi
if $control_plane; then
	build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver -ldflags "$k8s_ldflags"
	# The fault-injecting proxy (standard library only): one build whatever the release, like vocabulary.
	(mod=$here out=$here/bin version=any tree_sum=$faultproxy_sum &&
		build faultproxy ./cmd/faultproxy -ldflags "-s -w")
	build etcd go.etcd.io/etcd/server/v3 -ldflags "-s -w"
fi
if $kind; then
	[[ $version == "$pinned" && -z $given_mod ]] || { echo "build.sh: --kind builds the pinned release only" >&2; exit 2; }
	# The node binaries of the pinned release, in a module of their own (its go.mod requires
	# kubelet's dependencies, which the harness does not need).
	node_mod=$(cd "$here/../kind-node/bin-module" && pwd)
	for name in kubelet kubeadm kubectl kube-controller-manager; do
		BUILD_MOD=$node_mod build "$name" "k8s.io/kubernetes/cmd/$name" -ldflags "$k8s_ldflags"
	done
	# shellcheck source=../kind-node/versions.env
	source "$here/../kind-node/versions.env"
	# go_install NAME STAMP PACKAGE@VERSION...: `go install` in module mode, binaries into $out
	# (run in kind-node/pause, a directory outside any module, so that a .go file builds there too).
	go_install() {
		local name=$1 stamp="$gover $2" stamp_file=$out/.stamp-$1
		shift 2
		if ! $force && [[ -x $out/$name && -f $stamp_file && $(<"$stamp_file") == "$stamp" ]]; then
			log "step $name: up to date"
			return
		fi
		local t=$SECONDS
		log "step $name: go install $*"
		rm -f "$stamp_file"
		(cd "$here/../kind-node/pause" && GOBIN=$out GOFLAGS= nice -n 10 go install -trimpath -ldflags "-s -w" "$@")
		echo "$stamp" >"$stamp_file"
		log "step $name: done in $((SECONDS - t))s"
	}
	go_install kind "$KIND_VERSION" "sigs.k8s.io/kind@$KIND_VERSION"
	# containerd's go.mod has exclude directives, which `go install pkg@version` refuses: build inside
	# the module's directory in the module cache instead (read-only; its go.sum is complete).
	containerd_stamp="$gover $CONTAINERD_VERSION"
	if ! $force && [[ -x $out/containerd && -f $out/.stamp-containerd && $(<"$out/.stamp-containerd") == "$containerd_stamp" ]]; then
		log "step containerd: up to date"
	else
		t=$SECONDS
		log "step containerd: go build github.com/containerd/containerd/v2@$CONTAINERD_VERSION ./cmd/{containerd,ctr,containerd-shim-runc-v2}"
		rm -f "$out/.stamp-containerd"
		containerd_dir=$(cd "$here/../kind-node/pause" && GOFLAGS=-mod=mod go mod download -json \
			"github.com/containerd/containerd/v2@$CONTAINERD_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
		[[ -d $containerd_dir ]] || { echo "build.sh: cannot download github.com/containerd/containerd/v2@$CONTAINERD_VERSION" >&2; exit 1; }
		(cd "$containerd_dir" && nice -n 10 go build -mod=readonly -trimpath -tags "no_aufs no_zfs no_btrfs no_devmapper" \
			-ldflags "-s -w -X github.com/containerd/containerd/v2/version.Version=$CONTAINERD_VERSION" \
			-o "$out/" ./cmd/containerd ./cmd/ctr ./cmd/containerd-shim-runc-v2)
		echo "$containerd_stamp" >"$out/.stamp-containerd"
		log "step containerd: done in $((SECONDS - t))s"
	fi
	pause_src=$here/../kind-node/pause/pause.go
	go_install pause "$(sha256sum <"$pause_src" | cut -c1-16)" "$pause_src"
fi
log "all done in $((SECONDS - start))s"
