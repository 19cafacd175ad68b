package probe

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// ScriptAnnotation holds a pod's probe script (docs/probes.md, "The script").
const ScriptAnnotation = "sched-conformance.io/probe-script"

// Names are the registered probe plugins.
var Names = []string{"Probe0", "Probe1", "Probe2", "Probe3", "Probe4", "Probe5", "Probe6", "Probe7"}

// scriptedPoints are the points a script may name, in the order error messages list them.
var scriptedPoints = []string{"PreEnqueue", "PreFilter", "AddPod", "RemovePod", "Filter", "PostFilter", "PreScore",
	"Score", "NormalizeScore", "Reserve", "Permit", "PreBindPreFlight", "PreBind", "Bind"}

// nodePoints accept byNode: their call concerns one node.
var nodePoints = map[string]bool{"AddPod": true, "RemovePod": true, "Filter": true, "Score": true, "Reserve": true,
	"Permit": true, "PreBindPreFlight": true, "PreBind": true, "Bind": true}

var pointFields = map[string][]string{"PreFilter": {"result"}, "Score": {"score"}, "NormalizeScore": {"scores"},
	"PostFilter": {"nominate"}, "Permit": {"timeout", "then"}}

// codeNames are fwk.Code's names in code order (fwk.Code(i).String() == codeNames[i]).
var codeNames = []string{"Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait", "Skip", "Pending"}

// Signal is a Permit action's `then`: Allow or Reject the waiting pod after After.
type Signal struct {
	Allow   bool
	After   time.Duration
	Message string
}

// Action is what a probe does at one point for one attempt.
type Action struct {
	Code     fwk.Code
	Reasons  []string
	ByNode   map[string]*Action
	Result   []string // nil: no PreFilterResult (all nodes)
	Score    int64
	Scores   map[string]int64
	Nominate *string
	Timeout  time.Duration
	Then     *Signal
}

var (
	defaultAction = &Action{Code: fwk.Success}
	defaultBind   = &Action{Code: fwk.Skip}
)

// Script maps plugin -> point -> one action per attempt (the last repeats).
type Script map[string]map[string][]*Action

// action picks the action for an attempt (1-based; 0 uses the first) and node ("" for none).
func (s Script) action(plugin, point string, attempt int, node string) *Action {
	perAttempt := s[plugin][point]
	if len(perAttempt) == 0 {
		if point == "Bind" {
			return defaultBind
		}
		return defaultAction
	}
	chosen := perAttempt[min(max(attempt, 1), len(perAttempt))-1]
	if node != "" {
		if byNode, ok := chosen.ByNode[node]; ok {
			return byNode
		}
	}
	return chosen
}

// ParseScript reads the annotation value. Its errors are the reference's
// ScriptError messages (reference/probe/script.py), check for check.
func ParseScript(text string) (Script, error) {
	if text == "" {
		return Script{}, nil
	}
	data, err := decodeJSON(text)
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	top, ok := data.(*object)
	if !ok {
		return nil, fmt.Errorf("expected an object of plugin -> point -> action, got %s", kind(data))
	}
	script := Script{}
	for _, plugin := range top.keys {
		if !slices.Contains(Names, plugin) {
			return nil, fmt.Errorf("unknown plugin %s; probes are Probe0..Probe7", pyStr(plugin))
		}
		points, ok := top.vals[plugin].(*object)
		if !ok {
			return nil, fmt.Errorf("%s: expected an object of point -> action, got %s", plugin, kind(top.vals[plugin]))
		}
		script[plugin] = map[string][]*Action{}
		for _, point := range points.keys {
			if !slices.Contains(scriptedPoints, point) {
				return nil, fmt.Errorf("%s: unknown point %s; scripted points: %s", plugin, pyStr(point),
					strings.Join(scriptedPoints, ", "))
			}
			path := plugin + "." + point
			value := points.vals[point]
			list, isList := value.([]any)
			if !isList {
				list = []any{value}
			} else if len(list) == 0 {
				return nil, fmt.Errorf("%s: an empty list of attempts; give at least one action", path)
			}
			for i, raw := range list {
				p := path
				if isList {
					p = fmt.Sprintf("%s[%d]", path, i)
				}
				a, err := parseAction(raw, point, p, false)
				if err != nil {
					return nil, err
				}
				script[plugin][point] = append(script[plugin][point], a)
			}
		}
	}
	return script, nil
}

func parseAction(value any, point, path string, nested bool) (*Action, error) {
	raw, ok := value.(*object)
	if !ok {
		return nil, fmt.Errorf("%s: expected an action object, got %s", path, kind(value))
	}
	allowed := append([]string{"code", "reasons"}, pointFields[point]...)
	if nodePoints[point] && !nested {
		allowed = append(allowed, "byNode")
	}
	sort.Strings(allowed)
	if unknown := unknownKeys(raw, allowed); len(unknown) > 0 {
		return nil, fmt.Errorf("%s: unknown field %s at %s; allowed: %s", path, pyStr(unknown[0]), point,
			strings.Join(allowed, ", "))
	}
	a := &Action{}
	codeName := any("Success")
	if point == "Bind" {
		codeName = "Skip"
	}
	if v, ok := raw.get("code"); ok {
		codeName = v
	}
	name, _ := codeName.(string)
	code := slices.Index(codeNames, name)
	if code < 0 {
		return nil, fmt.Errorf("%s.code: unknown code %s; use one of %s", path, pyRepr(codeName),
			strings.Join(codeNames, ", "))
	}
	a.Code = fwk.Code(code)
	var err error
	if v, ok := raw.get("reasons"); ok {
		if a.Reasons, ok = stringList(v); !ok {
			return nil, fmt.Errorf("%s.reasons: expected a list of strings, got %s", path, pyRepr(v))
		}
	}
	byNode, hasByNode := raw.get("byNode")
	if _, isObject := byNode.(*object); hasByNode && !isObject {
		return nil, fmt.Errorf("%s.byNode: expected an object of node -> action, got %s", path, kind(byNode))
	}
	if v, ok := raw.get("result"); ok && v != nil {
		if a.Result, ok = stringList(v); !ok {
			return nil, fmt.Errorf("%s.result: expected a list of node names, got %s", path, pyRepr(v))
		}
	}
	if v, ok := raw.get("score"); ok {
		if a.Score, ok = integer(v); !ok {
			return nil, fmt.Errorf("%s.score: expected an integer, got %s", path, pyRepr(v))
		}
	}
	if v, ok := raw.get("scores"); ok {
		if a.Scores, ok = integerMap(v); !ok {
			return nil, fmt.Errorf("%s.scores: expected an object of node -> integer, got %s", path, pyRepr(v))
		}
	}
	if v, ok := raw.get("nominate"); ok && v != nil {
		s, isString := v.(string)
		if !isString {
			return nil, fmt.Errorf("%s.nominate: expected a node name, got %s", path, pyRepr(v))
		}
		a.Nominate = &s
	}
	if hasByNode {
		nodes := byNode.(*object)
		a.ByNode = make(map[string]*Action, len(nodes.keys))
		for _, node := range nodes.keys {
			if a.ByNode[node], err = parseAction(nodes.vals[node], point, path+".byNode."+node, true); err != nil {
				return nil, err
			}
		}
	}
	if a.Timeout, err = duration(raw, "timeout", path+".timeout"); err != nil {
		return nil, err
	}
	if a.Then, err = parseSignal(raw, path+".then"); err != nil {
		return nil, err
	}
	return a, nil
}

func parseSignal(action *object, path string) (*Signal, error) {
	value, ok := action.get("then")
	if !ok || value == nil {
		return nil, nil
	}
	raw, ok := value.(*object)
	if !ok {
		return nil, fmt.Errorf("%s: expected {signal, after, message}, got %s", path, kind(value))
	}
	if unknown := unknownKeys(raw, []string{"after", "message", "signal"}); len(unknown) > 0 {
		return nil, fmt.Errorf("%s: unknown field %s; allowed: after, message, signal", path, pyStr(unknown[0]))
	}
	signal, _ := raw.get("signal")
	if signal != "allow" && signal != "reject" {
		return nil, fmt.Errorf("%s.signal: %s is not 'allow' or 'reject'", path, pyRepr(signal))
	}
	s := &Signal{Allow: signal == "allow"}
	if v, ok := raw.get("message"); ok {
		if s.Message, ok = v.(string); !ok {
			return nil, fmt.Errorf("%s.message: expected a string, got %s", path, pyRepr(v))
		}
	}
	var err error
	s.After, err = duration(raw, "after", path+".after")
	return s, err
}

// duration reads a Go duration string field (default "0s").
func duration(raw *object, key, path string) (time.Duration, error) {
	v, ok := raw.get(key)
	if !ok {
		return 0, nil
	}
	text, isString := v.(string)
	if !isString {
		return 0, fmt.Errorf("%s: expected a Go duration string such as \"2s\", got %s", path, pyRepr(v))
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", path, err)
	}
	if d < 0 {
		return 0, fmt.Errorf("%s: %s is negative", path, pyStr(text))
	}
	return d, nil
}
