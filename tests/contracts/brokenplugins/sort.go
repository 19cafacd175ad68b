//go:build !k8s135 && !k8s136

package broken

import fwk "k8s.io/kube-scheduler/framework"

// Less since v1.37 compares queued entities; sort_until136.go has the older
// one (the harness builds with the release's tag, harness/build.sh).
func (Sort) Less(a, b fwk.QueuedEntityInfo) bool { return a.GetPriority() >= b.GetPriority() }
