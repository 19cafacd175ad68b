//go:build !k8s134 && !k8s135

package runner

import "k8s.io/client-go/tools/events"

// profileRecorder is what profile.RecorderFactory returns since v1.36
// (compat_until135.go has the older one).
type profileRecorder = events.EventRecorderLogger
