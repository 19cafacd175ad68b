package runner

import (
	"context"
	"fmt"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	configv1 "k8s.io/kube-scheduler/config/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"

	"github.com/kube-scheduler-conformance/harness/probe"
)

// Options tune the runner itself; the scheduler only ever sees the scenario's config.
type Options struct {
	// Settle is how long the scheduler must stay idle, with no API write,
	// event or trace record, before the scenario counts as finished.
	Settle time.Duration
	// Teardown bounds the wait for binding cycles after the scenario ends.
	Teardown time.Duration
}

// DefaultOptions are the runner's defaults.
var DefaultOptions = Options{Settle: 5 * time.Millisecond, Teardown: 10 * time.Second}

// Runner runs scenarios one at a time; Bind may be called concurrently, by
// the extender server, while a scenario runs.
type Runner struct {
	opts    Options
	serial  sync.Mutex
	mu      sync.Mutex
	current *run
}

func New(opts Options) *Runner { return &Runner{opts: opts} }

// run is one scenario's scheduler and everything around it.
type run struct {
	objs    *objects
	rec     *probe.Recorder
	store   *store
	sched   *scheduler.Scheduler
	cycles  *cycles
	plugins map[string]*configv1.Plugins
}

// Run runs one scenario from a clean state. The error is for scenarios the
// scheduler refuses (invalid config, undecodable manifest); the scheduler's
// own failures are part of the outcome. It also returns when the trace clock started.
func (r *Runner) Run(parent context.Context, sc *Scenario) (*Outcome, time.Time, error) {
	r.serial.Lock()
	defer r.serial.Unlock()
	objs, err := sc.decode()
	if err != nil {
		return nil, time.Time{}, err
	}
	cfg, err := LoadConfig(sc.Config)
	if err != nil {
		return nil, time.Time{}, err
	}
	// A burst of writes (many pods, many victims) must not overflow the
	// informers' fake watch channels, which panic when full.
	watch.DefaultChanSize = int32(max(100, 16*(len(objs.existing)+len(objs.workload))))

	ctx, cancel := context.WithCancel(parent)
	rec := probe.NewRecorder()
	st := newStore(rec.Start(), objs.existing)
	informerFactory := newInformerFactory(st.client)
	defer func() {
		cancel()
		informerFactory.Shutdown()
		rec.Close()
	}()
	opts := append(schedulerOptions(cfg), scheduler.WithFrameworkOutOfTreeRegistry(probe.Registry(rec)))
	sched, err := scheduler.New(ctx, st.client, informerFactory, nil, st.recorderFactory, opts...)
	if err != nil {
		return nil, time.Time{}, err
	}
	plugins, err := EffectivePlugins(sched)
	if err != nil {
		return nil, time.Time{}, err
	}
	rn := &run{objs: objs, rec: rec, store: st, sched: sched, cycles: watchCycles(sched), plugins: plugins}
	counts := countGoroutines()

	informerFactory.Start(ctx.Done())
	informerFactory.WaitForCacheSync(ctx.Done())
	if err := handlersSynced(ctx, sched); err != nil {
		return nil, time.Time{}, err
	}
	if err := rn.createWorkload(ctx); err != nil {
		return nil, time.Time{}, err
	}
	r.setCurrent(rn)
	defer r.setCurrent(nil)
	loopDone := start(ctx, sched, rn.cycles)

	if why := waitQuiet(rec.Start().Add(objs.deadline), r.opts.Settle,
		func() string { return busy(sched, rn.cycles, counts, rec, objs.workload) },
		func() int { return st.activity() + rec.Seq() },
		func() string { return lagging(sched, st, objs.workload) }); why != "" {
		klog.Background().Info("Scenario deadline reached while the scheduler was busy", "deadline", objs.deadline, "busy", why)
	}
	out := rn.outcome()

	cancel()
	<-loopDone
	rn.stop(counts, r.opts.Teardown)
	return out, rec.Start(), nil
}

// handlersSynced is sched.WaitForHandlersSync without its 100 ms polling period.
func handlersSynced(ctx context.Context, sched *scheduler.Scheduler) error {
	for {
		checkOnce, stop := context.WithCancel(ctx)
		stop()
		if sched.WaitForHandlersSync(checkOnce) == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("waiting for the scheduler's event handlers: %w", ctx.Err())
		}
		time.Sleep(pollInterval)
	}
}

// createWorkload creates the workload pods in order and waits until the
// scheduler has queued every pod a profile is responsible for, so that all
// are in the queue, in creation order, before the first pop.
func (rn *run) createWorkload(ctx context.Context) error {
	for _, pod := range rn.objs.workload {
		if _, err := rn.store.client.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating workload pod %s: %w", podKey(pod), err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pod := range rn.objs.workload {
		if !rn.sched.Profiles.HandlesSchedulerName(pod.Spec.SchedulerName) {
			continue
		}
		for {
			if _, ok := queuedPod(rn.sched, pod); ok {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("workload pod %s did not reach the scheduling queue in 10s", podKey(pod))
			}
			time.Sleep(pollInterval)
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

// stop ends what outlives the scheduling loop: binding cycles blocked in
// WaitOnPermit (which ignores the context) are rejected, then binding cycles
// and asynchronous preemptions are awaited, then the plugins closed.
func (rn *run) stop(counts *goroutines, timeout time.Duration) {
	for _, fw := range rn.sched.Profiles {
		fw.IterateOverWaitingPods(func(wp fwk.WaitingPod) { wp.Reject("runner", "scenario ended") })
	}
	deadline := time.Now().Add(timeout)
	for now := time.Now(); counts.running(now) != "" && now.Before(deadline); now = time.Now() {
		time.Sleep(pollInterval)
	}
	if err := rn.sched.Profiles.Close(); err != nil {
		klog.Background().Error(err, "Closing plugins")
	}
}

func (r *Runner) setCurrent(rn *run) {
	r.mu.Lock()
	r.current = rn
	r.mu.Unlock()
}

// Bind binds a pod in the running scenario's store through pods/binding, for
// an extender's bind verb (which binds through the API server itself). It
// returns the API error text, or "" on success.
func (r *Runner) Bind(namespace, name, uid, node string) string {
	r.mu.Lock()
	rn := r.current
	r.mu.Unlock()
	if rn == nil {
		return "no scenario is running in the runner"
	}
	binding := &v1.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, UID: types.UID(uid)},
		Target:     v1.ObjectReference{Kind: "Node", Name: node},
	}
	if err := rn.store.client.CoreV1().Pods(namespace).Bind(context.Background(), binding, metav1.CreateOptions{}); err != nil {
		return err.Error()
	}
	return ""
}
