#!/bin/bash
# ExecStartPre of containerd in the node (files/containerd-oom.conf). Where the capability bounding set
# lacks CAP_SYS_RESOURCE (see kind-node/docker-setup.sh), no process in the node may lower an
# oom_score_adj; the kubelet asks -998 for the control-plane pods and runc then fails ("failed to update
# /proc/self/oom_score_adj: Permission denied"). restrict_oom_score_adj makes containerd's CRI clamp the
# value at containerd's own, as kind does for rootless nodes. Elsewhere the setting stays false.
set -eu
bounding=$(awk '/^CapBnd:/ {print $2}' /proc/self/status)
if (( (16#$bounding >> 24) & 1 )); then restrict=false; else restrict=true; fi
sed -i "s/restrict_oom_score_adj = .*/restrict_oom_score_adj = $restrict/" /etc/containerd/config.toml
