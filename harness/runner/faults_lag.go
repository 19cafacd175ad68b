package runner

import (
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/watch"
)

// A lag fault (docs/scenario.md, "Faults") delays a node's watch events: the
// API server (the tracker) holds each change at once, the scheduler's node
// informer receives it `delay` of virtual time later. The scheduler never
// writes nodes, so the node's events are the timeline's and vanish faults'.
// Each scheduler's node watch is wrapped (store.go, schedulerClient); a
// restarted scheduler lists the API server, so what the old one's watch
// still held back is dropped with it.

// lagOf is the first armed lag fault on node, or nil.
func (j *injector) lagOf(node string) *fault {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, f := range j.armed {
		if f.op == "lag" && f.node == node {
			return f.fault
		}
	}
	return nil
}

// lagged records that one of node's events (op: add, update, delete) is
// delivered f.delay late.
func (j *injector) lagged(f *fault, node, op string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	at := j.since()
	seen := at + f.delay.Seconds()
	j.firing = append(j.firing, FaultFiring{Index: f.index, At: at, Fault: "lag", Detail: op,
		Object: "Node/" + node, Seen: &seen})
}

// listed is a restart: the new scheduler lists the API server, so the
// events the old one's watch still held back are seen now.
func (j *injector) listed() {
	j.mu.Lock()
	defer j.mu.Unlock()
	now := j.since()
	for i := range j.firing {
		if seen := j.firing[i].Seen; seen != nil && *seen > now {
			j.firing[i].Seen = &now
		}
	}
}

// lagOps names watch event types as the firings do.
var lagOps = map[watch.EventType]string{watch.Added: "add", watch.Modified: "update", watch.Deleted: "delete"}

// lagWatch forwards a node watch, holding back the events of lagged nodes.
type lagWatch struct {
	in      watch.Interface
	out     chan watch.Event
	done    chan struct{}
	stopped sync.Once
	held    sync.WaitGroup
	// last[node] closes once the node's latest held event is delivered: the
	// next one waits for it, so a node's events keep their order.
	last map[string]chan struct{}
}

// lagNodes wraps w, a watch of sess's scheduler on nodes; pending counts the
// events held back (busy() waits for them), poke marks their delivery.
func (s *store) lagNodes(w watch.Interface, sess *session) watch.Interface {
	lw := &lagWatch{in: w, out: make(chan watch.Event), done: make(chan struct{}),
		last: map[string]chan struct{}{}}
	go func() {
		defer func() {
			lw.held.Wait()
			close(lw.out)
		}()
		for ev := range w.ResultChan() {
			acc, err := meta.Accessor(ev.Object)
			var f *fault
			if err == nil && !sess.stopped.Load() {
				f = s.faults.lagOf(acc.GetName())
			}
			if f == nil {
				if !lw.send(ev) {
					return
				}
				continue
			}
			s.faults.lagged(f, acc.GetName(), lagOps[ev.Type])
			s.lagging.Add(1)
			lw.hold(ev, acc.GetName(), f.delay, sess, &s.lagging, s.poke)
		}
	}()
	return lw
}

func (lw *lagWatch) send(ev watch.Event) bool {
	select {
	case lw.out <- ev:
		return true
	case <-lw.done:
		return false
	}
}

// hold delivers ev after delay, after the node's previous held event.
func (lw *lagWatch) hold(ev watch.Event, node string, delay time.Duration, sess *session,
	pending *atomic.Int64, poke func()) {
	prev, mine := lw.last[node], make(chan struct{})
	lw.last[node] = mine
	lw.held.Add(1)
	go func() {
		defer lw.held.Done()
		defer close(mine)
		defer pending.Add(-1)
		timer := time.NewTimer(delay)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-lw.done:
			return
		}
		if prev != nil {
			<-prev
		}
		if !sess.stopped.Load() {
			lw.send(ev)
		}
		poke()
	}()
}

func (lw *lagWatch) Stop() {
	lw.stopped.Do(func() {
		close(lw.done)
		lw.in.Stop()
	})
}

func (lw *lagWatch) ResultChan() <-chan watch.Event { return lw.out }
