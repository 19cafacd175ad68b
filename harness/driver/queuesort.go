package driver

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// QueuedPod is a pod as the scheduling queue holds it; times are
// nanoseconds after a fixed epoch.
type QueuedPod struct {
	Pod                 json.RawMessage `json:"pod"`
	Timestamp           int64           `json:"timestamp"`
	Attempts            int             `json:"attempts"`
	UnschedulableCount  int             `json:"unschedulableCount"`
	BackoffExpiration   int64           `json:"backoffExpiration"`
	InitialAttemptDelta *int64          `json:"initialAttempt,omitempty"`
}

// queueEpoch is the instant QueuedPod times count from.
var queueEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// lessMatrix is Less over every ordered pair of queued pods.
func (s *sequence) lessMatrix(c Call) (Result, error) {
	pl, err := pluginAt[fwk.QueueSortPlugin](s.d, "QueueSort")
	if err != nil {
		return Result{}, err
	}
	infos := make([]queuedInfo, len(c.Queued))
	for i, q := range c.Queued {
		pod, err := s.pod(q.Pod)
		if err != nil {
			return Result{}, fmt.Errorf("queued[%d]: %v", i, err)
		}
		info, err := queued(pod, q)
		if err != nil {
			return Result{}, fmt.Errorf("queued[%d]: %v", i, err)
		}
		infos[i] = info
	}
	out := Result{Code: fwk.Success.String(), Less: make([][]bool, len(infos))}
	for i := range infos {
		out.Less[i] = make([]bool, len(infos))
		for j := range infos {
			out.Less[i][j] = pl.Less(infos[i], infos[j])
		}
	}
	return out, nil
}
