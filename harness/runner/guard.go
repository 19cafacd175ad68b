package runner

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// guarded wraps the factories of the runner's own plugins so that one that
// panics while the scheduler is being built is a scenario error naming it,
// not a crash of the runner. The usual cause: a plugin that builds its own
// API client (CRD informers through controller-runtime) from
// Handle.KubeConfig(), which is nil here: the runner's API server is a fake
// clientset without an address.
func guarded(registry frameworkruntime.Registry) frameworkruntime.Registry {
	out := make(frameworkruntime.Registry, len(registry))
	for name, factory := range registry {
		out[name] = func(ctx context.Context, obj runtime.Object, h fwk.Handle) (pl fwk.Plugin, err error) {
			defer func() {
				if p := recover(); p != nil {
					hint := ""
					if h.KubeConfig() == nil {
						hint = " (Handle.KubeConfig() is nil: the in-process runner and the plugin driver have no " +
							"API server, so a plugin that builds its own client or informers from it cannot start " +
							"there; run it on a real API server with sched-conformance run --backend cluster)"
					}
					pl, err = nil, fmt.Errorf("plugin %s panicked while being built: %v%s", name, p, hint)
				}
			}()
			return factory(ctx, obj, h)
		}
	}
	return out
}
