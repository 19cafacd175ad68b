package runner

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"testing/synctest"
	"time"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
)

// clock is how a run waits: until its deadline, idle after `settle` of
// virtual time without activity (waitIdle). While it waits, it restarts the
// scheduler when a restart fault asks (restart.go).
type clock struct {
	deadline time.Time
	settle   time.Duration
	act      *activity
	busy     func() string
	progress func(step, busy string)
	restarts <-chan struct{} // wakes the clock for a restart
	restart  func()          // restarts the scheduler if it was stopped, else returns at once
}

// idle waits as a run without a timeline ends; it reports what was busy and
// whether the deadline came first.
func (c *clock) idle(step string) (why string, late bool) {
	why = waitIdle(c.deadline, c.settle, c.act, c.busy, func(busy string) { c.progress(step, busy) }, c.restart)
	return why, !time.Now().Before(c.deadline)
}

// until lets the scheduler work until t (or not at all when t is past) and
// reports whether t came before the deadline. synctest.Wait lets whatever
// the instant woke run first, so an event lands between scheduler steps,
// never inside one a timer of the same instant started, and busy() is exact.
func (c *clock) until(t time.Time) bool {
	if t.After(c.deadline) {
		t = c.deadline
	}
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	for waiting := true; waiting; {
		select {
		case <-timer.C:
			waiting = false
		case <-c.restarts:
			c.restart()
		}
	}
	synctest.Wait()
	c.restart()
	return time.Now().Before(c.deadline)
}

// play applies the timeline in order, then waits until the scheduler is
// idle; it returns what was busy at the deadline ("" when idle). Events not
// applied by the deadline are not applied.
//
// A fault is armed before the scheduler's work of its instant (an event
// applies after it): faults at 0 that lead the timeline are armed before the
// scheduling loop starts (startLoop), a later one 1 ns before its time.
func (rn *run) play(c *clock, startLoop func()) (string, error) {
	started := false
	for i := range rn.objs.timeline {
		ev := &rn.objs.timeline[i]
		leading := !started && ev.fault != nil && !ev.idle && ev.at == 0
		if !started && !leading {
			startLoop()
			started = true
		}
		step := fmt.Sprintf("scheduling, timeline[%d] next", ev.index)
		c.progress(step, "")
		switch {
		case leading:
		case ev.idle:
			if why, late := c.idle(step); late {
				return why, nil
			}
		case ev.fault != nil:
			if !c.until(rn.rec.Start().Add(ev.at - time.Nanosecond)) {
				return c.busy(), nil
			}
		default:
			if !c.until(rn.rec.Start().Add(ev.at)) {
				return c.busy(), nil
			}
		}
		if ev.fault != nil {
			rn.store.faults.arm(ev.fault)
		} else if err := rn.apply(ev); err != nil {
			return "", fmt.Errorf("timeline[%d] (%s %s %s): %w", ev.index, ev.op, ev.kind, ev.key(), err)
		}
		rn.applied = append(rn.applied, TimelineEntry{Index: ev.index, At: rn.store.since()})
		c.act.poke() // the writes poked already; an update that changed nothing still restarts the settle
	}
	if !started {
		startLoop()
	}
	why, _ := c.idle("scheduling")
	return why, nil
}

func (rn *run) apply(ev *timelineEvent) error {
	switch ev.op {
	case "create":
		return rn.create(ev)
	case "update":
		return rn.update(ev)
	default:
		return rn.delete(ev)
	}
}

// invoke sends an action through the fake clientset exactly as its typed
// clients do (Pods(ns).UpdateResize is Invokes of an update action on the
// "resize" subresource, UpdateStatus on "status"), so the store's reactors
// and the informers' watches, hence upstream's event handlers, see it. One
// generic path serves every kind a timeline names.
func (rn *run) invoke(action clienttesting.Action) error {
	_, err := rn.store.client.Invokes(action, nil)
	return err
}

// create adds the object; a pending pod joins the workload (the outcome's pods).
func (rn *run) create(ev *timelineEvent) error {
	if err := rn.invoke(clienttesting.NewCreateAction(ev.gvr, ev.ns, ev.obj.DeepCopyObject())); err != nil {
		return err
	}
	if pod, ok := ev.obj.(*v1.Pod); ok && pod.Spec.NodeName == "" {
		rn.mu.Lock()
		rn.workload = append(rn.workload, pod)
		rn.mu.Unlock()
	}
	return nil
}

// delete removes the object at once (as with a zero grace period: no kubelet
// here). A deleted pod leaves the outcome's pods and is not one of the
// scheduler's deletions. A pod the scheduler deleted first (a preemption
// victim) is left as the scheduler's.
func (rn *run) delete(ev *timelineEvent) error {
	if ev.kind != "Pod" {
		return rn.invoke(clienttesting.NewDeleteAction(ev.gvr, ev.ns, ev.name))
	}
	err := rn.invoke(clienttesting.NewDeleteAction(ev.gvr, ev.ns, ev.name))
	if apierrors.IsNotFound(err) && rn.store.deletedByScheduler(ev.key()) {
		return nil
	}
	if err == nil {
		rn.dropPod(ev.key())
	}
	return err
}

// dropPod takes a pod deleted by someone else than the scheduler out of the outcome's pods.
func (rn *run) dropPod(key string) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	rn.workload = slices.DeleteFunc(rn.workload, func(p *v1.Pod) bool { return podKey(p) == key })
}

// update merges the patch into the object as stored now and writes the
// result as the API server takes it: metadata and spec through an update,
// a pod's container resources through the resize subresource, status
// through the status subresource (each write ignores the others' fields,
// so each is one watch event, as on a real cluster). Each write carries a
// new resourceVersion: upstream drops a pod update whose version did not
// change (eventhandlers.go, updatePodInSchedulingQueue), and the fake
// tracker sets none. The scheduler's own writes keep the version they
// found, as without a timeline.
func (rn *run) update(ev *timelineEvent) error {
	current, err := rn.store.client.Tracker().Get(ev.gvr, ev.ns, ev.name)
	if apierrors.IsNotFound(err) && ev.kind == "Pod" && rn.store.deletedByScheduler(ev.key()) {
		return nil
	}
	if err != nil {
		return err
	}
	old, err := json.Marshal(current)
	if err != nil {
		return err
	}
	merged, err := jsonpatch.MergePatch(old, ev.patch)
	if err != nil {
		return fmt.Errorf("patch: %w", err)
	}
	writes, err := splitWrites(ev.kind, old, merged)
	if err != nil {
		return err
	}
	for _, w := range writes {
		obj := reflect.New(reflect.TypeOf(current).Elem()).Interface().(runtime.Object)
		if err := json.Unmarshal(w.body, obj); err != nil {
			return fmt.Errorf("patch: the patched %s does not decode: %w", ev.kind, err)
		}
		setDefaults(obj)
		rn.versions++
		acc, _ := meta.Accessor(obj)
		acc.SetResourceVersion(strconv.Itoa(rn.versions)) // numeric: some caches parse it (assumecache)
		action := clienttesting.NewUpdateSubresourceAction(ev.gvr, w.subresource, ev.ns, obj)
		if err := rn.invoke(action); err != nil {
			return err
		}
	}
	return nil
}
