//go:build k8s134

package runner

import (
	"time"
	_ "unsafe" // go:linkname

	_ "k8s.io/client-go/tools/cache" // the package neverExitWatch belongs to
)

// client-go v0.34's reflectors without a resync period wait on
// neverExitWatch, one channel made when the package was initialised: outside
// every bubble, so a reflector waiting on it is never durably blocked and
// synctest.Wait never returns. v0.35 waits on a nil channel instead
// (reflector.go, resyncChan); so does the runner on v1.34.
//
//go:linkname neverExitWatch k8s.io/client-go/tools/cache.neverExitWatch
var neverExitWatch <-chan time.Time

func init() { neverExitWatch = nil }
