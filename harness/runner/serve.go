package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// The JSON-lines protocol of the runner (harness/README.md, "The runner"):
//
//	{"id": 1, "hello": true}
//	    -> {"id": 1, "kubernetesVersion": "v1.37.2", "goVersion": "go1.26.8", "virtualTime": true,
//	        "faults": ["fail", "vanish", "restart", "lag"]}   (the timeline fault ops this build injects)
//	{"id": 2, "scenario": {...}}   (docs/scenario.md; ${EXTENDER_URL} already substituted)
//	    -> {"id": 2, "outcome": {...}, "start": 946684800, "extenderCalls": [...]}
//	    or {"id": 2, "error": "one line"}   (config refused, manifest undecodable, a plugin that never returns, ...)
//	{"id": 3, "bind": {"namespace": "default", "name": "pod-0", "uid": "...", "node": "node-1"}}
//	    -> {"id": 3, "bindError": ""}   ("" when bound; else the API error)
//	{"id": 4, "layout": {"config": {...}, "kubeconfig": "/path"}}
//	    -> {"id": 4, "plugins": {...}}  (Layout: the frameworks built against a real API server)
//
// A response with "restart" (a reason) is the runner's last: it exits after
// it, and the next scenario needs a fresh runner.
type request struct {
	ID       json.RawMessage `json:"id"`
	Hello    bool            `json:"hello"`
	Scenario *Scenario       `json:"scenario"`
	Bind     *struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
		UID       string `json:"uid"`
		Node      string `json:"node"`
	} `json:"bind"`
	Layout *struct {
		Config     json.RawMessage `json:"config"`
		Kubeconfig string          `json:"kubeconfig"`
	} `json:"layout"`
}

// output serialises response lines.
type output struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (o *output) send(v map[string]any) {
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(map[string]any{"id": v["id"], "error": "encoding the response: " + oneLine(err)})
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.w.Write(append(data, '\n'))
	o.w.Flush()
}

// Serve answers requests from in on out until in ends. Scenarios run one at
// a time, in order, each in its own synctest bubble of t; hello and bind are
// answered at once, also while a scenario runs. It returns the exit code:
// non-zero when a scenario left the process unusable (its response says so).
func Serve(t *testing.T, in io.Reader, out io.Writer, r *Runner) int {
	o := &output{w: bufio.NewWriter(out)}
	scenarios := make(chan request, 64)
	go func() {
		defer close(scenarios)
		lines := bufio.NewReader(in)
		for {
			line, err := lines.ReadBytes('\n')
			if len(strings.TrimSpace(string(line))) > 0 {
				r.dispatch(line, o, scenarios)
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					fmt.Fprintln(os.Stderr, "runner: reading requests:", err)
				}
				return
			}
		}
	}()
	for req := range scenarios {
		if restart := r.serveScenario(t, req, o); restart != "" {
			fmt.Fprintln(os.Stderr, "runner: exiting:", restart)
			return 3
		}
	}
	return 0
}

func (r *Runner) dispatch(line []byte, o *output, scenarios chan<- request) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		o.send(map[string]any{"id": req.ID, "error": "bad request: " + oneLine(err)})
		return
	}
	switch {
	case req.Hello:
		o.send(map[string]any{"id": req.ID, "kubernetesVersion": KubernetesVersion(),
			"goVersion": runtime.Version(), "virtualTime": true, "faults": faultOps()})
	case req.Bind != nil:
		b := *req.Bind
		go func() {
			o.send(map[string]any{"id": req.ID, "bindError": r.Bind(b.Namespace, b.Name, b.UID, b.Node)})
		}()
	case req.Scenario != nil:
		scenarios <- req
	case req.Layout != nil:
		plugins, err := r.Layout(req.Layout.Config, req.Layout.Kubeconfig)
		if err != nil {
			o.send(map[string]any{"id": req.ID, "error": oneLine(err)})
		} else {
			o.send(map[string]any{"id": req.ID, "plugins": plugins})
		}
	default:
		o.send(map[string]any{"id": req.ID, "error": "bad request: expected one of hello, scenario, bind, layout"})
	}
}

// serveScenario runs one scenario in a bubble under a real-time watchdog and
// sends its response; it returns why the runner must exit, "" if it need not.
func (r *Runner) serveScenario(t *testing.T, req request, o *output) (restart string) {
	finished := make(chan struct{})
	go r.watchdog(req.ID, o, finished)
	var res *Result
	var err error
	func() {
		defer func() {
			// The bubble's goroutines deadlocked: after the scenario
			// (teardown left goroutines blocked forever) or before its end.
			if p := recover(); p != nil {
				restart = fmt.Sprintf("%v (while %s); blocked goroutines of the scenario remain", p, r.status.String())
			}
		}()
		synctest.Test(t, func(*testing.T) { res, err = r.Run(context.Background(), req.Scenario) })
	}()
	// Upstream's cache debugger subscribes to SIGUSR2 in every scenario and
	// never unsubscribes: the signal package would keep each finished bubble
	// (its channel, and through it the bubble's timers) for good.
	signal.Reset(syscall.SIGUSR2)
	close(finished)
	response := map[string]any{"id": req.ID}
	switch {
	case err != nil:
		response["error"] = oneLine(err)
	case res == nil:
		response["error"] = "the scenario did not finish: " + restart
	default:
		response["outcome"], response["extenderCalls"] = res.Outcome, res.ExtenderCalls
		response["start"] = float64(res.Start.UnixNano()) / 1e9
	}
	if restart != "" {
		response["restart"] = restart
	}
	o.send(response)
	return restart
}

// watchdog ends the runner when a scenario takes more than Watchdog of real
// time: something in the scheduler never blocks (a spinning plugin) or keeps
// the clock running (a plugin sleeping in a loop past teardown).
func (r *Runner) watchdog(id json.RawMessage, o *output, finished <-chan struct{}) {
	timer := time.NewTimer(r.opts.Watchdog)
	defer timer.Stop()
	select {
	case <-finished:
		return
	case <-timer.C:
	}
	why := fmt.Sprintf("the scenario did not finish within %v of real time, while %s (a plugin that never returns or "+
		"never blocks?); the runner restarts", r.opts.Watchdog, r.status.String())
	o.send(map[string]any{"id": id, "error": why, "restart": why})
	fmt.Fprintln(os.Stderr, "runner:", why)
	_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 1)
	os.Exit(3)
}

// progress is where a scenario is, for the watchdog (read outside the bubble).
type progress struct {
	mu      sync.Mutex
	step    string
	virtual time.Duration
	busy    string
	live    fmt.Stringer // what runs now, for a scenario whose clock stopped
}

// set records the step; start is the scenario's virtual start (the elapsed
// virtual time is read inside the bubble).
func (p *progress) set(step string, start time.Time, busy string) {
	elapsed := time.Since(start)
	p.mu.Lock()
	p.step, p.virtual, p.busy = step, elapsed, busy
	p.mu.Unlock()
}

func (p *progress) watch(live fmt.Stringer) {
	p.mu.Lock()
	p.live = live
	p.mu.Unlock()
}

// String is the progress for the watchdog's message: the step, the virtual time, what is
// pending and the live state.
func (p *progress) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := fmt.Sprintf("%s at virtual t=%gs", p.step, p.virtual.Seconds())
	if p.busy != "" {
		s += "; pending: " + p.busy
	}
	if p.live != nil {
		if live := p.live.String(); live != "" {
			s += "; " + live
		}
	}
	return s
}

func oneLine(err error) string {
	return strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
}
