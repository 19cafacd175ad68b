// Command kube-scheduler is the stock upstream scheduler command with the probe
// plugins Probe0..Probe7 (probeapp) and a build's own plugins (userplugins)
// registered through app.WithPlugin, so that a KubeSchedulerConfiguration can
// enable them like any in-tree plugin. The probes' trace goes to the collector
// named in their args (docs/probes.md).
package main

import (
	"os"
	"sort"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // --logging-format=json
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go metrics
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric
	"k8s.io/kubernetes/cmd/kube-scheduler/app"

	"github.com/kube-scheduler-conformance/harness/probeapp"
	"github.com/kube-scheduler-conformance/harness/userplugins"
)

func main() {
	opts := probeapp.Options()
	names := make([]string, 0, len(userplugins.Registry))
	for name := range userplugins.Registry {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		opts = append(opts, app.WithPlugin(name, userplugins.Registry[name]))
	}
	os.Exit(cli.Run(app.NewSchedulerCommand(opts...)))
}
