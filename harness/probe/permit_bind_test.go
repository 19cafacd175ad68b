package probe

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

func TestInvalidScriptAnswersError(t *testing.T) {
	probes, rec, _ := newProbes(t, "")
	ctx, p := context.Background(), pod(`{"Probe9": {}}`)
	state := framework.NewCycleState()
	if s := probes["Probe0"].PreEnqueue(ctx, p); !s.IsError() {
		t.Errorf("PreEnqueue: %v", s.Code())
	}
	if _, s := probes["Probe0"].PreFilter(ctx, state, p, nil); !s.IsError() {
		t.Errorf("PreFilter: %v", s.Code())
	}
	if score, s := probes["Probe1"].Score(ctx, state, p, nodeInfo("n1")); !s.IsError() || score != 0 {
		t.Errorf("Score: %d %v", score, s.Code())
	}
	if s, _ := probes["Probe1"].Permit(ctx, state, p, "n1"); !s.IsError() {
		t.Errorf("Permit: %v", s.Code())
	}
	reason := `["invalid probe script: unknown plugin 'Probe9'; probes are Probe0..Probe7"]`
	assertTrace(t, trace(t, rec.Records()), `[
		{"pod":"ns/p","point":"PreEnqueue","attempt":0,"plugin":"Probe0","code":"Error","reasons":`+reason+`},
		{"pod":"ns/p","point":"PreFilter","attempt":1,"plugin":"Probe0","code":"Error","reasons":`+reason+`},
		{"pod":"ns/p","point":"Score","attempt":1,"plugin":"Probe1","node":"n1","code":"Error","reasons":`+reason+`},
		{"pod":"ns/p","point":"Permit","attempt":1,"plugin":"Probe1","node":"n1","code":"Error","reasons":`+reason+`}]`)
}

func TestPermitSignals(t *testing.T) {
	probes, rec, h := newProbes(t, "")
	ctx := context.Background()
	p := pod(`{"Probe0": {"Permit": {"code": "Wait", "timeout": "10s", "then": {"signal": "allow", "after": "20ms"}}},
		"Probe1": {"Permit": {"code": "Wait", "timeout": "150ms", "then": {"signal": "reject", "message": "no"}}}}`)
	state := framework.NewCycleState()
	s0, timeout0 := probes["Probe0"].Permit(ctx, state, p, "n1")
	s1, timeout1 := probes["Probe1"].Permit(ctx, state, p, "n1")
	if !s0.IsWait() || timeout0 != 10*time.Second || !s1.IsWait() || timeout1 != 150*time.Millisecond {
		t.Fatalf("Permit: %v %v, %v %v", s0.Code(), timeout0, s1.Code(), timeout1)
	}
	if rec.PendingSignals() != 2 {
		t.Errorf("pending signals %d, want 2", rec.PendingSignals())
	}
	time.Sleep(5 * time.Millisecond) // Probe1's signal (after 0s) is now looking for the waiting pod
	wp := h.addWaiting(p.UID)
	for _, want := range []string{"reject Probe1 no", "allow Probe0"} {
		select {
		case got := <-wp.signals:
			if got != want {
				t.Errorf("signal %q, want %q", got, want)
			}
		case <-time.After(time.Second):
			t.Fatalf("no signal %q", want)
		}
	}
	waitFor(t, func() bool { return rec.PendingSignals() == 0 })
	assertTrace(t, trace(t, rec.Records()), `[
		{"pod":"ns/p","point":"Permit","attempt":1,"plugin":"Probe0","node":"n1","code":"Wait","timeout":10},
		{"pod":"ns/p","point":"Permit","attempt":1,"plugin":"Probe1","node":"n1","code":"Wait","timeout":0.15},
		{"pod":"ns/p","point":"Reject","attempt":1,"plugin":"Probe1","delivered":true},
		{"pod":"ns/p","point":"Allow","attempt":1,"plugin":"Probe0","delivered":true}]`)
}

func TestPermitSignalWithoutWaitingPod(t *testing.T) {
	probes, rec, _ := newProbes(t, "")
	p := pod(`{"Probe0": {"Permit": {"code": "Wait", "then": {"signal": "reject"}}}}`)
	start := time.Now()
	probes["Probe0"].Permit(context.Background(), framework.NewCycleState(), p, "n1")
	waitFor(t, func() bool { return rec.PendingSignals() == 0 })
	if waited := time.Since(start); waited < waitingPodGrace {
		t.Errorf("gave up after %v, before the %v grace", waited, waitingPodGrace)
	}
	assertTrace(t, trace(t, rec.Records())[1:], `[{"pod":"ns/p","point":"Reject","attempt":1,"plugin":"Probe0","delivered":false}]`)
}

func TestCloseDropsPendingSignals(t *testing.T) {
	probes, rec, _ := newProbes(t, "")
	p := pod(`{"Probe0": {"Permit": {"code": "Wait", "then": {"signal": "allow", "after": "1h"}}}}`)
	probes["Probe0"].Permit(context.Background(), framework.NewCycleState(), p, "n1")
	rec.Close()
	if rec.PendingSignals() != 0 || len(rec.Records()) != 1 {
		t.Errorf("after Close: %d pending, %d records", rec.PendingSignals(), len(rec.Records()))
	}
}

func TestBindThroughClient(t *testing.T) {
	probes, rec, h := newProbes(t, "")
	client := h.client.(*fake.Clientset)
	var bound []string
	client.PrependReactor("create", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := a.(clienttesting.CreateAction).GetObject().(interface{ GetName() string })
		bound = append(bound, b.GetName())
		if len(bound) > 1 {
			return true, nil, io.ErrUnexpectedEOF
		}
		return true, nil, nil
	})
	p := pod(`{"Probe0": {"Bind": {"code": "Success"}}}`)
	state := framework.NewCycleState()
	if s := probes["Probe0"].Bind(context.Background(), state, p, "n1"); !s.IsSuccess() {
		t.Errorf("first Bind: %v", s)
	}
	if s := probes["Probe0"].Bind(context.Background(), state, p, "n1"); !s.IsError() || s.Message() != "unexpected EOF" {
		t.Errorf("failing Bind: %v %q", s.Code(), s.Message())
	}
	if len(bound) != 2 || bound[0] != "p" {
		t.Errorf("bindings %v", bound)
	}
	assertTrace(t, trace(t, rec.Records()), `[
		{"pod":"ns/p","point":"Bind","attempt":1,"plugin":"Probe0","node":"n1","code":"Success"},
		{"pod":"ns/p","point":"Bind","attempt":1,"plugin":"Probe0","node":"n1","code":"Error","reasons":["unexpected EOF"]}]`)
}

func TestCollectorReceivesRecords(t *testing.T) {
	var mu sync.Mutex
	var got []map[string]any
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m map[string]any
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			t.Error(err)
		}
		mu.Lock()
		got = append(got, m)
		mu.Unlock()
	}))
	defer server.Close()
	probes, rec, _ := newProbes(t, `{"collector": "`+server.URL+`/trace"}`)
	probes["Probe0"].Filter(context.Background(), framework.NewCycleState(), pod(""), nodeInfo("n1"))
	if len(rec.Records()) != 0 || rec.Seq() != 1 {
		t.Errorf("with a collector the in-process trace must stay empty: %d records, seq %d", len(rec.Records()), rec.Seq())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0]["point"] != "Filter" || got[0]["node"] != "n1" || got[0]["seq"] != float64(0) {
		t.Errorf("collector got %v", got)
	}
}

func TestArgsAreStrict(t *testing.T) {
	for raw, wantErr := range map[string]string{
		`{"scoreExtensions": true, "collector": "http://x", "kind": "ProbeArgs", "apiVersion": "v1"}`: "",
		`{"scoreExtension": true}`: `probe args: unknown field "scoreExtension"; probe args are scoreExtensions and collector`,
	} {
		_, err := decodeArgs(&runtime.Unknown{Raw: []byte(raw)})
		if (err == nil) != (wantErr == "") || (err != nil && err.Error() != wantErr) {
			t.Errorf("%s: error %v, want %q", raw, err, wantErr)
		}
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 5s")
		}
		time.Sleep(time.Millisecond)
	}
}

var _ fwk.WaitingPod = (*fakeWaitingPod)(nil)
