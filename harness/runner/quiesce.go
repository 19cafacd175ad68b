package runner

import (
	"fmt"
	"sync"
	"testing/synctest"
	"time"

	dto "github.com/prometheus/client_model/go"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/metrics"

	"github.com/kube-scheduler-conformance/harness/probe"
)

// activity wakes the idle check: every API write, event, trace record, pop
// and end of a scheduling cycle pokes it. Created inside the bubble.
type activity struct{ ch chan struct{} }

func newActivity() *activity { return &activity{ch: make(chan struct{}, 1)} }

func (a *activity) poke() {
	select {
	case a.ch <- struct{}{}:
	default:
	}
}

// drained reports whether anything poked since the last call.
func (a *activity) drained() bool {
	select {
	case <-a.ch:
		return true
	default:
		return false
	}
}

// cycles wraps the scheduler's NextEntity to see when a scheduling cycle runs
// and to read the queue's own attempt counter of every popped pod.
type cycles struct {
	mu       sync.Mutex
	running  bool
	current  string // the pod of the running cycle
	attempts map[types.UID]int
	hot      map[types.UID]hotLoop
	poke     func()
}

// hotLoop holds a pod's last pop times on the virtual clock.
type hotLoop []time.Time

// A pod can be retried without any time passing: rejected at Permit by a
// zero timeout, it is requeued by the in-flight update of its own nomination
// and popped from backoffQ at once (SchedulerPopFromBackoffQ) while activeQ is
// empty. Upstream spins there for as long as it runs; on a virtual clock that
// nothing advances, the deadline would never come. So a pod popped
// hotLoopPops times within hotLoopWindow pays hotLoopCost of virtual time per
// further pop, as a spinning scheduler pays wall time. The reference stops
// such a pod after 8 attempts (its max_attempts).
const (
	hotLoopPops   = 8
	hotLoopWindow = time.Second
	hotLoopCost   = time.Second
)

func newCycles(poke func()) *cycles {
	return &cycles{attempts: map[types.UID]int{}, hot: map[types.UID]hotLoop{}, poke: poke}
}

// watch sees the pops of sched, a scheduler of the run, while it is not
// stopped. A pod's attempts are its queue's count: after a restart, the new
// scheduler's (the probes' trace counts on).
func (c *cycles) watch(sched *scheduler.Scheduler, sess *session) {
	onPop(sched, func(pInfo *framework.QueuedPodInfo) {
		if sess.stopped.Load() {
			return
		}
		if c.spinning(pInfo.Pod.UID) {
			time.Sleep(hotLoopCost) // in the scheduling loop: the clock moves once all else is blocked
		}
		c.mu.Lock()
		c.attempts[pInfo.Pod.UID] = pInfo.Attempts
		c.running, c.current = true, podKey(pInfo.Pod)
		c.mu.Unlock()
		c.poke()
	})
}

// ended is called once ScheduleOne has returned.
func (c *cycles) ended() {
	c.mu.Lock()
	c.running = false
	c.mu.Unlock()
	c.poke()
}

func (c *cycles) inCycle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}

// String names the running cycle; safe outside the bubble (the watchdog).
func (c *cycles) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.running {
		return ""
	}
	return "the scheduling cycle of " + c.current + " runs"
}

func (c *cycles) attemptsOf(uid types.UID) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.attempts[uid]
}

// spinning records a pop and reports whether the pod is in a hot loop.
func (c *cycles) spinning(uid types.UID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	pops := append(c.hot[uid], now)
	if len(pops) > hotLoopPops {
		pops = pops[1:]
	}
	c.hot[uid] = pops
	return len(pops) == hotLoopPops && now.Sub(pops[0]) < hotLoopWindow
}

// bindingCycles is the number of binding-cycle goroutines in the process
// (scheduler_goroutines{operation="binding"}: up from before WaitOnPermit to
// after the failure handling of a failed binding). One scenario runs at a
// time, so the difference to the count at its start is its own.
func bindingCycles() float64 {
	var m dto.Metric
	_ = metrics.Goroutines.WithLabelValues(metrics.Binding).Write(&m)
	return m.GetGauge().GetValue()
}

// busy names what can still make progress on its own, "" when nothing. It
// is exact right after synctest.Wait, when every goroutine of the scenario is
// blocked: then only a timer can move a scheduling cycle blocked in a plugin,
// a binding cycle (WaitOnPermit, a slow plugin), a probe's Permit signal or a
// pod in backoffQ. A pod in activeQ or in flight, or an assumed workload pod
// (a pending pod the timeline created included), means a cycle is under way.
// Pods in the unschedulable pool wait for cluster events, which only the
// timeline sends, between idle checks (the 5-minute leftover flush is beyond
// any deadline the suite uses).
func busy(sched *scheduler.Scheduler, c *cycles, bindingBase float64, rec *probe.Recorder, workload []*v1.Pod) string {
	q := sched.SchedulingQueue
	if c.inCycle() {
		return "a scheduling cycle"
	}
	if n := bindingCycles() - bindingBase; n > 0 {
		return fmt.Sprintf("%v binding cycles", n)
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

// waitIdle runs the scenario's clock until the scheduler is idle or the
// deadline comes, and returns what was still busy at the deadline ("" when
// idle). After synctest.Wait nothing moves until a timer fires, so busy() is
// exact and no wall-clock settle window is needed; the clock then jumps to the
// next timer (backoff, Permit timeouts, probe signals, the scheduler's own
// periodic flushes). Idle also needs `settle` of virtual time without
// activity, for timers busy() cannot see (a plugin's own); that costs no real
// time.
func waitIdle(deadline time.Time, settle time.Duration, act *activity, busy func() string, progress func(string),
	restart func()) string {
	lastActive := time.Now()
	for {
		synctest.Wait()
		restart() // a restart request pokes act: its loop turn restarts the scheduler
		now := time.Now()
		if act.drained() {
			lastActive = now
		}
		why := busy()
		progress(why)
		if why == "" && now.Sub(lastActive) >= settle {
			return ""
		}
		if !now.Before(deadline) {
			return why
		}
		next := now.Add(settle)
		if why == "" {
			next = lastActive.Add(settle)
		}
		if deadline.Before(next) {
			next = deadline
		}
		timer := time.NewTimer(next.Sub(now))
		select {
		case <-act.ch:
			lastActive = time.Now()
		case <-timer.C:
		}
		timer.Stop()
	}
}
