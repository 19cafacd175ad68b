package probe

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// fakeHandle provides what probes use: the client and the waiting pods.
type fakeHandle struct {
	fwk.Handle
	client  clientset.Interface
	mu      sync.Mutex
	waiting map[types.UID]*fakeWaitingPod
}

func (h *fakeHandle) ClientSet() clientset.Interface { return h.client }

func (h *fakeHandle) GetWaitingPod(uid types.UID) fwk.WaitingPod {
	h.mu.Lock()
	defer h.mu.Unlock()
	if wp, ok := h.waiting[uid]; ok {
		return wp
	}
	return nil
}

func (h *fakeHandle) addWaiting(uid types.UID) *fakeWaitingPod {
	h.mu.Lock()
	defer h.mu.Unlock()
	wp := &fakeWaitingPod{signals: make(chan string, 1)}
	h.waiting[uid] = wp
	return wp
}

type fakeWaitingPod struct {
	fwk.WaitingPod
	signals chan string
}

func (w *fakeWaitingPod) Allow(plugin string) { w.signals <- "allow " + plugin }
func (w *fakeWaitingPod) Reject(plugin, msg string) bool {
	w.signals <- "reject " + plugin + " " + msg
	return true
}

func newProbes(t *testing.T, args string) (map[string]*Probe, *Recorder, *fakeHandle) {
	t.Helper()
	rec := NewRecorder()
	t.Cleanup(rec.Close)
	h := &fakeHandle{client: fake.NewClientset(), waiting: map[types.UID]*fakeWaitingPod{}}
	var obj runtime.Object
	if args != "" {
		obj = &runtime.Unknown{Raw: []byte(args), ContentType: runtime.ContentTypeJSON}
	}
	probes := map[string]*Probe{}
	for name, factory := range Registry(rec) {
		pl, err := factory(context.Background(), obj, h)
		if err != nil {
			t.Fatal(err)
		}
		probes[name] = pl.(*Probe)
	}
	return probes, rec, h
}

func pod(script string) *v1.Pod {
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-p"}}
	if script != "" {
		p.Annotations = map[string]string{ScriptAnnotation: script}
	}
	return p
}

func nodeInfo(name string) fwk.NodeInfo {
	ni := framework.NewNodeInfo()
	ni.SetNode(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}})
	return ni
}

// trace renders records as JSON objects without seq and t, for comparison.
func trace(t *testing.T, records []Record) []map[string]any {
	t.Helper()
	var out []map[string]any
	for i, r := range records {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if m["seq"] != float64(i) {
			t.Errorf("record %d has seq %v", i, m["seq"])
		}
		delete(m, "seq")
		delete(m, "t")
		out = append(out, m)
	}
	return out
}

func assertTrace(t *testing.T, got []map[string]any, want string) {
	t.Helper()
	var w []map[string]any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(got)
	ws, _ := json.Marshal(w)
	if string(g) != string(ws) {
		t.Errorf("trace\n got %s\nwant %s", g, ws)
	}
}

func TestDefaultsAndCycles(t *testing.T) {
	probes, rec, _ := newProbes(t, "")
	ctx, p := context.Background(), pod("")
	if s := probes["Probe0"].PreEnqueue(ctx, p); !s.IsSuccess() {
		t.Fatal(s)
	}
	state := framework.NewCycleState()
	if _, s := probes["Probe0"].PreFilter(ctx, state, p, nil); !s.IsSuccess() {
		t.Fatal(s)
	}
	probes["Probe1"].PreFilter(ctx, state, p, nil) // another probe: same cycle
	probes["Probe1"].Filter(ctx, state, p, nodeInfo("n1"))
	if score, _ := probes["Probe1"].Score(ctx, state, p, nodeInfo("n1")); score != 0 {
		t.Errorf("score %d", score)
	}
	if s := probes["Probe2"].Bind(ctx, state, p, "n1"); !s.IsSkip() {
		t.Errorf("default Bind: %v", s.Code())
	}
	probes["Probe0"].PreFilter(ctx, state, p, nil) // own mark again: leaked, new cycle
	probes["Probe3"].Reserve(ctx, framework.NewCycleState(), p, "n2")
	probes["Probe3"].Unreserve(ctx, state, p, "n2")
	probes["Probe3"].PostBind(ctx, state, p, "n2")
	if s, timeout := probes["Probe4"].Permit(ctx, state, p, "n2"); !s.IsSuccess() || timeout != 0 {
		t.Errorf("default Permit: %v %v", s.Code(), timeout)
	}
	assertTrace(t, trace(t, rec.Records()), `[
		{"pod":"ns/p","point":"PreEnqueue","attempt":0,"plugin":"Probe0","code":"Success"},
		{"pod":"ns/p","point":"PreFilter","attempt":1,"plugin":"Probe0","code":"Success"},
		{"pod":"ns/p","point":"PreFilter","attempt":1,"plugin":"Probe1","code":"Success"},
		{"pod":"ns/p","point":"Filter","attempt":1,"plugin":"Probe1","node":"n1","code":"Success"},
		{"pod":"ns/p","point":"Score","attempt":1,"plugin":"Probe1","node":"n1","code":"Success","score":0},
		{"pod":"ns/p","point":"Bind","attempt":1,"plugin":"Probe2","node":"n1","code":"Skip"},
		{"pod":"ns/p","point":"PreFilter","attempt":2,"plugin":"Probe0","code":"Success","leaked":true},
		{"pod":"ns/p","point":"Reserve","attempt":3,"plugin":"Probe3","node":"n2","code":"Success"},
		{"pod":"ns/p","point":"Unreserve","attempt":2,"plugin":"Probe3","node":"n2"},
		{"pod":"ns/p","point":"PostBind","attempt":2,"plugin":"Probe3","node":"n2"},
		{"pod":"ns/p","point":"Permit","attempt":2,"plugin":"Probe4","node":"n2","code":"Success"}]`)
}

func TestScriptedResults(t *testing.T) {
	probes, rec, _ := newProbes(t, `{"scoreExtensions": true}`)
	ctx := context.Background()
	p := pod(`{"Probe0": {
		"PreFilter": [{"code": "Unschedulable", "reasons": ["first"]}, {"result": []}],
		"Filter": {"code": "UnschedulableAndUnresolvable", "reasons": ["full", "really"], "byNode": {"n1": {}}},
		"PostFilter": {"code": "Unschedulable", "nominate": "n9"},
		"Score": {"score": 10, "byNode": {"n1": {"score": 70}}},
		"NormalizeScore": {"scores": {"n2": 5}}}}`)
	state := framework.NewCycleState()
	if res, s := probes["Probe0"].PreFilter(ctx, state, p, nil); s.Code() != fwk.Unschedulable || res != nil {
		t.Errorf("attempt 1 PreFilter: %v %v", res, s)
	}
	state = framework.NewCycleState()
	if res, s := probes["Probe0"].PreFilter(ctx, state, p, nil); !s.IsSuccess() || res == nil || res.NodeNames == nil || res.NodeNames.Len() != 0 {
		t.Errorf("attempt 2 PreFilter: %v %v", res, s)
	}
	if s := probes["Probe0"].Filter(ctx, state, p, nodeInfo("n0")); s.Code() != fwk.UnschedulableAndUnresolvable || s.Message() != "full, really" {
		t.Errorf("Filter n0: %v", s)
	}
	if s := probes["Probe0"].Filter(ctx, state, p, nodeInfo("n1")); !s.IsSuccess() {
		t.Errorf("Filter n1: %v", s)
	}
	res, s := probes["Probe0"].PostFilter(ctx, state, p, nil)
	if s.Code() != fwk.Unschedulable || res == nil || res.NominatedNodeName != "n9" || res.NominatingMode != fwk.ModeOverride {
		t.Errorf("PostFilter: %v %v", res, s)
	}
	for _, c := range []struct {
		node string
		want int64
	}{{"n1", 70}, {"n2", 10}} {
		if got, _ := probes["Probe0"].Score(ctx, state, p, nodeInfo(c.node)); got != c.want {
			t.Errorf("Score %s = %d, want %d", c.node, got, c.want)
		}
	}
	if probes["Probe0"].ScoreExtensions() == nil {
		t.Fatal("scoreExtensions: true must enable NormalizeScore")
	}
	scores := fwk.NodeScoreList{{Name: "n1", Score: 70}, {Name: "n2", Score: 10}}
	probes["Probe0"].ScoreExtensions().NormalizeScore(ctx, state, p, scores)
	if scores[1].Score != 5 || scores[0].Score != 70 {
		t.Errorf("NormalizeScore left %v", scores)
	}
	assertTrace(t, trace(t, rec.Records()), `[
		{"pod":"ns/p","point":"PreFilter","attempt":1,"plugin":"Probe0","code":"Unschedulable","reasons":["first"]},
		{"pod":"ns/p","point":"PreFilter","attempt":2,"plugin":"Probe0","code":"Success","result":[]},
		{"pod":"ns/p","point":"Filter","attempt":2,"plugin":"Probe0","node":"n0","code":"UnschedulableAndUnresolvable","reasons":["full","really"]},
		{"pod":"ns/p","point":"Filter","attempt":2,"plugin":"Probe0","node":"n1","code":"Success"},
		{"pod":"ns/p","point":"PostFilter","attempt":2,"plugin":"Probe0","code":"Unschedulable","nominate":"n9"},
		{"pod":"ns/p","point":"Score","attempt":2,"plugin":"Probe0","node":"n1","code":"Success","score":70},
		{"pod":"ns/p","point":"Score","attempt":2,"plugin":"Probe0","node":"n2","code":"Success","score":10},
		{"pod":"ns/p","point":"NormalizeScore","attempt":2,"plugin":"Probe0","code":"Success","scores":{"n1":70,"n2":5}}]`)
	unscored, _, _ := newProbes(t, "")
	if unscored["Probe0"].ScoreExtensions() != nil {
		t.Error("without scoreExtensions, ScoreExtensions() must be nil")
	}
}
