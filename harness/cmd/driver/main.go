// The plugin driver: one plugin of a build's scheduler driven directly over
// JSON lines on stdin/stdout (harness/driver, docs/contracts.md). Logs go to stderr.
package main

import (
	"flag"
	"fmt"
	"os"

	"k8s.io/klog/v2"

	"github.com/kube-scheduler-conformance/harness/driver"
	"github.com/kube-scheduler-conformance/harness/userplugins"
)

func main() {
	klog.InitFlags(nil)
	flag.Parse()
	if err := driver.Serve(os.Stdin, os.Stdout, userplugins.Registry); err != nil {
		fmt.Fprintln(os.Stderr, "driver:", err)
		os.Exit(1)
	}
}
