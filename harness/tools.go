//go:build tools

// Package tools pins the control-plane binaries that build.sh --control-plane
// builds, so that go.mod and go.sum cover them and stay tidy.
package tools

import (
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
