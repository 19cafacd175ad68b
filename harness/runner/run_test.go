package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"k8s.io/kubernetes/pkg/scheduler/metrics"
)

const probeConfig = `{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
	"profiles": [{"schedulerName": "default-scheduler",
		"plugins": {"multiPoint": {"enabled": [{"name": "Probe0"}, {"name": "Probe1"}]}}}]}`

func testNode(name string) string {
	return fmt.Sprintf(`{"apiVersion": "v1", "kind": "Node", "metadata": {"name": %q},
		"status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"},
		           "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}`, name)
}

func testPod(name, cpu, script string) string {
	annotations := ""
	if script != "" {
		quoted, _ := json.Marshal(script)
		annotations = fmt.Sprintf(`, "annotations": {"sched-conformance.io/probe-script": %s}`, quoted)
	}
	return fmt.Sprintf(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": %q%s},
		"spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": %q}}}]}}`,
		name, annotations, cpu)
}

func testScenario(t *testing.T, config string, deadline float64, pods ...string) *Scenario {
	t.Helper()
	if config == "" {
		config = "null"
	}
	text := fmt.Sprintf(`{"version": 1, "config": %s, "nodes": [%s, %s], "workload": [%s], "deadline": %v}`,
		config, testNode("node-0"), testNode("node-1"), strings.Join(pods, ","), deadline)
	var s Scenario
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

func TestIdleScenarioEndsLongBeforeItsDeadline(t *testing.T) {
	r := New(DefaultOptions)
	start := time.Now()
	out, _, err := r.Run(context.Background(), testScenario(t, "", 30, testPod("pod-0", "100m", ""), testPod("big", "100", "")))
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("took %v for a scenario that is idle after one cycle per pod", elapsed)
	}
	if got := out.Pods["default/pod-0"].Phase; got != "bound" {
		t.Errorf("pod-0 %s", got)
	}
	if got := out.Pods["default/big"]; got.Phase != "unschedulable" || got.Attempts != 1 {
		t.Errorf("big %+v", got)
	}
}

// A pod held at Permit when the deadline hits is "waiting"; teardown rejects
// it, so that its binding cycle ends instead of leaking.
func TestDeadlineWhileWaitingOnPermit(t *testing.T) {
	r := New(DefaultOptions)
	wait := `{"Probe0": {"Permit": {"code": "Wait", "timeout": "1h"}}}`
	out, _, err := r.Run(context.Background(), testScenario(t, probeConfig, 0.3, testPod("pod-0", "100m", wait)))
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Pods["default/pod-0"].Phase; got != "waiting" {
		t.Errorf("phase %s, want waiting", got)
	}
	if n := bindingCycles(); n != 0 {
		t.Errorf("%v binding cycles left after the scenario", n)
	}
}

// Scenarios leave no goroutines behind: bound pods, failed pods retried with
// backoff, pods still waiting at the deadline.
func TestScenariosLeaveNoGoroutines(t *testing.T) {
	r := New(DefaultOptions)
	scenarios := []*Scenario{
		testScenario(t, "", 5, testPod("pod-0", "100m", ""), testPod("pod-1", "100", "")),
		testScenario(t, probeConfig, 0.2, testPod("pod-0", "100m", `{"Probe0": {"Permit": {"code": "Wait", "timeout": "1h"}}}`)),
		testScenario(t, probeConfig, 0.2, testPod("pod-0", "100m", `{"Probe1": {"Filter": {"code": "Error"}}}`)),
		testScenario(t, probeConfig, 5, testPod("pod-0", "100m",
			`{"Probe0": {"Permit": {"code": "Wait", "timeout": "10s", "then": {"signal": "allow", "after": "10ms"}}}}`)),
	}
	run := func() {
		for _, s := range scenarios {
			if _, _, err := r.Run(context.Background(), s); err != nil {
				t.Fatal(err)
			}
		}
	}
	run() // process-wide goroutines start once (klog, metrics, the signal package)
	time.Sleep(100 * time.Millisecond)
	before := runtime.NumGoroutine()
	for range 5 {
		run()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before, %d after 20 more scenarios:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

func TestInvalidConfigIsUpstreamsError(t *testing.T) {
	r := New(DefaultOptions)
	bad := `{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration", "percentageOfNodesToScore": 300}`
	_, _, err := r.Run(context.Background(), testScenario(t, bad, 5, testPod("pod-0", "100m", "")))
	want := "percentageOfNodesToScore: Invalid value: 300: not in valid range [0-100]"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// The scheduler's metrics the runner waits on are read correctly (a broken
// read would make every wait on them return at once).
func TestGoroutineCountsFollowTheMetrics(t *testing.T) {
	metrics.Register()
	g := countGoroutines()
	metrics.PreemptionVictims.Observe(1) // what prepareCandidateAsync does first
	if got := g.running(time.Now()); got != "1 asynchronous preemptions" {
		t.Errorf("after a preemption started: %q", got)
	}
	metrics.PreemptionGoroutinesExecutionTotal.WithLabelValues(metrics.GoroutineResultSuccess).Inc()
	if got := g.running(time.Now()); got != "" {
		t.Errorf("after it finished: %q", got)
	}
	metrics.Goroutines.WithLabelValues(metrics.Binding).Inc()
	if got := g.running(time.Now()); got != "1 binding cycles" {
		t.Errorf("during a binding cycle: %q", got)
	}
	metrics.Goroutines.WithLabelValues(metrics.Binding).Dec()
	metrics.PreemptionVictims.Observe(0) // a preemption that starts no goroutine
	now := time.Now()
	if got := g.running(now); got != "1 asynchronous preemptions" {
		t.Errorf("after a preemption without victims started: %q", got)
	}
	if got := g.running(now.Add(2 * time.Second)); got != "" {
		t.Errorf("an unfinished preemption is waited for longer than a second: %q", got)
	}
}

// With no settle window at all, the checks alone see the asynchronous
// preemption through: the victim is deleted and the preemptor bound.
func TestPreemptionWithoutSettleWindow(t *testing.T) {
	r := New(Options{Settle: 0, Teardown: 10 * time.Second})
	text := fmt.Sprintf(`{"version": 1, "nodes": [%s], "pods": [%s], "workload": [%s]}`, testNode("node-0"),
		strings.Replace(testPod("victim", "3", ""), `"spec": {`, `"spec": {"nodeName": "node-0", `, 1),
		strings.Replace(testPod("preemptor", "3", ""), `"spec": {`, `"spec": {"priority": 100, `, 1))
	var s Scenario
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		out, _, err := r.Run(context.Background(), &s)
		if err != nil {
			t.Fatal(err)
		}
		if p := out.Pods["default/preemptor"]; p.Phase != "bound" || len(out.Deleted) != 1 {
			t.Fatalf("preemptor %+v, deleted %v", p, out.Deleted)
		}
	}
}
