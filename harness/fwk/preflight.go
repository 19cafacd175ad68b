//go:build !k8s134 && !k8s135

package fwk

import upstream "k8s.io/kube-scheduler/framework"

// PreBindPreFlight returns a result besides its status since v1.36.
type PreBindPreFlightResult = upstream.PreBindPreFlightResult
