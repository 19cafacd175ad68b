package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/kube-scheduler-conformance/harness/fwk"
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

// runOne runs a scenario in its own bubble, as Serve does.
func runOne(t *testing.T, r *Runner, sc *Scenario) (res *Result, err error) {
	t.Helper()
	synctest.Test(t, func(*testing.T) { res, err = r.Run(context.Background(), sc) })
	return res, err
}

func records(res *Result, point string) []float64 {
	var ts []float64
	for _, rec := range res.Outcome.Trace {
		if rec.Point == point {
			ts = append(ts, rec.T)
		}
	}
	return ts
}

func TestIdleScenarioEndsAtOnce(t *testing.T) {
	r := New(DefaultOptions)
	start := time.Now()
	res, err := runOne(t, r, testScenario(t, "", 30, testPod("pod-0", "100m", ""), testPod("big", "100", "")))
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("took %v for a scenario that is idle after one cycle per pod", elapsed)
	}
	if got := res.Outcome.Pods["default/pod-0"].Phase; got != "bound" {
		t.Errorf("pod-0 %s", got)
	}
	if got := res.Outcome.Pods["default/big"]; got.Phase != "unschedulable" || got.Attempts != 1 {
		t.Errorf("big %+v", got)
	}
	if want := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC); !res.Start.Equal(want) {
		t.Errorf("trace clock starts at %v, want the bubble's epoch %v", res.Start, want)
	}
}

// A Permit wait of 30 s times out at virtual 30 s exactly, in milliseconds of real time.
func TestPermitTimeoutOnTheVirtualClock(t *testing.T) {
	r := New(DefaultOptions)
	wait := `{"Probe0": {"Permit": {"code": "Wait", "timeout": "30s"}}}`
	start := time.Now()
	res, err := runOne(t, r, testScenario(t, probeConfig, 60, testPod("pod-0", "100m", wait)))
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("a 30 s Permit timeout took %v of real time", elapsed)
	}
	if got := res.Outcome.Pods["default/pod-0"]; got.Phase != "unschedulable" || got.Attempts != 1 {
		t.Errorf("pod-0 %+v, want unschedulable after one attempt", got)
	}
	permit, unreserve := records(res, "Permit"), records(res, "Unreserve")
	if len(permit) != 2 || len(unreserve) != 2 || permit[0] != 0 || unreserve[0] != 30 {
		t.Errorf("Permit at %v, Unreserve at %v; want Permit at 0 and Unreserve at 30 (two probes each)", permit, unreserve)
	}
}

// A Permit signal is delivered at its `after`, not a poll later.
func TestPermitSignalOnTime(t *testing.T) {
	r := New(DefaultOptions)
	allow := `{"Probe0": {"Permit": {"code": "Wait", "timeout": "10s", "then": {"signal": "allow", "after": "250ms"}}}}`
	res, err := runOne(t, r, testScenario(t, probeConfig, 30, testPod("pod-0", "100m", allow)))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Outcome.Pods["default/pod-0"].Phase; got != "bound" {
		t.Errorf("pod-0 %s, want bound", got)
	}
	if got := records(res, "Allow"); len(got) != 1 || got[0] != 0.25 {
		t.Errorf("Allow at %v, want [0.25]", got)
	}
}

// A pod held at Permit when the deadline hits is "waiting"; teardown rejects
// it, so that its binding cycle ends instead of leaking (the bubble would
// report a deadlock).
func TestDeadlineWhileWaitingOnPermit(t *testing.T) {
	r := New(DefaultOptions)
	wait := `{"Probe0": {"Permit": {"code": "Wait", "timeout": "1h"}}}`
	res, err := runOne(t, r, testScenario(t, probeConfig, 0.3, testPod("pod-0", "100m", wait)))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Outcome.Pods["default/pod-0"].Phase; got != "waiting" {
		t.Errorf("phase %s, want waiting", got)
	}
	if n := bindingCycles(); n != 0 {
		t.Errorf("%v binding cycles left after the scenario", n)
	}
}

// A pod failing with Error is retried with upstream's backoff until the deadline.
func TestErrorRetriedUntilTheDeadline(t *testing.T) {
	r := New(DefaultOptions)
	res, err := runOne(t, r, testScenario(t, probeConfig, 30, testPod("pod-0", "100m", `{"Probe1": {"Filter": {"code": "Error"}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	got := res.Outcome.Pods["default/pod-0"]
	if got.Phase != "error" || got.Attempts < 4 {
		t.Errorf("pod-0 %+v, want error after several attempts", got)
	}
	if ts := records(res, "PreFilter"); len(ts) == 0 || ts[len(ts)-1] > 30 {
		t.Errorf("PreFilter at %v: nothing may run after the deadline", ts)
	}
}

func TestInvalidConfigIsUpstreamsError(t *testing.T) {
	r := New(DefaultOptions)
	bad := `{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration", "percentageOfNodesToScore": 300}`
	_, err := runOne(t, r, testScenario(t, bad, 5, testPod("pod-0", "100m", "")))
	want := "percentageOfNodesToScore: Invalid value: 300: not in valid range [0-100]"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// A user's plugin whose factory panics (scheduler-plugins' Coscheduling on a nil
// KubeConfig) is a scenario error naming it; the runner goes on.
func TestAPanickingFactoryIsAnErrorNamingThePlugin(t *testing.T) {
	opts := DefaultOptions
	opts.Plugins = frameworkruntime.Registry{"Boom": func(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
		var config *struct{ Host string }
		return nil, fmt.Errorf("unreachable: %s", config.Host)
	}}
	r := New(opts)
	config := `{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
		"profiles": [{"schedulerName": "default-scheduler", "plugins": {"filter": {"enabled": [{"name": "Boom"}]}}}]}`
	_, err := runOne(t, r, testScenario(t, config, 5, testPod("pod-0", "100m", "")))
	for _, want := range []string{"plugin Boom panicked while being built: runtime error: invalid memory address",
		"Handle.KubeConfig() is nil"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	if res, err := runOne(t, r, testScenario(t, "", 5, testPod("pod-0", "100m", ""))); err != nil || res.Outcome.Pods["default/pod-0"].Phase != "bound" {
		t.Errorf("the next scenario: %v, %v", res, err)
	}
}

// The idle check alone sees an asynchronous preemption through, every time:
// the victim is deleted and the preemptor bound.
func TestAsynchronousPreemptionSeenThrough(t *testing.T) {
	r := New(Options{Settle: 0, Teardown: 10 * time.Second, Watchdog: time.Minute, BindWait: time.Second})
	text := fmt.Sprintf(`{"version": 1, "nodes": [%s], "pods": [%s], "workload": [%s]}`, testNode("node-0"),
		strings.Replace(testPod("victim", "3", ""), `"spec": {`, `"spec": {"nodeName": "node-0", `, 1),
		strings.Replace(testPod("preemptor", "3", ""), `"spec": {`, `"spec": {"priority": 100, `, 1))
	var s Scenario
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		res, err := runOne(t, r, &s)
		if err != nil {
			t.Fatal(err)
		}
		if p := res.Outcome.Pods["default/preemptor"]; p.Phase != "bound" || len(res.Outcome.Deleted) != 1 {
			t.Fatalf("preemptor %+v, deleted %v", p, res.Outcome.Deleted)
		}
	}
}

// stuckPlugin's Filter never returns: it blocks forever (durably, so the
// bubble reports a deadlock at teardown) or spins (only the watchdog sees it).
type stuckPlugin struct{ spin bool }

func (p stuckPlugin) Name() string { return "Stuck" }

func (p stuckPlugin) Filter(context.Context, fwk.CycleState, *v1.Pod, fwk.NodeInfo) *fwk.Status {
	if p.spin {
		for {
		}
	}
	select {}
}

func stuckRunner(spin bool, watchdog time.Duration) *Runner {
	opts := DefaultOptions
	opts.Watchdog = watchdog
	opts.Plugins = frameworkruntime.Registry{"Stuck": func(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
		return stuckPlugin{spin: spin}, nil
	}}
	return New(opts)
}

const stuckConfig = `{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
	"profiles": [{"schedulerName": "default-scheduler", "plugins": {"filter": {"enabled": [{"name": "Stuck"}]}}}]}`

func serveLines(t *testing.T, r *Runner, requests ...string) ([]map[string]any, int) {
	t.Helper()
	var out bytes.Buffer
	code := Serve(t, strings.NewReader(strings.Join(requests, "\n")+"\n"), &out, r)
	var responses []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var resp map[string]any
		if err := json.Unmarshal([]byte(line), &resp); err != nil {
			t.Fatalf("response %q: %v", line, err)
		}
		responses = append(responses, resp)
	}
	return responses, code
}

func scenarioRequest(t *testing.T, id int, sc *Scenario) string {
	data, err := json.Marshal(map[string]any{"id": id, "scenario": sc})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A plugin that blocks forever ends its scenario with an error naming the
// step and what was pending; the runner then exits for a fresh one.
func TestServeReportsAPluginThatNeverReturns(t *testing.T) {
	sc := testScenario(t, stuckConfig, 2, testPod("pod-0", "100m", ""))
	responses, code := serveLines(t, stuckRunner(false, time.Minute), `{"id": 0, "hello": true}`,
		scenarioRequest(t, 1, sc), scenarioRequest(t, 2, sc))
	if code != 3 || len(responses) != 2 {
		t.Fatalf("exit code %d, responses %v; want 3 after two responses (the second scenario is left to a fresh runner)", code, responses)
	}
	if responses[0]["virtualTime"] != true {
		t.Errorf("hello %v does not announce virtual time", responses[0])
	}
	msg, _ := responses[1]["error"].(string)
	for _, want := range []string{"deadlock", "tearing down", "virtual t=2s", "pending: a scheduling cycle"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if responses[1]["restart"] == nil {
		t.Errorf("response %v does not ask for a restart", responses[1])
	}
}

// A plugin that spins is seen by the real-time watchdog only; it ends the
// process, so it runs in a child process of this test binary.
func TestServeWatchdogStopsASpinningPlugin(t *testing.T) {
	if os.Getenv("RUNNER_TEST_SPIN") == "1" {
		sc := testScenario(t, stuckConfig, 2, testPod("pod-0", "100m", ""))
		Serve(t, strings.NewReader(scenarioRequest(t, 1, sc)+"\n"), os.Stdout, stuckRunner(true, time.Second))
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeWatchdogStopsASpinningPlugin$")
	cmd.Env = append(os.Environ(), "RUNNER_TEST_SPIN=1")
	out, err := cmd.Output()
	exit, _ := err.(*exec.ExitError)
	if exit == nil || exit.ExitCode() != 3 {
		t.Fatalf("child ended with %v, want exit status 3", err)
	}
	var resp map[string]any
	if err := json.Unmarshal(bytes.SplitN(out, []byte("\n"), 2)[0], &resp); err != nil {
		t.Fatalf("child output %q: %v", out, err)
	}
	msg, _ := resp["error"].(string)
	for _, want := range []string{"did not finish within 1s of real time", "scheduling at virtual t=0s", "the scheduling cycle of default/pod-0 runs"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

// Pods of equal priority start their first attempts in creation order, though
// the virtual clock stands still while they are created.
func TestEqualPrioritiesPopInCreationOrder(t *testing.T) {
	r := New(DefaultOptions)
	names := []string{"pod-c", "pod-a", "pod-d", "pod-b", "pod-e", "pod-0"}
	pods := make([]string, len(names))
	for i, name := range names {
		pods[i] = testPod(name, "100m", "")
	}
	res, err := runOne(t, r, testScenario(t, probeConfig, 5, pods...))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, rec := range res.Outcome.Trace {
		if rec.Point == "PreFilter" && rec.Plugin == "Probe0" {
			order = append(order, strings.TrimPrefix(rec.Pod, "default/"))
		}
	}
	if strings.Join(order, ",") != strings.Join(names, ",") {
		t.Errorf("first attempts in order %v, want creation order %v", order, names)
	}
}

// Pods rejected at Permit by a zero timeout are retried at once, without
// time passing (found by a dev-profile run, testdata/hot_loop.json: their
// nomination updates requeue them, backoffQ pops while activeQ is empty). The
// virtual clock must still reach the deadline.
func TestHotLoopReachesTheDeadline(t *testing.T) {
	data, err := os.ReadFile("testdata/hot_loop.json")
	if err != nil {
		t.Fatal(err)
	}
	var sc Scenario
	if err := json.Unmarshal(data, &sc); err != nil {
		t.Fatal(err)
	}
	res, err := runOne(t, New(DefaultOptions), &sc)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Outcome.Pods["default/pod-1"]
	if got.Phase != "unschedulable" || got.Attempts < hotLoopPops {
		t.Errorf("pod-1 %+v, want unschedulable after at least %d attempts", got, hotLoopPops)
	}
	if ts := records(res, "Permit"); len(ts) == 0 || ts[len(ts)-1] > 5 || ts[len(ts)-1] < 3 {
		t.Errorf("Permit calls from %v to %v: they must go on until the 5 s deadline", ts[0], ts[len(ts)-1])
	}
}
