package probe

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"sync"
	"time"

	"k8s.io/klog/v2"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// CycleKey is the CycleState key of the probes' cycle mark.
const CycleKey fwk.StateKey = "sched-conformance.io/cycle"

// cycleMark is what probes keep in a CycleState: the cycle number and which
// probes ran PreFilter in it (docs/probes.md, "Attempts").
type cycleMark struct {
	attempt     int
	preFiltered map[string]bool
}

// Clone copies the mark with a set of its own, as CycleState.Clone does for every entry.
func (m *cycleMark) Clone() fwk.StateData {
	c := &cycleMark{attempt: m.attempt, preFiltered: make(map[string]bool, len(m.preFiltered))}
	for k := range m.preFiltered {
		c.preFiltered[k] = true
	}
	return c
}

// Recorder is the state all probes of one scheduler share: the trace (one
// sequence under one lock), the per-pod cycle counters, and the Permit signals
// still to fire. Records of probes with a collector are POSTed there instead
// of kept.
type Recorder struct {
	mu      sync.Mutex
	start   time.Time
	seq     int
	records []Record
	cycles  map[string]int
	scripts map[string]scriptOrError
	// observed plugins (observe.go): their records and per-pod cycle counters
	observed       []Record
	observedCycles map[string]int

	pending int
	signals sync.WaitGroup
	stop    chan struct{}
	once    sync.Once
	post    *http.Client
	// poke, when set, is called after every record (outside the lock): the
	// runner wakes its idle check on it.
	poke func()
	// epoch counts Silence calls: a probe or observer built in an earlier
	// epoch belongs to a scheduler that is gone, and records nothing more.
	epoch int
}

type scriptOrError struct {
	script Script
	err    error
}

// maxCachedScripts bounds the parsed-script cache of a long-lived scheduler.
const maxCachedScripts = 1024

// NewRecorder starts the trace clock now.
func NewRecorder() *Recorder {
	return &Recorder{
		start:   time.Now(),
		cycles:  map[string]int{},
		scripts: map[string]scriptOrError{},

		observedCycles: map[string]int{},
		stop:           make(chan struct{}),
		post:           &http.Client{Timeout: 5 * time.Second},
	}
}

// OnRecord sets a function called after every record; call it before the
// scheduler starts.
func (r *Recorder) OnRecord(poke func()) { r.poke = poke }

// Start is the instant `t` counts from.
func (r *Recorder) Start() time.Time { return r.start }

// Elapsed is the trace's t for now: seconds since Start, to the microsecond.
func (r *Recorder) Elapsed() float64 {
	return math.Round(time.Since(r.start).Seconds()*1e6) / 1e6
}

// Records returns a copy of the in-process trace.
func (r *Recorder) Records() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Record(nil), r.records...)
}

// Seq is the number of records taken so far (kept or posted).
func (r *Recorder) Seq() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seq
}

// PendingSignals counts Permit signals that have not fired yet.
func (r *Recorder) PendingSignals() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pending
}

// Close drops the signals still pending and waits for their goroutines.
func (r *Recorder) Close() {
	r.once.Do(func() { close(r.stop) })
	r.signals.Wait()
}

// Silence stops the records of every probe and observer built so far: their
// scheduler was stopped (a restart), and a stopped process calls nothing.
// The trace goes on with those built after.
func (r *Recorder) Silence() {
	r.mu.Lock()
	r.epoch++
	r.mu.Unlock()
}

// Epoch is the number of Silence calls so far.
func (r *Recorder) Epoch() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.epoch
}

func (r *Recorder) record(rec Record, collector string, epoch int) {
	r.mu.Lock()
	if epoch != r.epoch {
		r.mu.Unlock()
		return
	}
	rec.Seq = r.seq
	r.seq++
	rec.T = r.Elapsed()
	if collector == "" {
		r.records = append(r.records, rec)
	}
	r.mu.Unlock()
	if collector != "" {
		r.send(collector, rec)
	}
	if r.poke != nil {
		r.poke()
	}
}

// send POSTs synchronously, so that a collector has every record of a call
// before the call returns to the framework.
func (r *Recorder) send(collector string, rec Record) {
	body, err := json.Marshal(rec)
	if err == nil {
		var resp *http.Response
		if resp, err = r.post.Post(collector, "application/json", bytes.NewReader(body)); err == nil {
			resp.Body.Close()
		}
	}
	if err != nil {
		klog.Background().Error(err, "Probe trace record lost", "collector", collector, "seq", rec.Seq)
	}
}

// cycle returns the pod's cycle number for this CycleState, and whether a
// PreFilter call (starts) found its own mark: the state outlived its cycle.
func (r *Recorder) cycle(state fwk.CycleState, pod, probe string, starts bool) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var mark *cycleMark
	if data, err := state.Read(CycleKey); err == nil {
		mark, _ = data.(*cycleMark)
	}
	leaked := starts && mark != nil && mark.preFiltered[probe]
	if mark == nil || leaked {
		r.cycles[pod]++
		mark = &cycleMark{attempt: r.cycles[pod], preFiltered: map[string]bool{}}
		state.Write(CycleKey, mark)
	}
	if starts {
		mark.preFiltered[probe] = true
	}
	return mark.attempt, leaked
}

func (r *Recorder) currentCycle(pod string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cycles[pod]
}

func (r *Recorder) script(text string) (Script, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cached, ok := r.scripts[text]; ok {
		return cached.script, cached.err
	}
	s, err := ParseScript(text)
	if len(r.scripts) >= maxCachedScripts {
		r.scripts = map[string]scriptOrError{}
	}
	r.scripts[text] = scriptOrError{s, err}
	return s, err
}

// after runs fire once d has passed, unless the recorder is closed first.
func (r *Recorder) after(d time.Duration, fire func(stop <-chan struct{})) {
	r.mu.Lock()
	r.pending++
	r.mu.Unlock()
	r.signals.Add(1)
	go func() {
		defer r.signals.Done()
		defer func() {
			r.mu.Lock()
			r.pending--
			r.mu.Unlock()
		}()
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-timer.C:
			fire(r.stop)
		case <-r.stop:
		}
	}()
}
