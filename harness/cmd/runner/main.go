// Command runner is the upstream backend's scheduler process: it reads JSON
// requests, one per line, on stdin and answers each with one JSON line on
// stdout (logs go to stderr). Requests:
//
//	{"id": 1, "hello": true}
//	    -> {"id": 1, "kubernetesVersion": "v1.37.1", "goVersion": "go1.26.8"}
//	{"id": 2, "scenario": {...}}   (docs/scenario.md; ${EXTENDER_URL} already substituted)
//	    -> {"id": 2, "outcome": {...}, "start": <unix seconds the trace's t counts from>}
//	    or {"id": 2, "error": "one line"}   (config refused, manifest undecodable, ...)
//	{"id": 3, "bind": {"namespace": "default", "name": "pod-0", "uid": "...", "node": "node-1"}}
//	    -> {"id": 3, "bindError": ""}   ("" when bound; else the API error)
//
// Scenarios run one at a time, in order; hello and bind are answered at once,
// even while a scenario runs (an extender's bind verb binds the running
// scenario's pod, as a real binder extender does through the API server).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"k8s.io/klog/v2"

	"github.com/kube-scheduler-conformance/harness/runner"
)

type request struct {
	ID       json.RawMessage  `json:"id"`
	Hello    bool             `json:"hello"`
	Scenario *runner.Scenario `json:"scenario"`
	Bind     *struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
		UID       string `json:"uid"`
		Node      string `json:"node"`
	} `json:"bind"`
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

func main() {
	klog.InitFlags(nil)
	opts := runner.DefaultOptions
	flag.DurationVar(&opts.Settle, "settle", opts.Settle, "idle time (no cycle, write, event or trace record) that ends a scenario")
	flag.DurationVar(&opts.Teardown, "teardown", opts.Teardown, "how long to wait for binding cycles after a scenario")
	flag.Parse()
	if err := serve(os.Stdin, &output{w: bufio.NewWriter(os.Stdout)}, runner.New(opts)); err != nil {
		fmt.Fprintln(os.Stderr, "runner:", err)
		os.Exit(1)
	}
}

func serve(in io.Reader, out *output, r *runner.Runner) error {
	scenarios := make(chan request, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for req := range scenarios {
			outcome, start, err := r.Run(context.Background(), req.Scenario)
			if err != nil {
				out.send(map[string]any{"id": req.ID, "error": oneLine(err)})
				continue
			}
			out.send(map[string]any{"id": req.ID, "outcome": outcome, "start": float64(start.UnixNano()) / 1e9})
		}
	}()
	defer func() {
		close(scenarios)
		<-done
	}()
	lines := bufio.NewReader(in)
	for {
		line, err := lines.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			dispatch(line, out, r, scenarios)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func dispatch(line []byte, out *output, r *runner.Runner, scenarios chan<- request) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		out.send(map[string]any{"id": req.ID, "error": "bad request: " + oneLine(err)})
		return
	}
	switch {
	case req.Hello:
		out.send(map[string]any{"id": req.ID, "kubernetesVersion": runner.KubernetesVersion(),
			"goVersion": runtime.Version()})
	case req.Bind != nil:
		b := *req.Bind
		go func() {
			out.send(map[string]any{"id": req.ID, "bindError": r.Bind(b.Namespace, b.Name, b.UID, b.Node)})
		}()
	case req.Scenario != nil:
		scenarios <- req
	default:
		out.send(map[string]any{"id": req.ID, "error": "bad request: expected one of hello, scenario, bind"})
	}
}

func oneLine(err error) string {
	return strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
}
