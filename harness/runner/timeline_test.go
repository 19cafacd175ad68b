package runner

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
)

// timelineScenario is a scenario of nodes, bound pods, workload pods and a timeline (JSON texts).
func timelineScenario(t *testing.T, config string, deadline float64, nodes, bound, workload []string,
	timeline string) *Scenario {
	t.Helper()
	if config == "" {
		config = "null"
	}
	text := fmt.Sprintf(`{"version": 1, "config": %s, "nodes": [%s], "pods": [%s], "workload": [%s],
		"deadline": %v, "timeline": %s}`, config, strings.Join(nodes, ","), strings.Join(bound, ","),
		strings.Join(workload, ","), deadline, timeline)
	var s Scenario
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		t.Fatalf("%v in %s", err, text)
	}
	return &s
}

// withSpec adds spec fields to a testNode or testPod manifest.
func withSpec(manifest, fields string) string {
	if strings.Contains(manifest, `"spec": {`) {
		return strings.Replace(manifest, `"spec": {`, `"spec": {`+fields+`, `, 1)
	}
	return strings.Replace(manifest, `"status":`, `"spec": {`+fields+`}, "status":`, 1)
}

func boundPod(name, cpu, node string) string {
	return withSpec(testPod(name, cpu, ""), fmt.Sprintf(`"nodeName": %q`, node))
}

func runTimeline(t *testing.T, sc *Scenario) *Outcome {
	t.Helper()
	res, err := runOne(t, New(DefaultOptions), sc)
	if err != nil {
		t.Fatal(err)
	}
	return res.Outcome
}

func wantPhase(t *testing.T, out *Outcome, pod, phase, node string) {
	t.Helper()
	if got := out.Pods[pod]; got.Phase != phase || got.Node != node {
		t.Errorf("%s %+v, want %s on %q; timeline %v", pod, got, phase, node, out.Timeline)
	}
}

func bindingOf(out *Outcome, pod string) (Binding, bool) {
	i := slices.IndexFunc(out.Bindings, func(b Binding) bool { return b.Pod == pod })
	if i < 0 {
		return Binding{}, false
	}
	return out.Bindings[i], true
}

// idle is the JSON `when` of an idle event.
const idle = `"idle"`

func timeline(events ...string) string { return "[" + strings.Join(events, ", ") + "]" }

func updateEvent(when, kind, name, patch string) string {
	return fmt.Sprintf(`{"when": %s, "op": "update", "kind": %q, "name": %q, "patch": %s}`,
		when, kind, name, patch)
}

func deleteEvent(when, kind, name string) string {
	return fmt.Sprintf(`{"when": %s, "op": "delete", "kind": %q, "name": %q}`, when, kind, name)
}

func createEvent(when, object string) string {
	return fmt.Sprintf(`{"when": %s, "op": "create", "object": %s}`, when, object)
}

func nodes(names ...string) []string {
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = testNode(name)
	}
	return out
}

// A pending pod without room binds once a timed deletion frees it, at the
// deletion's virtual time exactly; the deleted pod is not the scheduler's.
func TestTimedDeletionFreesTheRoom(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0"), []string{boundPod("old", "3", "node-0")},
		[]string{testPod("new", "3", "")}, timeline(deleteEvent("2.5", "Pod", "old")))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/new", "bound", "node-0")
	if want := []TimelineEntry{{Index: 0, At: 2.5}}; !slices.Equal(out.Timeline, want) {
		t.Errorf("timeline %v, want %v", out.Timeline, want)
	}
	if b, _ := bindingOf(out, "default/new"); b.T != 2.5 {
		t.Errorf("bound at %v, want 2.5 (the deletion requeues it; its backoff ended at 1 s)", b.T)
	}
	if len(out.Deleted) != 0 {
		t.Errorf("deleted %v: the timeline's deletion is not the scheduler's", out.Deleted)
	}
}

// A node created when the scheduler is idle lets the pending pod bind; the
// event applies one settle after the last cycle.
func TestIdleNodeCreationLetsAPodBind(t *testing.T) {
	big := strings.ReplaceAll(testNode("node-big"), `"4"`, `"8"`)
	sc := timelineScenario(t, probeConfig, 30, nodes("node-0"), nil, []string{testPod("p", "6", "")},
		timeline(createEvent(idle, big)))
	res, err := runOne(t, New(DefaultOptions), sc)
	if err != nil {
		t.Fatal(err)
	}
	out := res.Outcome
	wantPhase(t, out, "default/p", "bound", "node-big")
	if got := out.Pods["default/p"].Attempts; got != 2 {
		t.Errorf("%d attempts, want 2 (rejected, then requeued by the node's creation)", got)
	}
	firstCycle := records(res, "PostFilter")
	if len(out.Timeline) != 1 || len(firstCycle) == 0 || out.Timeline[0].At != firstCycle[0]+1 {
		t.Errorf("timeline %v, first cycle's PostFilter at %v: want the event one settle (1 s) after it",
			out.Timeline, firstCycle)
	}
	if b, _ := bindingOf(out, "default/p"); b.T < out.Timeline[0].At {
		t.Errorf("bound at %v, before the node existed", b.T)
	}
}

// A node relabelled at a virtual time lets a pod with a node selector bind there.
func TestNodeRelabelMatchesAffinity(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0", "node-1"), nil,
		[]string{withSpec(testPod("p", "1", ""), `"nodeSelector": {"zone": "b"}`)},
		timeline(updateEvent("1.5", "Node", "node-1", `{"metadata": {"labels": {"zone": "b"}}}`)))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-1")
	if b, _ := bindingOf(out, "default/p"); b.T != 1.5 {
		t.Errorf("bound at %v, want 1.5", b.T)
	}
}

// A taint removed when the scheduler is idle lets the pod bind on that node.
func TestTaintRemovalLetsAPodBind(t *testing.T) {
	taint := `"taints": [{"key": "k", "value": "v", "effect": "NoSchedule"}]`
	tainted := []string{withSpec(testNode("node-0"), taint), withSpec(testNode("node-1"), taint)}
	sc := timelineScenario(t, "", 30, tainted, nil, []string{testPod("p", "1", "")},
		timeline(updateEvent(idle, "Node", "node-1", `{"spec": {"taints": []}}`)))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-1")
}

// A scheduling gate removed by the timeline lets the gated pod be scheduled.
func TestGateRemovalLetsAPodBind(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0"), nil,
		[]string{withSpec(testPod("p", "1", ""), `"schedulingGates": [{"name": "g"}]`)},
		timeline(updateEvent("2", "Pod", "p", `{"spec": {"schedulingGates": null}}`)))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
	if b, _ := bindingOf(out, "default/p"); b.T != 2 {
		t.Errorf("bound at %v, want 2 (PreEnqueue passes once the gate is gone)", b.T)
	}
}

// Lowered requests go through the resize subresource and requeue the pod.
func TestResizeLetsAPodBind(t *testing.T) {
	lowered := `{"spec": {"containers": [{"name": "c", "image": "x",
		"resources": {"requests": {"cpu": "2"}}}]}}`
	sc := timelineScenario(t, "", 30, nodes("node-0"), nil, []string{testPod("p", "6", "")},
		timeline(updateEvent(idle, "Pod", "p", lowered)))
	out := runTimeline(t, sc)
	wantPhase(t, out, "default/p", "bound", "node-0")
}

// A pod the timeline deletes leaves the outcome's pods and is not in
// `deleted`; a pending pod it creates is reported like a workload pod.
func TestTimelinePodsInTheOutcome(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0"), nil,
		[]string{testPod("fits", "1", ""), testPod("huge", "6", "")},
		timeline(deleteEvent(idle, "Pod", "huge"), createEvent(idle, testPod("late", "1", ""))))
	out := runTimeline(t, sc)
	if _, ok := out.Pods["default/huge"]; ok {
		t.Errorf("pods %v still report the deleted pod", out.Pods)
	}
	if len(out.Deleted) != 0 {
		t.Errorf("deleted %v: the timeline's deletion is not the scheduler's", out.Deleted)
	}
	wantPhase(t, out, "default/fits", "bound", "node-0")
	wantPhase(t, out, "default/late", "bound", "node-0")
	if len(out.Timeline) != 2 || out.Timeline[1].At <= out.Timeline[0].At {
		t.Errorf("timeline %v: the second idle event waits for the next idle", out.Timeline)
	}
}

// A timed event due before an idle event that came later applies right after it.
func TestTimedEventAfterALaterEventAppliesRightAfterIt(t *testing.T) {
	sc := timelineScenario(t, "", 30, nodes("node-0"), nil, []string{testPod("p", "1", "")},
		timeline(updateEvent(idle, "Node", "node-0", `{"metadata": {"labels": {"a": "1"}}}`),
			updateEvent("0.5", "Node", "node-0", `{"metadata": {"labels": {"b": "1"}}}`)))
	out := runTimeline(t, sc)
	if len(out.Timeline) != 2 || out.Timeline[0].At < 1 || out.Timeline[1].At != out.Timeline[0].At {
		t.Errorf("timeline %v, want the idle event after 1 s of settle and the 0.5 s one at the same time",
			out.Timeline)
	}
}

// An event the deadline comes before is not applied: the scheduler is
// busy (a Permit wait) until then.
func TestEventAfterTheDeadlineIsNotApplied(t *testing.T) {
	wait := `{"Probe0": {"Permit": {"code": "Wait", "timeout": "1h"}}}`
	sc := timelineScenario(t, probeConfig, 3, nodes("node-0"), nil, []string{testPod("p", "1", wait)},
		timeline(deleteEvent(idle, "Node", "node-0")))
	out := runTimeline(t, sc)
	if len(out.Timeline) != 0 {
		t.Errorf("timeline %v, want nothing applied", out.Timeline)
	}
	wantPhase(t, out, "default/p", "waiting", "")
	data, _ := json.Marshal(out)
	if strings.Contains(string(data), `"timeline"`) {
		t.Errorf("an outcome without applied events carries a timeline: %s", data)
	}
}

func TestTimelineErrorsNameTheEvent(t *testing.T) {
	for _, tc := range []struct{ timeline, want string }{
		{timeline(deleteEvent("30", "Node", "node-0")), "scenario.timeline[0].when: 30 is not within"},
		{timeline(deleteEvent(`"soon"`, "Node", "node-0")), `scenario.timeline[0].when: "soon" is neither`},
		{`[{"when": 1, "op": "move", "kind": "Node", "name": "node-0"}]`,
			`scenario.timeline[0].op: "move" is not`},
		{timeline(deleteEvent("1", "ConfigMap", "c")), `scenario.timeline[0].kind: "ConfigMap" is not`},
		{timeline(updateEvent("1", "Node", "node-0", "[1]")), "scenario.timeline[0].patch: [1] is not"},
		{timeline(deleteEvent("0", "Node", "node-0"), updateEvent("1", "Node", "node-9", "{}")),
			`timeline[1] (update Node node-9): nodes "node-9" not found`},
		{timeline(updateEvent("1", "Node", "node-0", `{"metadata": {"name": "x"}}`)),
			"timeline[0] (update Node node-0): patch: changes metadata.name"},
	} {
		sc := timelineScenario(t, "", 30, nodes("node-0"), nil, []string{testPod("p", "1", "")}, tc.timeline)
		_, err := runOne(t, New(DefaultOptions), sc)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.timeline, err, tc.want)
		}
	}
}

// An update is split into the writes the API server takes: the object, resize, status.
func TestSplitWrites(t *testing.T) {
	node := `{"kind": "Node", "metadata": {"name": "n"}, "spec": {}, "status": {"allocatable": {"cpu": "4"}}}`
	pod := `{"kind": "Pod", "metadata": {"name": "p"},
		"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}}]}}`
	labels := `"metadata": {"labels": {"a": "b"}}`
	allocatable := `"status": {"allocatable": {"cpu": "2"}}`
	lowered := `"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}`
	for _, tc := range []struct {
		kind, old, patch string
		want             []string
	}{
		{"Node", node, "{" + labels + ", " + allocatable + "}", []string{"", "status"}},
		{"Node", node, "{" + allocatable + "}", []string{"status"}},
		{"Node", node, `{"metadata": {"labels": null}}`, nil},
		{"Pod", pod, "{" + labels + ", " + lowered + "}", []string{"", "resize"}},
		{"Pod", pod, "{" + lowered + "}", []string{"resize"}},
	} {
		merged := mergePatchForTest(t, tc.old, tc.patch)
		writes, err := splitWrites(tc.kind, []byte(tc.old), merged)
		if err != nil {
			t.Fatal(err)
		}
		var subresources []string
		for _, w := range writes {
			subresources = append(subresources, w.subresource)
		}
		if !slices.Equal(subresources, tc.want) {
			t.Errorf("%s patched with %s: writes to %q, want %q", tc.kind, tc.patch, subresources, tc.want)
		}
		if n := len(writes); n > 0 && !jsonEqual(t, writes[n-1].body, merged) {
			t.Errorf("%s patched with %s: the last write %s is not the patched object %s", tc.kind, tc.patch,
				writes[n-1].body, merged)
		}
	}
}

func mergePatchForTest(t *testing.T, old, patch string) []byte {
	t.Helper()
	merged, err := jsonpatch.MergePatch([]byte(old), []byte(patch))
	if err != nil {
		t.Fatal(err)
	}
	return merged
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		t.Fatalf("not JSON: %s, %s", a, b)
	}
	return reflect.DeepEqual(x, y)
}
