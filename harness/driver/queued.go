package driver

import (
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// queueEpoch is the instant QueuedPod times count from.
var queueEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// queued is the QueuedPodInfo the scheduling queue would hold for pod.
func queued(pod *v1.Pod, q QueuedPod) (*framework.QueuedPodInfo, error) {
	info, err := framework.NewPodInfo(pod)
	if err != nil {
		return nil, err
	}
	params := framework.QueueingParams{
		Timestamp:          queueEpoch.Add(time.Duration(q.Timestamp)),
		Attempts:           q.Attempts,
		UnschedulableCount: q.UnschedulableCount,
		BackoffExpiration:  queueEpoch.Add(time.Duration(q.BackoffExpiration)),
	}
	if q.InitialAttemptDelta != nil {
		t := queueEpoch.Add(time.Duration(*q.InitialAttemptDelta))
		params.InitialAttemptTimestamp = &t
	}
	return &framework.QueuedPodInfo{PodInfo: info, QueueingParams: params}, nil
}
