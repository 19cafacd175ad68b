package probe

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// testdata/script_errors.json is the Python reference's verdict on each script
// (reference.probe.script.parse_script; tests/conformance/test_upstream_backend.py
// checks that it still is). The Go parser must agree message for message,
// because the message becomes a traced status reason.
func TestParseScriptAgreesWithReference(t *testing.T) {
	data, err := os.ReadFile("testdata/script_errors.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Script string  `json:"script"`
		Error  *string `json:"error"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		_, err := ParseScript(c.Script)
		switch {
		case c.Error == nil && err != nil:
			t.Errorf("%s: unexpected error %q", c.Script, err)
		case c.Error != nil && err == nil:
			t.Errorf("%s: no error, want %q", c.Script, *c.Error)
		case c.Error != nil && err.Error() != *c.Error:
			t.Errorf("%s:\n got %q\nwant %q", c.Script, err, *c.Error)
		}
	}
}

func TestScriptAction(t *testing.T) {
	s, err := ParseScript(`{"Probe0": {
		"Filter": [{"code": "Unschedulable", "reasons": ["a"], "byNode": {"n1": {"code": "Success"}}}, {"code": "Error"}],
		"Permit": {"code": "Wait", "timeout": "1.5s", "then": {"signal": "reject", "after": "150ms", "message": "m"}},
		"Bind": {}}}`)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name          string
		plugin, point string
		attempt       int
		node          string
		want          fwk.Code
	}{
		{"attempt 0 uses the first action", "Probe0", "Filter", 0, "n0", fwk.Unschedulable},
		{"attempt 1", "Probe0", "Filter", 1, "n0", fwk.Unschedulable},
		{"byNode replaces the action", "Probe0", "Filter", 1, "n1", fwk.Success},
		{"attempt 2", "Probe0", "Filter", 2, "n1", fwk.Error},
		{"the last action repeats", "Probe0", "Filter", 7, "n0", fwk.Error},
		{"unscripted point", "Probe0", "Score", 1, "n0", fwk.Success},
		{"unscripted plugin", "Probe1", "Filter", 1, "n0", fwk.Success},
		{"unscripted Bind skips", "Probe1", "Bind", 1, "n0", fwk.Skip},
		{"scripted Bind defaults to Skip", "Probe0", "Bind", 1, "n0", fwk.Skip},
	}
	for _, c := range cases {
		if got := s.action(c.plugin, c.point, c.attempt, c.node).Code; got != c.want {
			t.Errorf("%s: code %v, want %v", c.name, got, c.want)
		}
	}
	permit := s.action("Probe0", "Permit", 1, "n0")
	if permit.Timeout != 1500*time.Millisecond || permit.Then == nil || permit.Then.Allow ||
		permit.Then.After != 150*time.Millisecond || permit.Then.Message != "m" {
		t.Errorf("Permit action %+v then %+v", permit, permit.Then)
	}
	if r := s.action("Probe0", "Filter", 1, "n0").Reasons; len(r) != 1 || r[0] != "a" {
		t.Errorf("reasons %v", r)
	}
}

func TestPyRepr(t *testing.T) {
	cases := map[string]string{
		`1e16`: "1e+16", `1e15`: "1000000000000000.0", `0.0001`: "0.0001", `0.00001`: "1e-05",
		`-0.0`: "-0.0", `2.5`: "2.5", `7`: "7", `"a'b"`: `"a'b"`, `"a'\"b"`: `'a\'"b'`, `{"b": 1, "a": [true]}`: "{'b': 1, 'a': [True]}",
	}
	for in, want := range cases {
		v, err := decodeJSON(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := pyRepr(v); got != want {
			t.Errorf("pyRepr(%s) = %s, want %s", in, got, want)
		}
	}
}
