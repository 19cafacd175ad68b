package runner

import (
	"context"
	"fmt"
	"sync"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/klog/v2"
	configv1 "k8s.io/kube-scheduler/config/v1"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/kube-scheduler-conformance/harness/fwk"
	"github.com/kube-scheduler-conformance/harness/probe"
)

// Options tune the runner itself; the scheduler only ever sees the scenario's config.
type Options struct {
	// Settle is how much virtual time without any API write, event, trace
	// record or pop must pass, with nothing busy, before a scenario counts as
	// finished. It covers timers the idle check cannot see.
	Settle time.Duration
	// Teardown bounds, in virtual time, the wait for binding cycles after a scenario.
	Teardown time.Duration
	// Watchdog bounds, in real time, one scenario: a plugin that never
	// returns (or spins without blocking) ends the runner with an error.
	Watchdog time.Duration
	// BindWait bounds, in real time, how long an extender's bind request
	// waits for the extender call it belongs to.
	BindWait time.Duration
	// Plugins are out-of-tree plugins registered beside the probes (their
	// names must differ from the probes').
	Plugins frameworkruntime.Registry
}

// DefaultOptions are the runner's defaults.
var DefaultOptions = Options{Settle: time.Second, Teardown: 10 * time.Second, Watchdog: 60 * time.Second,
	BindWait: 10 * time.Second}

// Runner runs scenarios one at a time, each inside a synctest bubble (see
// Serve): every timer of the scheduler runs on the bubble's virtual clock.
// Bind is called from outside the bubble, by the extender server.
type Runner struct {
	opts   Options
	serial sync.Mutex
	binds  chan bindRequest // outside any bubble: Bind sends, the extender wrapper receives
	status progress
}

// New must be called outside any bubble.
func New(opts Options) *Runner { return &Runner{opts: opts, binds: make(chan bindRequest)} }

// Result is what one scenario produced.
type Result struct {
	Outcome *Outcome
	// Start is the (virtual) instant the trace's and the bindings' t count from.
	Start         time.Time
	ExtenderCalls []ExtenderCall
}

// run is one scenario's scheduler and everything around it.
type run struct {
	runner   *Runner
	parent   context.Context
	cfg      *config.KubeSchedulerConfiguration
	observe  []string
	objs     *objects
	rec      *probe.Recorder
	act      *activity
	store    *store
	cycles   *cycles
	calls    *extenderCalls
	plugins  map[string]*configv1.Plugins
	applied  []TimelineEntry // the timeline's entries applied (faults: armed) so far
	versions int             // the timeline's writes so far: their resourceVersions

	restarts   chan struct{} // a restart fault stopped the scheduler (restart.go)
	restartErr error

	mu sync.Mutex
	// incarnations are the schedulers so far, the running one last (restart.go).
	incarnations []*incarnation
	// workload are the pods the outcome reports: the workload, then the
	// pending pods the timeline created, less the pods it deleted or a
	// vanish fault deleted.
	workload []*v1.Pod
	// victims maps a victim to its preemptor while a victim fault waits for its delete.
	victims map[string]string
}

// Run runs one scenario from a clean state; it must be called inside a
// synctest bubble. The error is for scenarios the scheduler refuses
// (invalid config, undecodable manifest); the scheduler's own failures are
// part of the outcome.
func (r *Runner) Run(parent context.Context, sc *Scenario) (*Result, error) {
	r.serial.Lock()
	defer r.serial.Unlock()
	r.status.watch(nil)
	r.status.set("decoding the scenario", time.Now(), "")
	objs, err := sc.decode()
	if err != nil {
		return nil, err
	}
	cfg, err := LoadConfig(sc.Config)
	if err != nil {
		return nil, err
	}
	if err := pointFaultsSupported(objs); err != nil {
		return nil, err
	}
	// A burst of writes (many pods, many victims) must not overflow the
	// informers' fake watch channels, which panic when full.
	watch.DefaultChanSize = int32(max(100, 16*(len(objs.existing)+len(objs.workload)+len(objs.timeline))))

	act := newActivity()
	rec := probe.NewRecorder()
	rec.OnRecord(act.poke)
	st := newStore(rec.Start(), objs.existing, act.poke)
	st.lagNodesOn = objs.hasLagFaults()
	rn := &run{runner: r, parent: parent, cfg: cfg, observe: sc.Observe, objs: objs, rec: rec, act: act, store: st,
		cycles: newCycles(act.poke), calls: &extenderCalls{rec: rec}, restarts: make(chan struct{}, 1),
		workload: append([]*v1.Pod(nil), objs.workload...), victims: map[string]string{}}
	defer func() {
		for _, inc := range rn.incarnations {
			inc.cancel()
			inc.factory.Shutdown()
		}
		awaitBackgroundStop()
		rec.Close()
	}()
	r.status.set("starting the scheduler", rec.Start(), "")
	inc, err := rn.newScheduler(parent)
	if err != nil {
		return nil, err
	}
	if rn.plugins, err = EffectivePlugins(inc.sched); err != nil {
		return nil, err
	}
	bindingBase := bindingCycles()

	r.status.set("creating the workload pods", rec.Start(), "")
	if err := rn.createWorkload(inc); err != nil {
		return nil, err
	}
	r.status.watch(rn.cycles)
	r.status.set("scheduling", rec.Start(), "")
	why, timelineErr := rn.play(&clock{
		deadline: rec.Start().Add(objs.deadline), settle: r.opts.Settle, act: act,
		busy: func() string {
			if rn.restarting() {
				return "a scheduler restart"
			}
			if n := st.lagging.Load(); n > 0 {
				return fmt.Sprintf("%d node watch events held back by a lag fault", n)
			}
			return busy(rn.current().sched, rn.cycles, bindingBase, rec, rn.workloadPods())
		},
		progress: func(step, busy string) { r.status.set(step, rec.Start(), busy) },
		restarts: rn.restarts, restart: rn.serviceRestart,
	}, func() { inc.loopDone = start(inc.ctx, inc.sched, rn.cycles) })
	if why != "" {
		klog.Background().V(2).Info("Scenario deadline reached while the scheduler was busy", "deadline", objs.deadline, "busy", why)
	}
	if timelineErr == nil {
		timelineErr = rn.restartErr
	}
	var out *Outcome
	if timelineErr == nil {
		out = rn.outcome()
	}

	r.status.set("tearing down (scheduling loop, binding cycles, plugins)", rec.Start(), why)
	for _, inc := range rn.incarnations {
		if inc.stopping.Load() {
			rn.stopIncarnation(inc) // a restart the deadline cut short
		}
		inc.cancel()
		if inc.loopDone != nil {
			<-inc.loopDone
		}
	}
	rn.stop(bindingBase, r.opts.Teardown)
	if timelineErr != nil {
		return nil, timelineErr
	}
	return &Result{Outcome: out, Start: rec.Start(), ExtenderCalls: rn.calls.list()}, nil
}

// workloadPods is a copy of the pods the outcome reports.
func (rn *run) workloadPods() []*v1.Pod {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return append([]*v1.Pod(nil), rn.workload...)
}

// synced waits until the informers have listed and the scheduler's event
// handlers have synced. After synctest.Wait both usually hold at once, so
// no virtual time passes before the workload exists.
func synced(factory informers.SharedInformerFactory, sched *scheduler.Scheduler) error {
	checkOnce := make(chan struct{})
	close(checkOnce)
	for i := 0; ; i++ {
		synctest.Wait()
		informersSynced := true
		for _, ok := range factory.WaitForCacheSync(checkOnce) {
			informersSynced = informersSynced && ok
		}
		ctx, stop := context.WithCancel(context.Background())
		stop()
		if informersSynced && sched.WaitForHandlersSync(ctx) == nil {
			return nil
		}
		if i == 1000 {
			return fmt.Errorf("the scheduler's informers and event handlers did not sync within %v of virtual time", 1000*pollInterval)
		}
		time.Sleep(pollInterval)
	}
}

// createWorkload creates the workload pods in order, 1 ns apart, and checks that the
// scheduler has queued every pod a profile is responsible for, so that all
// are in the queue, in creation order, before the first pop.
func (rn *run) createWorkload(inc *incarnation) error {
	ctx := inc.ctx
	for i, pod := range rn.objs.workload {
		if i > 0 {
			// The queue stamps each pod with the clock; on a virtual clock that
			// stands still, pods of equal priority would tie and pop in heap
			// order. 1 ns apart (after the previous pod was queued: the sleep
			// ends only when everything else is blocked) they pop in creation
			// order, as with a wall clock; t's microseconds do not show it.
			time.Sleep(time.Nanosecond)
		}
		if _, err := rn.store.client.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating workload pod %s: %w", podKey(pod), err)
		}
	}
	synctest.Wait()
	for _, pod := range rn.objs.workload {
		if !inc.sched.Profiles.HandlesSchedulerName(pod.Spec.SchedulerName) {
			continue
		}
		if _, ok := queuedPod(inc.sched, pod); !ok {
			return fmt.Errorf("workload pod %s did not reach the scheduling queue", podKey(pod))
		}
	}
	return nil
}

// start is sched.Run with a hook after each ScheduleOne, so that the runner
// knows when a scheduling cycle (including its failure handling) is over.
func start(ctx context.Context, sched *scheduler.Scheduler, c *cycles) <-chan struct{} {
	logger := klog.FromContext(ctx)
	sched.SchedulingQueue.Run(logger)
	if sched.APIDispatcher != nil {
		sched.APIDispatcher.Run(logger)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			sched.ScheduleOne(ctx)
			c.ended()
		}
	}()
	go func() {
		<-ctx.Done()
		if sched.APIDispatcher != nil {
			sched.APIDispatcher.Close()
		}
		sched.SchedulingQueue.Close()
	}()
	return done
}

// stop ends what outlives the scheduling loops: binding cycles blocked in
// WaitOnPermit (which ignores the context) are rejected, then binding cycles
// get `timeout` of virtual time to end, then the plugins of every scheduler
// are closed. The bubble itself waits for every other goroutine.
func (rn *run) stop(bindingBase float64, timeout time.Duration) {
	for _, inc := range rn.incarnations {
		for _, fw := range inc.sched.Profiles {
			fw.IterateOverWaitingPods(func(wp fwk.WaitingPod) { wp.Reject("runner", "scenario ended") })
		}
	}
	deadline := time.Now().Add(timeout)
	for synctest.Wait(); bindingCycles() > bindingBase && time.Now().Before(deadline); synctest.Wait() {
		time.Sleep(pollInterval)
	}
	for _, inc := range rn.incarnations {
		if err := inc.sched.Profiles.Close(); err != nil {
			klog.Background().Error(err, "Closing plugins")
		}
	}
}

// bind binds a pod through pods/binding for an extender's bind verb and
// returns the API error text, or "" on success. It runs inside the bubble.
func (rn *run) bind(req bindRequest) string {
	binding := &v1.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: req.namespace, Name: req.name, UID: types.UID(req.uid)},
		Target:     v1.ObjectReference{Kind: "Node", Name: req.node},
	}
	if err := rn.store.client.CoreV1().Pods(req.namespace).Bind(context.Background(), binding, metav1.CreateOptions{}); err != nil {
		return err.Error()
	}
	return ""
}

// Bind hands an extender's bind request to the extender call in flight (it
// binds inside the scenario's bubble) and returns the API error text, or ""
// when bound. Called outside the bubble.
func (r *Runner) Bind(namespace, name, uid, node string) string {
	req := bindRequest{namespace: namespace, name: name, uid: uid, node: node, reply: make(chan string, 1)}
	timer := time.NewTimer(r.opts.BindWait)
	defer timer.Stop()
	select {
	case r.binds <- req:
		return <-req.reply
	case <-timer.C:
		return fmt.Sprintf("no extender bind call was in flight in the runner within %v", r.opts.BindWait)
	}
}

// pollInterval paces the few virtual-time polls left (informer sync, teardown).
const pollInterval = time.Millisecond
