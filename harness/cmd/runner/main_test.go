//go:build runner

// The runner binary is this package's test binary, built by build.sh with
// `go test -c -tags runner`: testing/synctest bubbles, which put every timer of
// the scheduler on a virtual clock, exist only inside tests (Go 1.26 has
// synctest.Test and no Run). It speaks the JSON-lines protocol of
// runner.Serve on stdin and stdout.
package main

import (
	"flag"
	"os"
	"testing"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/klog/v2"

	"github.com/kube-scheduler-conformance/harness/runner"
	"github.com/kube-scheduler-conformance/harness/userplugins"
)

var opts = runner.DefaultOptions

func init() {
	klog.InitFlags(nil)
	flag.DurationVar(&opts.Settle, "settle", opts.Settle, "virtual time with nothing busy and no activity that ends a scenario")
	flag.DurationVar(&opts.Teardown, "teardown", opts.Teardown, "virtual time binding cycles get to end after a scenario")
	flag.DurationVar(&opts.Watchdog, "watchdog", opts.Watchdog, "real time after which a scenario that does not end stops the runner")
	flag.DurationVar(&opts.BindWait, "bind-wait", opts.BindWait, "real time a bind request waits for its extender call")
	// As kube-scheduler's --feature-gates: set before any scenario, so the registry and the scheduler read
	// them. `sched-conformance diff --feature-gates` pins gates whose defaults differ between two releases.
	flag.Func("feature-gates", "A=true,B=false: feature gates, as kube-scheduler --feature-gates",
		utilfeature.DefaultMutableFeatureGate.Set)
}

var responses = os.Stdout

// TestMain keeps stdout for responses: what the testing package prints goes to stderr.
func TestMain(m *testing.M) {
	os.Stdout = os.Stderr
	os.Exit(m.Run())
}

func TestServe(t *testing.T) {
	opts.Plugins = userplugins.Registry
	if code := runner.Serve(t, os.Stdin, responses, runner.New(opts)); code != 0 {
		os.Exit(code)
	}
}
