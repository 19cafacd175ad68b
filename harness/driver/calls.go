package driver

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/kube-scheduler-conformance/harness/fwk"
	"github.com/kube-scheduler-conformance/harness/runner"
)

// Call is one step of a call sequence (docs/contracts.md). Pod, Other, Nodes
// and Pods are manifests; State names a CycleState of the sequence.
type Call struct {
	Point string            `json:"point"`
	State string            `json:"state,omitempty"`
	Pod   json.RawMessage   `json:"pod,omitempty"`
	Node  string            `json:"node,omitempty"`
	Other json.RawMessage   `json:"other,omitempty"`
	Nodes []json.RawMessage `json:"nodes,omitempty"`
	Pods  []json.RawMessage `json:"pods,omitempty"`
	// Objects are the snapshot's other API objects (ObjectKinds), for the plugins' listers.
	Objects []json.RawMessage `json:"objects,omitempty"`
	// Queued are the queued pods of lessMatrix.
	Queued []QueuedPod `json:"queued,omitempty"`
	// Event is the cluster event of hint.
	Event *Event `json:"event,omitempty"`
	// Repeat is how often parallel calls Filter or Score on every node.
	Repeat int `json:"repeat,omitempty"`
	// Parallel is the point parallel calls (filter or score).
	Parallel string `json:"parallel,omitempty"`
	// When, the index of an earlier call of the sequence, runs this call only
	// as the framework would after that one: it returned Success (not Skip,
	// not a rejection) and, for a PreFilter result naming nodes, Node is one.
	When *int `json:"when,omitempty"`
	// Unless, the index of an earlier call, skips this call when that one
	// rejected the pod (any code but Success and Skip) or was skipped: the
	// framework runs PreScore and Score after a PreFilter that returned Skip.
	Unless *int `json:"unless,omitempty"`
}

// Result is what one call returned. Panic is set when the plugin panicked;
// Mutated names the inputs the call changed.
type Result struct {
	Code       string           `json:"code,omitempty"`
	Reasons    []string         `json:"reasons,omitempty"`
	NodeNames  []string         `json:"nodeNames,omitempty"`
	AllNodes   bool             `json:"allNodes,omitempty"`
	Score      *int64           `json:"score,omitempty"`
	Scores     map[string]int64 `json:"scores,omitempty"`
	Normalized map[string]int64 `json:"normalized,omitempty"`
	Less       [][]bool         `json:"less,omitempty"`
	Hint       *HintResult      `json:"hint,omitempty"`
	Panic      string           `json:"panic,omitempty"`
	Mutated    []string         `json:"mutated,omitempty"`
	// Timeout is Permit's wait in nanoseconds, when it said Wait.
	Timeout *int64 `json:"timeout,omitempty"`
	// Bound is the node Bind bound the pod to in the API ("" for none).
	Bound *string `json:"bound,omitempty"`
	// Nominated is PostFilter's nominating info.
	Nominated *Nominated `json:"nominated,omitempty"`
	Error     string     `json:"error,omitempty"`
	// Skipped: When said the framework would not make this call.
	Skipped bool `json:"skipped,omitempty"`
}

// sequence is one request's state: its cycle states and decoded manifests.
type sequence struct {
	d      *Driver
	states map[string]fwk.CycleState
	pods   map[string]*v1.Pod
	// filtered records, per cycle state, what Filter answered per node:
	// PreScore and Score see the nodes it accepted, as upstream passes them
	// only the feasible nodes, and PostFilter the statuses.
	filtered map[string]map[string]*fwk.Status
	// preFiltered is PreFilter's status per cycle state.
	preFiltered map[string]*fwk.Status
}

// Run runs calls in order on a fresh plugin instance, a fresh empty snapshot
// and fresh cycle states.
func (d *Driver) Run(calls []Call) ([]Result, error) {
	if err := d.Fresh(); err != nil {
		return nil, err
	}
	*d.snap = *internalcache.NewEmptySnapshot()
	d.bound.reset()
	if err := d.objects.replace(nil); err != nil {
		return nil, err
	}
	s := &sequence{d: d, states: map[string]fwk.CycleState{}, pods: map[string]*v1.Pod{},
		filtered: map[string]map[string]*fwk.Status{}, preFiltered: map[string]*fwk.Status{}}
	out := make([]Result, len(calls))
	for i, c := range calls {
		if (c.When != nil && !follows(out, *c.When, i, c.Node)) || (c.Unless != nil && rejected(out, *c.Unless, i)) {
			out[i] = Result{Skipped: true}
			continue
		}
		out[i] = s.call(c)
	}
	return out, nil
}

// follows says whether the framework makes a call after results[when].
func follows(results []Result, when, i int, node string) bool {
	if when < 0 || when >= i {
		return false
	}
	r := results[when]
	if r.Skipped || r.Code != fwk.Success.String() {
		return false
	}
	if node == "" || r.AllNodes || r.NodeNames == nil {
		return true
	}
	return slices.Contains(r.NodeNames, node)
}

// rejected says whether results[unless] ended the pod's cycle.
func rejected(results []Result, unless, i int) bool {
	if unless < 0 || unless >= i {
		return true
	}
	r := results[unless]
	return r.Skipped || (r.Code != fwk.Success.String() && r.Code != fwk.Skip.String())
}

func (s *sequence) call(c Call) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			text := panicText(p)
			if strings.Contains(firstFrame(text), "harness/driver.") {
				res = Result{Error: "driver bug: " + text}
			} else {
				res = Result{Panic: text}
			}
		}
	}()
	op, ok := operations[c.Point]
	if !ok {
		return Result{Error: fmt.Sprintf("point %q is not one the driver calls; use one of %s", c.Point, strings.Join(operationNames(), ", "))}
	}
	res, err := op(s, c)
	if err != nil {
		return Result{Error: err.Error()}
	}
	return res
}

// panicText is the panic value and the head of the stack from the panicking frame on.
func panicText(p any) string {
	lines := strings.Split(string(debug.Stack()), "\n")
	start := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") {
			start = i + 2
			break
		}
	}
	end := min(len(lines), start+12)
	return fmt.Sprintf("%v\n%s", p, strings.Join(lines[start:end], "\n"))
}

// firstFrame is the function of panicText's stack where the panic happened, runtime frames skipped.
func firstFrame(text string) string {
	for _, l := range strings.Split(text, "\n")[1:] {
		if !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "runtime.") {
			return l
		}
	}
	return ""
}

// pod decodes a manifest once per sequence.
func (s *sequence) pod(raw json.RawMessage) (*v1.Pod, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("the call needs a pod")
	}
	if p, ok := s.pods[string(raw)]; ok {
		s.d.objects.add(p) // the version this call names, should an update of it have replaced it
		return p, nil
	}
	obj, err := runner.DecodeManifest(raw)
	if err != nil {
		return nil, err
	}
	p, ok := obj.(*v1.Pod)
	if !ok {
		return nil, fmt.Errorf("expected a Pod manifest, got %T", obj)
	}
	s.pods[string(raw)] = p
	s.d.objects.add(p)
	return p, nil
}

func (s *sequence) state(name string, create bool) (fwk.CycleState, error) {
	if create {
		st := framework.NewCycleState()
		st.Write(foreignKey, &foreignState{Value: "other plugins' data"})
		s.states[name] = st
		return st, nil
	}
	st, ok := s.states[name]
	if !ok {
		return nil, fmt.Errorf("cycle state %q does not exist yet: run preFilter or preScore with it first", name)
	}
	return st, nil
}

func (s *sequence) nodeInfo(name string) (fwk.NodeInfo, error) {
	ni, err := s.d.snap.Get(name)
	if err != nil {
		return nil, fmt.Errorf("node %q is not in the snapshot", name)
	}
	return ni, nil
}

// feasibleNodes are the nodes Filter accepted with state, or every node when Filter never ran with it.
func (s *sequence) feasibleNodes(state string) []fwk.NodeInfo {
	answered, ok := s.filtered[state]
	if !ok {
		return s.nodes()
	}
	var out []fwk.NodeInfo
	for _, ni := range s.nodes() {
		if sts, ok := answered[ni.Node().Name]; ok && sts.IsSuccess() {
			out = append(out, ni)
		}
	}
	return out
}

// nodes are the snapshot's node infos in name order (the snapshot's own list order is a map's).
func (s *sequence) nodes() []fwk.NodeInfo {
	list, _ := s.d.snap.List()
	out := append([]fwk.NodeInfo(nil), list...)
	sort.Slice(out, func(i, j int) bool { return out[i].Node().Name < out[j].Node().Name })
	return out
}

// foreignKey is another plugin's entry in every cycle state: no plugin may change it.
const foreignKey fwk.StateKey = "conformance.io/another-plugin"

type foreignState struct{ Value string }

// Clone copies the entry, as CycleState.Clone does for every entry.
func (f *foreignState) Clone() fwk.StateData { c := *f; return &c }

// status reads a returned status; nil is Success, as everywhere in the framework.
func status(st *fwk.Status) Result {
	if st == nil {
		return Result{Code: fwk.Success.String()}
	}
	return Result{Code: st.Code().String(), Reasons: st.Reasons()}
}

// watched digests a call's inputs before it and names those it changed.
type watched struct {
	names   []string
	reads   []func() any
	digests []string
}

// watch takes name, value pairs; a value that is a func() any is read anew after the call.
func watch(pairs ...any) *watched {
	w := &watched{}
	for i := 0; i < len(pairs); i += 2 {
		read, ok := pairs[i+1].(func() any)
		if !ok {
			v := pairs[i+1]
			read = func() any { return v }
		}
		w.names = append(w.names, pairs[i].(string))
		w.reads = append(w.reads, read)
		w.digests = append(w.digests, digest(read()))
	}
	return w
}

func (w *watched) changed() []string {
	var out []string
	for i, read := range w.reads {
		if digest(read()) != w.digests[i] {
			out = append(out, w.names[i])
		}
	}
	return out
}

// foreign reads the other plugin's entry of st, for watch.
func foreign(st fwk.CycleState) func() any {
	return func() any {
		v, err := st.Read(foreignKey)
		if err != nil {
			return "deleted"
		}
		return v
	}
}

var logger = klog.Background()
