package runner

import (
	"fmt"
	"sync"
	"time"

	dto "github.com/prometheus/client_model/go"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/metrics"

	"github.com/kube-scheduler-conformance/harness/probe"
)

// cycles wraps the scheduler's NextEntity to see when a scheduling cycle runs
// and to read the queue's own attempt counter of every popped pod.
type cycles struct {
	mu       sync.Mutex
	running  bool
	attempts map[types.UID]int
}

func watchCycles(sched *scheduler.Scheduler) *cycles {
	c := &cycles{attempts: map[types.UID]int{}}
	onPop(sched, func(pInfo *framework.QueuedPodInfo) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.attempts[pInfo.Pod.UID] = pInfo.Attempts
		c.running = true
	})
	return c
}

// ended is called once ScheduleOne has returned.
func (c *cycles) ended() {
	c.mu.Lock()
	c.running = false
	c.mu.Unlock()
}

func (c *cycles) inCycle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}

func (c *cycles) attemptsOf(uid types.UID) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.attempts[uid]
}

// bindingCycles is the number of binding-cycle goroutines in the process
// (scheduler_goroutines{operation="binding"}: up from before WaitOnPermit to
// after the failure handling of a failed binding).
func bindingCycles() float64 {
	var m dto.Metric
	if err := metrics.Goroutines.WithLabelValues(metrics.Binding).Write(&m); err != nil {
		return 0
	}
	return m.GetGauge().GetValue()
}

// busy names what can still make progress on its own, "" when nothing: a
// scheduling or binding cycle runs, a pod is in activeQ or backoffQ (it will
// be retried) or in flight, a bound pod is not yet confirmed by the informer,
// or a probe's Permit signal is still to fire. Pods in the unschedulable pool
// wait for cluster events a static scenario never sends.
func busy(sched *scheduler.Scheduler, c *cycles, rec *probe.Recorder, workload []*v1.Pod, baseline float64) string {
	q := sched.SchedulingQueue
	switch {
	case c.inCycle():
		return "a scheduling cycle"
	case bindingCycles() > baseline:
		return fmt.Sprintf("%v binding cycles", bindingCycles()-baseline)
	case rec.PendingSignals() > 0:
		return fmt.Sprintf("%d Permit signals", rec.PendingSignals())
	case len(q.PodsInActiveQ()) > 0:
		return fmt.Sprintf("%d pods in activeQ", len(q.PodsInActiveQ()))
	case len(q.PodsInBackoffQ()) > 0:
		return fmt.Sprintf("%d pods in backoffQ", len(q.PodsInBackoffQ()))
	case len(q.InFlightPods()) > 0:
		return fmt.Sprintf("%d pods in flight", len(q.InFlightPods()))
	}
	for _, pod := range workload {
		if assumed, _ := sched.Cache.IsAssumedPod(pod); assumed {
			return "assumed pod " + podKey(pod)
		}
	}
	return ""
}

// waitQuiet polls until busy() has been "", and nothing was written, recorded
// or traced, for settle; or until deadline, when it returns what was still busy.
// The settle window covers what busy() cannot see: API writes still on their
// way through the informers, and the asynchronous preemption goroutine.
func waitQuiet(deadline time.Time, settle time.Duration, busy func() string, activity func() int) string {
	last, quietSince, why := -1, time.Time{}, ""
	for {
		now := time.Now()
		if now.After(deadline) {
			if why == "" {
				why = "API writes or trace records"
			}
			return why
		}
		act := activity()
		why = busy()
		switch {
		case why != "" || act != last:
			last, quietSince = act, time.Time{}
		case quietSince.IsZero():
			quietSince = now
		case now.Sub(quietSince) >= settle:
			return ""
		}
		time.Sleep(pollInterval)
	}
}

const pollInterval = time.Millisecond
