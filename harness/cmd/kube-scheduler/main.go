// Command kube-scheduler is the stock upstream scheduler command. Probe plugins
// are registered here with app.WithPlugin so that they can be enabled from a
// KubeSchedulerConfiguration like any in-tree plugin.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // --logging-format=json
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go metrics
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
)

func main() {
	command := app.NewSchedulerCommand()
	os.Exit(cli.Run(command))
}
