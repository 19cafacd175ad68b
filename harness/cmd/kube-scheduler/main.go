// Command kube-scheduler is the stock upstream scheduler command with the probe
// plugins Probe0..Probe7 registered through app.WithPlugin, so that a
// KubeSchedulerConfiguration can enable them like any in-tree plugin. Their
// trace goes to the collector named in their args (docs/probes.md).
package main

import (
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // --logging-format=json
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go metrics
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric
	"k8s.io/kubernetes/cmd/kube-scheduler/app"

	"github.com/kube-scheduler-conformance/harness/probe"
)

func main() {
	rec := probe.NewRecorder()
	var opts []app.Option
	for _, name := range probe.Names {
		opts = append(opts, app.WithPlugin(name, probe.Factory(name, rec)))
	}
	command := app.NewSchedulerCommand(opts...)
	os.Exit(cli.Run(command))
}
