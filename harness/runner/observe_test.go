package runner

import (
	"testing"
)

// With observe, every configured plugin but the probes is recorded around its own call, in order,
// and the framework decides exactly as without (the wrappers are swapped in after NewFramework).
func TestObservedPluginsAreRecordedWithoutChangingTheOutcome(t *testing.T) {
	r := New(DefaultOptions)
	plain, err := runOne(t, r, testScenario(t, probeConfig, 30, testPod("p", "3", ""), testPod("q", "3", "")))
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Outcome.Observed) != 0 {
		t.Fatalf("observed without observe: %v", plain.Outcome.Observed)
	}
	sc := testScenario(t, probeConfig, 30, testPod("p", "3", ""), testPod("q", "3", ""))
	sc.Observe = []string{"*"}
	res, err := runOne(t, r, sc)
	if err != nil {
		t.Fatal(err)
	}
	for pod, want := range plain.Outcome.Pods {
		if got := res.Outcome.Pods[pod]; got.Phase != want.Phase || got.Node != want.Node {
			t.Errorf("%s: observed run %+v, plain run %+v", pod, got, want)
		}
	}
	binds, rejections := 0, 0
	for i, rec := range res.Outcome.Observed {
		if rec.Seq != i {
			t.Fatalf("observed seq %d at %d", rec.Seq, i)
		}
		if rec.Plugin == "Probe0" || rec.Plugin == "Probe1" {
			t.Fatalf("a probe was observed: %+v", rec)
		}
		if rec.Point == "Bind" && rec.Plugin == "DefaultBinder" && rec.Code == "Success" {
			binds++
		}
		if rec.Point == "Filter" && rec.Plugin == "NodeResourcesFit" && rec.Code == "Unschedulable" {
			rejections++
		}
	}
	// Two 3-CPU pods on two 4-CPU nodes: both bind, and the second one's Filter rejects the first's node.
	if binds != 2 || rejections != 1 {
		t.Errorf("DefaultBinder binds %d (want 2), NodeResourcesFit rejections %d (want 1): %+v",
			binds, rejections, res.Outcome.Observed)
	}
}

// Only the named plugins are observed.
func TestObserveNamesPlugins(t *testing.T) {
	sc := testScenario(t, probeConfig, 30, testPod("p", "1", ""))
	sc.Observe = []string{"DefaultBinder"}
	res, err := runOne(t, New(DefaultOptions), sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outcome.Observed) != 1 || res.Outcome.Observed[0].Plugin != "DefaultBinder" {
		t.Fatalf("want one DefaultBinder record, got %+v", res.Outcome.Observed)
	}
}
