//go:build tools

// Package nodebin pins the Kubernetes node binaries of the kind node image (kubelet, kubeadm, kubectl,
// kube-controller-manager) to the release the harness builds against. The main packages are built with
// `go build k8s.io/kubernetes/cmd/<name>` from this module (see ../build-binaries.sh); these imports only
// keep their dependencies in go.mod and go.sum.
package nodebin

import (
	_ "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	_ "k8s.io/kubernetes/cmd/kubeadm/app"
	_ "k8s.io/kubernetes/cmd/kubelet/app"
	_ "k8s.io/kubectl/pkg/cmd"
)
