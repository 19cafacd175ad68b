package runner

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func failFault(call, errKind, pod string) string {
	return fmt.Sprintf(`{"op": "fail", "call": %q, "error": %q, "pod": %q}`, call, errKind, pod)
}

func pointFault(op, pod, point, object string) string {
	if object == "" {
		return fmt.Sprintf(`{"op": %q, "pod": %q, "point": %q}`, op, pod, point)
	}
	return fmt.Sprintf(`{"op": %q, "pod": %q, "point": %q, "object": %q}`, op, pod, point, object)
}

func withPriority(manifest string, priority int) string {
	return withSpec(manifest, fmt.Sprintf(`"priority": %d`, priority))
}

func wantFirings(t *testing.T, out *Outcome, want ...FaultFiring) {
	t.Helper()
	if !slices.Equal(out.Faults, want) {
		t.Errorf("faults %+v, want %+v", out.Faults, want)
	}
}

func bindingsOf(out *Outcome, pod string) int {
	return len(slices.DeleteFunc(slices.Clone(out.Bindings), func(b Binding) bool { return b.Pod != pod }))
}

// calls lists "point plugin" of pod's trace records in attempt.
func calls(out *Outcome, pod string, attempt int) []string {
	var got []string
	for _, r := range out.Trace {
		if r.Pod == pod && r.Attempt == attempt {
			got = append(got, r.Point+" "+r.Plugin)
		}
	}
	return got
}

// A failed binding takes upstream's binding-cycle failure path: Unreserve of
// every Reserve plugin in reverse order, the pod requeued with backoff (1 s)
// and bound by its second attempt; the error is in the pod's event meanwhile.
// DefaultBinder tries an internal error 4 times (util.BindPod), so 4 fail.
func TestFailedBindingIsRetried(t *testing.T) {
	for _, kind := range []string{"conflict", "internal", "timeout"} {
		t.Run(kind, func(t *testing.T) {
			times := map[string]int{"internal": 4}[kind]
			fail := fmt.Sprintf(`{"op": "fail", "call": "bind", "error": %q, "pod": "default/p", "times": %d}`,
				kind, max(1, times))
			sc := timelineScenario(t, "", 30, nodes("node-0"), nil, []string{testPod("p", "1", "")}, timeline(fail))
			out := runTimeline(t, sc)
			wantPhase(t, out, "default/p", "bound", "node-0")
			if len(out.Faults) != max(1, times) || out.Faults[0] != (FaultFiring{Index: 0, At: 0, Pod: "default/p",
				Fault: "fail", Detail: "bind"}) {
				t.Errorf("faults %+v, want %d bind failures of entry 0 from 0 s", out.Faults, max(1, times))
			}
			if got := out.Pods["default/p"].Attempts; got != 2 {
				t.Errorf("attempts %d, want 2", got)
			}
			if len(out.Bindings) != 1 || out.Bindings[0].T < 1 {
				t.Errorf("bindings %+v, want one after the 1 s backoff", out.Bindings)
			}
			message := map[string]string{
				"conflict": `Operation cannot be fulfilled on pods/binding "p": injected conflict`,
				"internal": "Internal error occurred: injected internal error",
				"timeout":  "Timeout: injected timeout",
			}[kind]
			failed := slices.IndexFunc(out.Events, func(e Event) bool {
				return e.Reason == "FailedScheduling" && e.Message == `running Bind plugin "DefaultBinder": `+message
			})
			if failed < 0 {
				t.Errorf("no FailedScheduling event with %q: %+v", message, out.Events)
			}
		})
	}
}

// Unreserve runs for every Reserve plugin after a failed binding, in reverse order.
func TestFailedBindingUnreserves(t *testing.T) {
	sc := timelineScenario(t, probeConfig, 30, nodes("node-0"), nil, []string{testPod("p", "1", "")},
		timeline(failFault("bind", "conflict", "default/p")))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
	first := calls(out, "default/p", 1)
	i := slices.Index(first, "PreBind Probe1")
	if want := []string{"PreBind Probe1", "Unreserve Probe1", "Unreserve Probe0"}; i < 0 || len(first) < i+3 ||
		!slices.Equal(first[i:i+3], want) {
		t.Errorf("first attempt %v, want %v after PreBind", first, want)
	}
	if got := calls(out, "default/p", 2); !slices.Contains(got, "PostBind Probe0") {
		t.Errorf("second attempt %v, want it bound", got)
	}
}

// An internal error on the binding is retried by DefaultBinder itself: one
// failed call costs no attempt.
func TestInternalBindingErrorRetriedByTheBinder(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0"), nil, []string{testPod("p", "1", "")},
		timeline(failFault("bind", "internal", "default/p")))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
	if got := out.Pods["default/p"].Attempts; got != 1 || len(out.Faults) != 1 {
		t.Errorf("attempts %d, faults %+v; want one attempt, one firing", got, out.Faults)
	}
}

// occurrence and times select which matching calls fail: here the second and
// third bindings of p, so the pod binds at its fourth attempt; a call of
// another pod does not count.
func TestFailOccurrenceAndTimes(t *testing.T) {
	fail := `{"op": "fail", "call": "bind", "error": "conflict", "pod": "default/p",
		"occurrence": 2, "times": 2}`
	first := `{"op": "fail", "call": "bind", "error": "timeout", "pod": "default/p"}`
	sc := timelineScenario(t, "", 60, nodes("node-0"), nil,
		[]string{testPod("q", "1", ""), testPod("p", "1", "")}, timeline(first, fail))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
	wantPhase(t, out, "default/q", "bound", "node-0")
	if got := out.Pods["default/p"].Attempts; got != 4 {
		t.Errorf("attempts %d, want 4 (three failed bindings)", got)
	}
	var got []int
	for _, f := range out.Faults {
		got = append(got, f.Index)
	}
	if want := []int{0, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("firings of entries %v, want %v: %+v", got, want, out.Faults)
	}
}

// A failed status patch is logged and ignored (handleSchedulingFailure):
// the unschedulable pod has no condition, and is no less in the
// unschedulable pool.
func TestFailedStatusPatchIsIgnored(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0"), nil, []string{testPod("big", "100", "")},
		timeline(failFault("status", "timeout", "default/big")))
	out := runTimeline(t, sc)
	if got := out.Pods["default/big"]; got.Phase != "pending" || got.Condition != nil || got.Attempts != 1 {
		t.Errorf("big %+v, want pending without a condition after one attempt", got)
	}
	wantFirings(t, out, FaultFiring{Index: 0, At: 0, Pod: "default/big", Fault: "fail", Detail: "status"})
}

// A failed event write loses the event (client-go drops what the server
// rejects) and changes nothing else.
func TestFailedEventIsLost(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0"), nil, []string{testPod("p", "1", "")},
		timeline(failFault("event", "timeout", "")))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
	if len(out.Events) != 0 {
		t.Errorf("events %+v, want the Scheduled event lost", out.Events)
	}
	wantFirings(t, out, FaultFiring{Index: 0, At: 0, Pod: "default/p", Fault: "fail", Detail: "event"})
}

// A failed victim delete fails that preemption (the async preemption's
// error path activates the preemptor); the next attempt preempts again and
// binds.
func TestFailedEvictionFailsThePreemption(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0"), []string{boundPod("victim", "3", "node-0")},
		[]string{withPriority(testPod("p", "3", ""), 100)},
		timeline(failFault("evict", "conflict", "default/victim")))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
	if !slices.Equal(out.Deleted, []string{"default/victim"}) {
		t.Errorf("deleted %v, want the victim, once", out.Deleted)
	}
	if got := out.Pods["default/p"].Attempts; got < 3 {
		t.Errorf("attempts %d, want at least 3 (preempt, fail, preempt again, bind)", got)
	}
	wantFirings(t, out, FaultFiring{Index: 0, At: 0, Pod: "default/victim", Fault: "fail", Detail: "evict"})
}

// The node chosen for p vanishes while p waits at Permit: upstream lets the
// binding go on and the API server accepts a binding to a node that does not
// exist (BindingREST checks no node), so p is bound to a deleted node.
func TestVanishedNodeAtPermit(t *testing.T) {
	wait := `{"Probe0": {"Permit": {"code": "Wait", "timeout": "10s",
		"then": {"signal": "allow", "after": "1s"}}}}`
	sc := timelineScenario(t, probeConfig, 30, nodes("node-0"), nil, []string{testPod("p", "1", wait)},
		timeline(pointFault("vanish", "default/p", "permit", "node")))
	res, err := runOne(t, New(DefaultOptions), sc)
	if err != nil {
		t.Fatal(err)
	}
	out := res.Outcome
	wantFirings(t, out, FaultFiring{Index: 0, At: 0, Pod: "default/p", Fault: "vanish", Detail: "permit",
		Object: "Node/node-0"})
	wantPhase(t, out, "default/p", "bound", "node-0")
	if b, ok := bindingOf(out, "default/p"); !ok || b.T != 1 {
		t.Errorf("binding %+v, want at the Allow (1 s)", b)
	}
}

// The pod itself vanishes right after it was assumed: no binding, and it
// leaves the outcome's pods as a deleted pod does.
func TestVanishedPodAtReserve(t *testing.T) {
	sc := timelineScenario(t, probeConfig, 30, nodes("node-0"), nil,
		[]string{testPod("p", "1", ""), testPod("q", "1", "")}, timeline(pointFault("vanish", "default/p", "reserve", "pod")))
	out := runTimeline(t, sc)
	if _, ok := out.Pods["default/p"]; ok || len(out.Bindings) != 1 {
		t.Errorf("pods %+v, bindings %+v: want p gone, q alone bound", out.Pods, out.Bindings)
	}
	wantPhase(t, out, "default/q", "bound", "node-0")
	wantFirings(t, out, FaultFiring{Index: 0, At: 0, Pod: "default/p", Fault: "vanish", Detail: "reserve",
		Object: "Pod/default/p"})
	if got := calls(out, "default/p", 1); !slices.Contains(got, "Unreserve Probe0") {
		t.Errorf("p's attempt %v, want its binding failure's Unreserve", got)
	}
}

// The first victim is deleted by someone else just before the scheduler's
// delete, which finds it gone ("already deleted"): the preemption goes on,
// and the victim is not the scheduler's deletion.
func TestVanishedVictimAtPreempt(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0"), []string{boundPod("victim", "3", "node-0")},
		[]string{withPriority(testPod("p", "3", ""), 100)}, timeline(pointFault("vanish", "default/p", "preempt", "victim")))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
	if len(out.Deleted) != 0 {
		t.Errorf("deleted %v, want none by the scheduler", out.Deleted)
	}
	wantFirings(t, out, FaultFiring{Index: 0, At: 0, Pod: "default/p", Fault: "vanish", Detail: "preempt",
		Object: "Pod/default/victim"})
}

// A restart at any point of p's binding: the stopped scheduler writes
// nothing more, the new one finds p pending and binds it, exactly once; the
// trace goes on with the new scheduler's calls (no Unreserve of the old one).
func TestRestartBindsOnce(t *testing.T) {
	wait := `{"Probe0": {"Permit": {"code": "Wait", "timeout": "10s",
		"then": {"signal": "allow", "after": "1s"}}}}`
	for _, point := range restartPoint {
		t.Run(point, func(t *testing.T) {
			sc := timelineScenario(t, probeConfig, 30, nodes("node-0", "node-1"), nil,
				[]string{testPod("p", "1", wait), testPod("q", "1", "")}, timeline(pointFault("restart", "default/p", point, "")))
			out := runTimeline(t, sc)
			at := map[string]float64{"prebind": 1, "bind": 1}[point] // after the Permit wait
			wantFirings(t, out, FaultFiring{Index: 0, At: at, Pod: "default/p", Fault: "restart", Detail: point})
			if got := out.Pods["default/p"]; got.Phase != "bound" {
				t.Errorf("p %+v, want bound", got)
			}
			wantPhase(t, out, "default/q", "bound", out.Pods["default/q"].Node)
			if n := bindingsOf(out, "default/p"); n != 1 {
				t.Errorf("p bound %d times: %+v", n, out.Bindings)
			}
			if got := calls(out, "default/p", 1); slices.Contains(got, "Unreserve Probe0") {
				t.Errorf("the stopped scheduler recorded %v", got)
			}
			if slices.ContainsFunc(out.Events, func(e Event) bool { return e.Reason == "FailedScheduling" }) {
				t.Errorf("the stopped scheduler wrote an event: %+v", out.Events)
			}
			if got := calls(out, "default/p", 2); !slices.Contains(got, "PostBind Probe0") {
				t.Errorf("the new scheduler's attempt %v, want it to bind p", got)
			}
			if got := out.Pods["default/p"].Attempts; got != 1 {
				t.Errorf("attempts %d, want 1 (the new scheduler's queue counts afresh)", got)
			}
		})
	}
}

// Observed plugins of the stopped scheduler record nothing more either: no
// Unreserve (VolumeBinding's) after a restart at PreBind, and only the new
// scheduler's DefaultBinder binds.
func TestRestartSilencesObservedPlugins(t *testing.T) {
	sc := timelineScenario(t, probeConfig, 30, nodes("node-0"), nil, []string{testPod("p", "1", "")},
		timeline(pointFault("restart", "default/p", "prebind", "")))
	sc.Observe = []string{"*"}
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
	var points []string
	for _, r := range out.Observed {
		points = append(points, r.Point)
	}
	binds := len(slices.DeleteFunc(slices.Clone(points), func(p string) bool { return p != "Bind" }))
	if slices.Contains(points, "Unreserve") || binds != 1 {
		t.Errorf("observed %v, want no Unreserve and the new scheduler's Bind, once", points)
	}
}

// A restart costs little wall time: the same scenario with and without one.
func TestRestartCost(t *testing.T) {
	r := New(DefaultOptions)
	scenario := func(faults string) *Scenario {
		return timelineScenario(t, probeConfig, 30, nodes("node-0"), nil, []string{testPod("p", "1", "")}, faults)
	}
	measure := func(sc *Scenario) time.Duration {
		best := time.Hour
		for range 5 {
			start := time.Now()
			if _, err := runOne(t, r, sc); err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	plain := measure(scenario("[]"))
	restarted := measure(scenario(timeline(pointFault("restart", "default/p", "prebind", ""))))
	cost := restarted - plain
	t.Logf("scenario %v, with a restart %v: the restart costs %v", plain, restarted, cost)
	if cost > 50*time.Millisecond {
		t.Errorf("a restart costs %v of wall time, want under 50 ms", cost)
	}
}

// A fault never triggered fires nothing; its arming is in the outcome's timeline.
func TestUntriggeredFaultFiresNothing(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0"), nil, []string{testPod("p", "1", "")},
		timeline(pointFault("restart", "default/p", "permit", ""), `{"when": 5, "op": "fail", "call": "bind", "error": "internal"}`))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
	if want := []TimelineEntry{{Index: 0, At: 0}, {Index: 1, At: 5}}; !slices.Equal(out.Timeline, want) {
		t.Errorf("timeline %v, want %v", out.Timeline, want)
	}
	if len(out.Faults) != 1 || out.Faults[0].Detail != "permit" {
		t.Errorf("faults %+v, want only the restart at permit", out.Faults)
	}
}

func TestFaultErrorsNameTheEntry(t *testing.T) {
	for entry, want := range map[string]string{
		`{"op": "fail", "call": "get", "error": "internal"}`:                    `timeline[0].call: "get" is not one of`,
		`{"op": "fail", "call": "bind", "error": "gone"}`:                       `timeline[0].error: "gone"`,
		`{"op": "fail", "call": "bind", "error": "internal", "times": 0}`:       `timeline[0].times: 0 is below 1`,
		`{"op": "fail", "call": "bind", "error": "internal", "point": "bind"}`:  `timeline[0].point: not a field of an op: fail`,
		`{"op": "vanish", "pod": "p", "point": "permit", "object": "victim"}`:   `timeline[0].object: victim at point permit`,
		`{"op": "vanish", "pod": "p", "point": "bind", "object": "pod"}`:        `timeline[0].point: "bind"`,
		`{"op": "restart", "point": "permit"}`:                                  `timeline[0].pod: missing`,
		`{"op": "restart", "pod": "p", "point": "preempt"}`:                     `timeline[0].point: "preempt"`,
		`{"op": "vanish", "pod": "p", "point": "permit", "object": {"a": 1}}`:   `timeline[0].object: {"a": 1} is not`,
		`{"when": -1, "op": "restart", "pod": "p", "point": "permit"}`:          `timeline[0].when: -1`,
		`{"op": "restart", "pod": "p", "point": "permit", "patch": {"a": "b"}}`: `timeline[0].patch: not a field`,
	} {
		sc := timelineScenario(t, "", 30, nodes("node-0"), nil, []string{testPod("p", "1", "")}, "["+entry+"]")
		_, err := runOne(t, New(DefaultOptions), sc)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", entry, err, want)
		}
	}
}

// A lag fault holds a node's watch events back: the deletion at 0.5 s is seen
// at 2.5 s, so q, created at 1 s, is bound to the deleted node (the binding
// does not look the node up), and the firing says when the scheduler saw it.
func TestLaggedNodeDeletionIsSeenLate(t *testing.T) {
	created := fmt.Sprintf(`{"when": 1, "op": "create", "object": %s}`, testPod("q", "100m", ""))
	for _, lagged := range []bool{true, false} {
		events := []string{`{"when": 0.5, "op": "delete", "kind": "Node", "name": "node-0"}`, created}
		if lagged {
			events = append([]string{`{"op": "lag", "kind": "Node", "name": "node-0", "delay": 2}`}, events...)
		}
		out := runTimeline(t, timelineScenario(t, "", 30, nodes("node-0"), nil, nil, timeline(events...)))
		if !lagged {
			wantPhase(t, out, "default/q", "unschedulable", "")
			wantFirings(t, out)
			continue
		}
		wantPhase(t, out, "default/q", "bound", "node-0")
		seen := 2.5
		f := FaultFiring{}
		if len(out.Faults) == 1 {
			f = out.Faults[0]
		}
		if len(out.Faults) != 1 || f.Seen == nil || *f.Seen != seen || f.At != 0.5 || f.Detail != "delete" ||
			f.Object != "Node/node-0" {
			t.Errorf("faults %+v, want the deletion at 0.5 s seen at 2.5 s", out.Faults)
		}
	}
}

// A lag names a node and a positive delay; other fields are refused.
func TestLagDecoding(t *testing.T) {
	for entry, want := range map[string]string{
		`{"op": "lag", "kind": "Pod", "name": "p", "delay": 1}`:              "kind:",
		`{"op": "lag", "kind": "Node", "delay": 1}`:                          "name:",
		`{"op": "lag", "kind": "Node", "name": "node-0", "delay": 0}`:        "delay:",
		`{"op": "lag", "kind": "Node", "name": "node-0"}`:                    "delay:",
		`{"op": "lag", "kind": "Node", "name": "n", "delay": 1, "pod": "p"}`: "pod:",
	} {
		var in TimelineEvent
		if err := json.Unmarshal([]byte(entry), &in); err != nil {
			t.Fatal(err)
		}
		if _, err := decodeFault(0, &in); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want one starting %q", entry, err, want)
		}
	}
}

// A binding the server applied but answered with a timeout: the binding
// cycle fails (Unreserve runs), the pod is bound once and not retried.
func TestAppliedTimeoutBindsOnce(t *testing.T) {
	fail := `{"op": "fail", "call": "bind", "error": "timeout-applied", "pod": "default/p"}`
	sc := timelineScenario(t, "", 30, nodes("node-0"), nil, []string{testPod("p", "1", "")}, timeline(fail))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
	if n := bindingsOf(out, "default/p"); n != 1 {
		t.Errorf("%d bindings of p, want 1", n)
	}
	if got := out.Pods["default/p"].Attempts; got != 1 {
		t.Errorf("attempts %d, want 1 (not requeued)", got)
	}
	wantFirings(t, out, FaultFiring{Index: 0, At: 0, Pod: "default/p", Fault: "fail", Detail: "bind"})
	var in TimelineEvent
	_ = json.Unmarshal([]byte(`{"op": "fail", "call": "status", "error": "timeout-applied"}`), &in)
	if _, err := decodeFault(0, &in); err == nil || !strings.HasPrefix(err.Error(), "error:") {
		t.Errorf("timeout-applied on a status patch: error %v, want one about error", err)
	}
}
