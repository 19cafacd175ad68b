// Package userplugins holds the out-of-tree plugins a build adds beside the
// probes. A user's build (conformance/builds) writes zz_generated.go here,
// one init assignment per registration; the committed tree registers none.
package userplugins

import frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

// Registry maps plugin names to factories; both the runner and the probe
// kube-scheduler register every entry.
var Registry = frameworkruntime.Registry{}
