package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// fault is one armed timeline fault (docs/scenario.md, "Faults"), pods as
// cluster keys "ns/name". The backend arms only what this proxy can observe:
// fail on any call; restart at bind (the binding call); vanish at prebind
// (taken at the binding call, see decide).
type fault struct {
	Index      int    `json:"index"`
	Op         string `json:"op"`
	Call       string `json:"call"`
	Error      string `json:"error"`
	Pod        string `json:"pod"`
	Occurrence int    `json:"occurrence"`
	Times      int    `json:"times"`
	Point      string `json:"point"`
	Object     string `json:"object"`
	matched    int
	fired      int
}

// firing is one entry of the outcome's `faults`; At is Unix seconds.
type firing struct {
	Index  int     `json:"index"`
	At     float64 `json:"at"`
	Pod    string  `json:"pod"`
	Fault  string  `json:"fault"`
	Detail string  `json:"detail"`
	Object string  `json:"object,omitempty"`
}

// call is one of the scheduler's requests a fault selects.
type call struct {
	kind     string // bind, status, evict, event
	pod      string // the pod it is about, "ns/name"
	resource string // what an error names
	name     string
	node     string // bind: the target node
}

// action is what the proxy does with a call: answer an error, or fire point
// faults first (vanish: delete, then forward; restart: fence, never forward).
type action struct {
	fail    *fault
	vanish  []*fault
	restart *fault
}

type injector struct {
	mu      sync.Mutex
	armed   []*fault
	firings []firing
	fenced  bool
	changed chan struct{} // closed and replaced on every firing and on resume
}

func newInjector() *injector { return &injector{changed: make(chan struct{})} }

func (j *injector) reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.armed, j.firings, j.fenced = nil, nil, false
	j.poke()
}

func (j *injector) arm(f *fault) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if f.Occurrence < 1 {
		f.Occurrence = 1
	}
	if f.Times < 1 {
		f.Times = 1
	}
	j.armed = append(j.armed, f)
}

// decide counts c for the armed faults and says what to do. At a binding
// call the point faults come first, as upstream reaches PreBind, then Bind,
// before the binding request: a vanish at prebind, then a restart at bind (the
// call is never made, so no fail fault counts it).
func (j *injector) decide(c call) action {
	j.mu.Lock()
	defer j.mu.Unlock()
	var a action
	if c.kind == "bind" {
		for _, f := range j.armed {
			if f.fired == 0 && f.Pod == c.pod && (f.Op == "vanish" && f.Point == "prebind" ||
				f.Op == "restart" && f.Point == "bind") {
				f.fired++
				object := ""
				if f.Op == "vanish" {
					a.vanish = append(a.vanish, f)
					object = "Pod/" + c.pod
					if f.Object == "node" {
						object = "Node/" + c.node
					}
				} else if a.restart == nil {
					a.restart = f
					j.fenced = true
				}
				j.record(f, c.pod, f.Point, object)
			}
		}
		if a.restart != nil {
			return a
		}
	}
	for _, f := range j.armed {
		if f.Op != "fail" || f.Call != c.kind || (f.Pod != "" && f.Pod != c.pod) {
			continue
		}
		f.matched++
		if a.fail == nil && f.matched >= f.Occurrence && f.matched < f.Occurrence+f.Times {
			a.fail = f
			f.fired++
			j.record(f, c.pod, c.kind, "")
		}
	}
	return a
}

func (j *injector) record(f *fault, pod, detail, object string) {
	now := float64(time.Now().UnixNano()) / 1e9
	j.firings = append(j.firings, firing{Index: f.Index, At: now, Pod: pod, Fault: f.Op, Detail: detail,
		Object: object})
	j.poke()
}

// poke wakes every waiter; the caller holds mu.
func (j *injector) poke() {
	close(j.changed)
	j.changed = make(chan struct{})
}

// since returns the firings from n on, waiting up to wait for one.
func (j *injector) since(n int, wait time.Duration) []firing {
	deadline := time.After(wait)
	for {
		j.mu.Lock()
		if n < 0 || n > len(j.firings) {
			n = len(j.firings)
		}
		out, ch := append([]firing{}, j.firings[n:]...), j.changed
		j.mu.Unlock()
		if len(out) > 0 {
			return out
		}
		select {
		case <-ch:
		case <-deadline:
			return out
		}
	}
}

// resume lifts the fence once the old scheduler is gone.
func (j *injector) resume() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.fenced = false
	j.poke()
}

// hold keeps a request that arrives while a restart is under way (the
// fenced, old scheduler's) away from the API server until its client is gone
// or the fence is lifted; false: it was held, answer it with an error, it
// must never reach the server. A request that finds no fence passes at once.
func (j *injector) hold(r *http.Request) bool {
	held := false
	for {
		j.mu.Lock()
		fenced, ch := j.fenced, j.changed
		j.mu.Unlock()
		if !fenced {
			return !held
		}
		held = true
		select {
		case <-r.Context().Done():
			return false
		case <-ch:
		}
	}
}

// status is the API server's answer for an injected error, worded like
// apimachinery's NewConflict, NewInternalError and NewTimeoutError (and like
// harness/runner/faults.go apiError).
func status(f *fault, c call) (int, []byte) {
	st := map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure"}
	switch f.Error {
	case "conflict":
		st["code"], st["reason"] = http.StatusConflict, "Conflict"
		st["message"] = fmt.Sprintf("Operation cannot be fulfilled on %s %q: injected conflict", c.resource, c.name)
		st["details"] = map[string]any{"name": c.name, "kind": c.resource}
	case "internal":
		st["code"], st["reason"] = http.StatusInternalServerError, "InternalError"
		st["message"] = "Internal error occurred: injected internal error"
		st["details"] = map[string]any{"causes": []any{map[string]any{"message": "injected internal error"}}}
	default:
		// No Retry-After: client-go does not retry; the server applied nothing.
		st["code"], st["reason"] = http.StatusGatewayTimeout, "Timeout"
		st["message"] = "Timeout: injected timeout"
		st["details"] = map[string]any{}
	}
	body, _ := json.Marshal(st)
	return st["code"].(int), body
}

// classify names the fault call of a request, or kind "". Events are
// matched by the pod they regard; a series PATCH by the event it updates.
func (p *proxy) classify(r *http.Request, body []byte) call {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	// api/v1/namespaces/NS/pods/NAME[/SUB]
	if len(parts) >= 6 && parts[0] == "api" && parts[2] == "namespaces" && parts[4] == "pods" {
		ns, name, sub := parts[3], parts[5], ""
		if len(parts) == 7 {
			sub = parts[6]
		}
		pod := ns + "/" + name
		switch {
		case sub == "binding" && r.Method == http.MethodPost:
			var b struct {
				Target struct {
					Name string `json:"name"`
				} `json:"target"`
			}
			_ = json.Unmarshal(body, &b)
			return call{"bind", pod, "pods/binding", name, b.Target.Name}
		case sub == "status" && (r.Method == http.MethodPatch || r.Method == http.MethodPut):
			return call{"status", pod, "pods", name, ""}
		case sub == "" && r.Method == http.MethodDelete && len(parts) == 6:
			return call{"evict", pod, "pods", name, ""}
		}
		return call{}
	}
	return p.eventCall(r, parts, body)
}

// eventCall: POST/PATCH of events.k8s.io/v1 or core/v1 events about a pod.
func (p *proxy) eventCall(r *http.Request, parts []string, body []byte) call {
	var ns string
	var rest []string
	switch {
	case len(parts) >= 6 && parts[0] == "apis" && parts[1] == "events.k8s.io" && parts[3] == "namespaces" &&
		parts[5] == "events":
		ns, rest = parts[4], parts[6:]
	case len(parts) >= 5 && parts[0] == "api" && parts[2] == "namespaces" && parts[4] == "events":
		ns, rest = parts[3], parts[5:]
	default:
		return call{}
	}
	var ev struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
		Regarding      ref `json:"regarding"`
		InvolvedObject ref `json:"involvedObject"`
	}
	_ = json.Unmarshal(body, &ev)
	about := ev.Regarding
	if about.Kind == "" {
		about = ev.InvolvedObject
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && len(rest) == 0:
		if about.Kind != "Pod" {
			return call{}
		}
		pod := about.Namespace + "/" + about.Name
		p.events[ns+"/"+ev.Metadata.Name] = pod
		return call{"event", pod, "pods", about.Name, ""}
	case (r.Method == http.MethodPatch || r.Method == http.MethodPut) && len(rest) == 1:
		if pod, ok := p.events[ns+"/"+rest[0]]; ok {
			_, name, _ := strings.Cut(pod, "/")
			return call{"event", pod, "pods", name, ""}
		}
	}
	return call{}
}

type ref struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}
