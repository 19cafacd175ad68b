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
	return read(metrics.Goroutines.WithLabelValues(metrics.Binding)).GetGauge().GetValue()
}

// preemptions counts asynchronous preemptions started (each observes its
// victims first) and finished (each counts its result last).
func preemptions() (started, finished float64) {
	started = float64(read(metrics.PreemptionVictims.ObserverMetric).GetHistogram().GetSampleCount())
	for _, result := range []string{metrics.GoroutineResultSuccess, metrics.GoroutineResultError} {
		finished += read(metrics.PreemptionGoroutinesExecutionTotal.WithLabelValues(result)).GetCounter().GetValue()
	}
	return started, finished
}

func read(metric any) *dto.Metric {
	var m dto.Metric
	if w, ok := metric.(interface{ Write(*dto.Metric) error }); ok {
		_ = w.Write(&m)
	}
	return &m
}

// goroutines are the scheduler's own goroutines a scenario waits for.
type goroutines struct {
	binding, preempting float64 // process-wide counts when the scenario started
	lastStart           time.Time
	lastStarted         float64
}

func countGoroutines() *goroutines {
	started, finished := preemptions()
	return &goroutines{binding: bindingCycles(), preempting: started - finished, lastStarted: started}
}

// running names the binding cycles and asynchronous preemptions this
// scenario started that have not ended. A preemption without victims to
// delete starts no goroutine yet counts as started, so an unfinished count
// that has not moved for a second is not waited for.
func (g *goroutines) running(now time.Time) string {
	if n := bindingCycles() - g.binding; n > 0 {
		return fmt.Sprintf("%v binding cycles", n)
	}
	started, finished := preemptions()
	if started != g.lastStarted {
		g.lastStarted, g.lastStart = started, now
	}
	if n := started - finished - g.preempting; n > 0 && now.Sub(g.lastStart) < time.Second {
		return fmt.Sprintf("%v asynchronous preemptions", n)
	}
	return ""
}

// busy names what can still make progress on its own, "" when nothing: a
// scheduling or binding cycle or an asynchronous preemption runs, a pod is in
// activeQ or backoffQ (it will be retried) or in flight, a bound pod is not yet confirmed by the informer,
// or a probe's Permit signal is still to fire. Pods in the unschedulable pool
// wait for cluster events a static scenario never sends.
func busy(sched *scheduler.Scheduler, c *cycles, g *goroutines, rec *probe.Recorder, workload []*v1.Pod) string {
	q := sched.SchedulingQueue
	if c.inCycle() {
		return "a scheduling cycle"
	}
	if running := g.running(time.Now()); running != "" {
		return running
	}
	switch {
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

// lagging names a write the scheduler has not seen yet, "" when none: a deleted
// pod still in its cache, a bound workload pod whose cached version is older
// than the store's, or a queued one whose queued version is. Checked once the
// settle window is over, as it reads every workload pod from the store.
func lagging(sched *scheduler.Scheduler, st *store, workload []*v1.Pod) string {
	for _, pod := range st.deletedPods() {
		if _, err := sched.Cache.GetPod(pod); err == nil {
			return "the deletion of " + podKey(pod)
		}
	}
	for _, pod := range workload {
		obj, err := st.client.Tracker().Get(podsResource, pod.Namespace, pod.Name)
		if err != nil {
			continue
		}
		stored := obj.(*v1.Pod)
		seen := ""
		if stored.Spec.NodeName != "" {
			if cached, err := sched.Cache.GetPod(stored); err == nil {
				seen = cached.ResourceVersion
			}
		} else if !sched.Profiles.HandlesSchedulerName(stored.Spec.SchedulerName) {
			continue
		} else if queued, ok := queuedPod(sched, stored); ok {
			seen = queued.Pod.ResourceVersion
		}
		if seen != stored.ResourceVersion {
			return "the latest version of " + podKey(stored)
		}
	}
	return ""
}

// waitQuiet polls until busy() has been "", and nothing was written, recorded
// or traced, for settle, and nothing is lagging; or until deadline, when it
// returns what was still busy. The settle window covers what the checks
// cannot see.
func waitQuiet(deadline time.Time, settle time.Duration, busy func() string, activity func() int, lagging func() string) string {
	last, quietSince, why := -1, time.Time{}, ""
	for {
		now := time.Now()
		if now.After(deadline) {
			if why == "" {
				why = "API writes or trace records still coming"
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
			if why = lagging(); why == "" {
				return ""
			}
			why = "informers to deliver " + why
			quietSince = time.Time{}
		}
		time.Sleep(pollInterval)
	}
}

const pollInterval = time.Millisecond
