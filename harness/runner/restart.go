package runner

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing/synctest"

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
	// stopping: a restart fault fired; its goroutine (and any other that
	// reaches a restart) waits on released until the scheduler is stopped.
	stopping atomic.Bool
	released chan struct{}
	stopOnce sync.Once
}

// newScheduler builds a scheduler on a client of its own, with fresh
// informers, probes (recording into the run's trace) and plugins, and waits
// until its informers have synced; its scheduling loop is not started.
func (rn *run) newScheduler(parent context.Context) (*incarnation, error) {
	inc := &incarnation{sess: &session{}, released: make(chan struct{})}
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

// requestRestart is a restart fault firing in one of inc's goroutines: that
// goroutine stops where it is (it waits, durably blocked, until inc is
// stopped), and the run's own goroutine, which alone may synctest.Wait, lets
// every other goroutine of inc go on until it blocks at this virtual instant
// (a binding under way lands, or not, the same in every run), then stops inc
// and starts the next scheduler (restart). It returns once inc is stopped.
func (rn *run) requestRestart(inc *incarnation) {
	if !inc.stopping.Swap(true) {
		select {
		case rn.restarts <- struct{}{}:
		default:
		}
		rn.act.poke()
	}
	<-inc.released
}

// stop stops inc at once: from now on it makes no API call, event or trace
// record, its context is cancelled, and the goroutines held at a restart go on
// (into failure paths nobody sees).
func (rn *run) stopIncarnation(inc *incarnation) {
	inc.stopOnce.Do(func() {
		inc.stopping.Store(true)
		inc.sess.stopped.Store(true)
		rn.rec.Silence()
		inc.cancel()
		close(inc.released)
	})
}

// restarting reports whether a restart fault fired in the current scheduler and waits for its successor.
func (rn *run) restarting() bool { return rn.current().stopping.Load() }

// restart replaces a scheduler a restart fault fired in. Once the rest of it
// has settled, it is stopped; its scheduling loop ends (its context is
// cancelled), its waiting pods are rejected so that its binding cycles end
// (their calls refused, their records silenced), its informers stop; its
// plugins are closed at teardown with the others.
func (rn *run) restart() error {
	old := rn.current()
	if !old.stopping.Load() {
		return nil
	}
	synctest.Wait()
	rn.stopIncarnation(old)
	<-old.loopDone
	for _, fw := range old.sched.Profiles {
		fw.IterateOverWaitingPods(func(wp fwk.WaitingPod) { wp.Reject("runner", "scheduler restarted") })
	}
	old.factory.Shutdown()
	rn.store.faults.listed()
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
