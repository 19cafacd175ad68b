package probe_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"testing/synctest"

	"github.com/kube-scheduler-conformance/harness/runner"
)

// goldenDir holds {"scenario": ..., "trace": [...]} files written by the
// Python probes on the reference scheduler (tests/golden/probes/).
var goldenDir = filepath.Join("..", "..", "tests", "golden", "probes")

// TestGoldenTraces runs every golden scenario on the upstream scheduler and
// compares its trace with the golden one, modulo what upstream leaves to
// chance: `t`, `seq`, and the order of records it produces concurrently.
//
// Other chance is kept out of the goldens by their scenarios
// (tests/golden/scenarios_*.py), not by this comparison:
//   - Filter and Score errors cancel the other nodes' evaluation
//     (schedule_one.go findNodesThatPassFilters and framework/runtime
//     framework.go RunScorePlugins: SendWithCancel), so which nodes were
//     called is chance: Filter errors have one node, Score never errors.
//   - Equal best scores are broken by Randomizer (schedule_one.go
//     prioritizeNodes: rand.Int(); framework/sorted_nodes.go): every scored
//     golden has one best node.
//   - NormalizeScore runs for all plugins in parallel (framework.go
//     normalizeScores): at most one probe has scoreExtensions.
//   - PreEnqueue plugins run in map order and stop at the first rejection
//     (backend/queue/scheduling_queue.go runPreEnqueuePluginsForPod): a
//     rejecting PreEnqueue probe is the only one at PreEnqueue.
//   - A failed pod's nominatedNodeName reaches the queue's copy of the pod
//     only when its asynchronous status patch comes back through the
//     informer (schedule_one.go handleSchedulingFailure -> updatePod ->
//     APICacher.PatchPodStatus -> apiDispatcher), and findNodesThatFitPod
//     evaluates pod.Status.NominatedNodeName alone first: a nominated pod
//     rejected on its node is never retried in a golden.
func TestGoldenTraces(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no golden files in %s; write them from the repository root with `python -m tests.golden.write_probes`", goldenDir)
	}
	r := runner.New(runner.DefaultOptions)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var golden struct {
				Scenario runner.Scenario  `json:"scenario"`
				Trace    []map[string]any `json:"trace"`
			}
			if err := json.Unmarshal(data, &golden); err != nil {
				t.Fatal(err)
			}
			var res *runner.Result
			synctest.Test(t, func(*testing.T) { res, err = r.Run(context.Background(), &golden.Scenario) })
			if err != nil {
				t.Fatal(err)
			}
			encoded, err := json.Marshal(res.Outcome.Trace)
			if err != nil {
				t.Fatal(err)
			}
			var got []map[string]any
			if err := json.Unmarshal(encoded, &got); err != nil {
				t.Fatal(err)
			}
			want := canonical(golden.Trace)
			if have := canonical(got); !reflect.DeepEqual(have, want) {
				t.Errorf("trace differs from %s\n got: %s\nwant: %s", file, lines(have), lines(want))
			}
		})
	}
}

// parallel are the points upstream calls concurrently for different nodes of
// one attempt (Filter and Score over nodes; the preemption dry run's
// RemovePod/AddPod/Filter over candidate nodes). PreEnqueue plugins run in
// Go map order (backend/queue: preEnqueuePluginMap), so they are unordered too.
var parallel = map[string]bool{"Filter": true, "Score": true, "AddPod": true, "RemovePod": true}

// canonical drops seq and t, groups the records by pod keeping each pod's own
// order (a pod's binding cycle runs concurrently with the next pod's
// scheduling cycle), then sorts each run of consecutive records of one pod and
// attempt at parallel points by node (keeping each node's own order), and each
// run of PreEnqueue records by plugin.
func canonical(trace []map[string]any) []map[string]any {
	out := make([]map[string]any, len(trace))
	for i, r := range trace {
		c := map[string]any{}
		for k, v := range r {
			if k != "seq" && k != "t" {
				c[k] = v
			}
		}
		out[i] = c
	}
	sort.SliceStable(out, func(i, j int) bool { return str(out[i]["pod"]) < str(out[j]["pod"]) })
	for start := 0; start < len(out); {
		end := start + 1
		for end < len(out) && sameRun(out[start], out[end]) {
			end++
		}
		run := out[start:end]
		if run[0]["point"] == "PreEnqueue" {
			sort.SliceStable(run, func(i, j int) bool { return str(run[i]["plugin"]) < str(run[j]["plugin"]) })
		} else if parallel[str(run[0]["point"])] {
			sort.SliceStable(run, func(i, j int) bool { return str(run[i]["node"]) < str(run[j]["node"]) })
		}
		start = end
	}
	return out
}

func sameRun(a, b map[string]any) bool {
	if a["pod"] != b["pod"] || a["attempt"] != b["attempt"] {
		return false
	}
	pa, pb := str(a["point"]), str(b["point"])
	return (pa == "PreEnqueue" && pb == "PreEnqueue") || (parallel[pa] && parallel[pb])
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func lines(trace []map[string]any) string {
	out := ""
	for _, r := range trace {
		data, _ := json.Marshal(r)
		out += "\n  " + string(data)
	}
	return out
}
