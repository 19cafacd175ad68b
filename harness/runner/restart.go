package runner

import (
	"context"
	"fmt"

	"k8s.io/client-go/informers"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"

	"github.com/kube-scheduler-conformance/harness/fwk"
	"github.com/kube-scheduler-conformance/harness/probe"
)

// incarnation is one scheduler process of a run: a restart fault (faults.go)
// stops it and starts the next on the same objects, inside the same bubble,
// with nothing carried over but what the API server holds.
type incarnation struct {
	sess     *session
	ctx      context.Context
	cancel   context.CancelFunc
	factory  informers.SharedInformerFactory
	sched    *scheduler.Scheduler
	loopDone <-chan struct{}
}

// newScheduler builds a scheduler on a client of its own, with fresh
// informers, probes (recording into the run's trace) and plugins, and waits
// until its informers have synced; its scheduling loop is not started.
func (rn *run) newScheduler(parent context.Context) (*incarnation, error) {
	inc := &incarnation{sess: &session{}}
	client := rn.store.schedulerClient(inc.sess)
	inc.ctx, inc.cancel = context.WithCancel(parent)
	inc.factory = newInformerFactory(client)
	registry := probe.Registry(rn.rec)
	if err := registry.Merge(guarded(rn.runner.opts.Plugins)); err != nil {
		inc.cancel()
		return nil, fmt.Errorf("registering the runner's plugins beside the probes: %w", err)
	}
	opts := append(schedulerOptions(rn.cfg), scheduler.WithFrameworkOutOfTreeRegistry(registry))
	sched, err := scheduler.New(inc.ctx, client, inc.factory, nil, rn.store.recorderFactory(inc.sess), opts...)
	if err != nil {
		inc.cancel()
		return nil, err
	}
	inc.sched = sched
	rn.mu.Lock()
	rn.incarnations = append(rn.incarnations, inc)
	rn.mu.Unlock()
	if err := rn.hookPreemption(inc); err != nil {
		return nil, err
	}
	if len(rn.observe) > 0 {
		if err := observePlugins(sched, probe.NewObserver(rn.rec), observedNames(rn.observe)); err != nil {
			return nil, err
		}
	}
	rn.cycles.watch(sched, inc.sess)
	wrapExtenders(sched, rn.calls, rn.runner.binds, rn.bind)
	rn.hookPoints(inc)
	inc.factory.Start(inc.ctx.Done())
	return inc, synced(inc.factory, sched)
}

// current is the scheduler running now (or stopped and about to be replaced).
func (rn *run) current() *incarnation {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.incarnations[len(rn.incarnations)-1]
}

// requestRestart stops inc at once, from any of its goroutines: it makes no
// API call, event or trace record from now on. The run's own goroutine
// starts the next scheduler (restart), since only it may synctest.Wait.
func (rn *run) requestRestart(inc *incarnation) {
	if inc.sess.stopped.Swap(true) {
		return
	}
	rn.rec.Silence()
	inc.cancel()
	select {
	case rn.restarts <- struct{}{}:
	default:
	}
	rn.act.poke()
}

// restarting reports whether the current scheduler was stopped and waits for its successor.
func (rn *run) restarting() bool { return rn.current().sess.stopped.Load() }

// restart replaces the stopped scheduler. Its scheduling loop ends (its
// context is cancelled), its waiting pods are rejected so that its binding
// cycles end (their calls refused, their records silenced), its informers
// stop; its plugins are closed at teardown with the others.
func (rn *run) restart() error {
	old := rn.current()
	if !old.sess.stopped.Load() {
		return nil
	}
	<-old.loopDone
	for _, fw := range old.sched.Profiles {
		fw.IterateOverWaitingPods(func(wp fwk.WaitingPod) { wp.Reject("runner", "scheduler restarted") })
	}
	old.factory.Shutdown()
	inc, err := rn.newScheduler(rn.parent)
	if err != nil {
		return fmt.Errorf("restarting the scheduler: %w", err)
	}
	inc.loopDone = start(inc.ctx, inc.sched, rn.cycles)
	klog.Background().V(2).Info("Scheduler restarted", "incarnation", len(rn.incarnations))
	return nil
}

// serviceRestart restarts the scheduler if it was stopped; rn.restarts only wakes the waiting clock.
func (rn *run) serviceRestart() {
	select {
	case <-rn.restarts:
	default:
	}
	if err := rn.restart(); err != nil && rn.restartErr == nil {
		rn.restartErr = err
	}
}
