package runner

import (
	"os"
	"os/signal"
	"syscall"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// Process-wide settings every synctest bubble of a runner needs, made before
// the first bubble.
func init() {
	// The scheduler cache's debugger calls signal.Notify in every scenario; the
	// runtime creates its signal-delivery state on the first call, which must
	// not happen inside a bubble.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGUSR2)
	// utilruntime.HandleError paces itself with a global 1 ms sleep, often
	// called with a lock held (the scheduling queue's, around PreEnqueue). On a
	// bubble's clock, which restarts at 2000-01-01 for every scenario, the
	// pacing sleeps for as long as the last error lies in the future, and a
	// goroutine waiting for that lock (not durably blocked) stops the clock:
	// a livelock. Errors are still logged; only the pacing goes.
	utilruntime.ErrorHandlers = utilruntime.ErrorHandlers[:1]
}
