//go:build k8s134 || k8s135

package runner

import "k8s.io/client-go/tools/events"

// profileRecorder is what profile.RecorderFactory returns up to v1.35.
type profileRecorder = events.EventRecorder
