package probe

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Record is one trace entry (docs/probes.md, "The trace"). Optional fields are
// written only when set, like the Python reference's records.
type Record struct {
	Seq     int
	T       float64
	Pod     string
	Point   string
	Attempt int
	Plugin  string
	Node    string
	Code    string
	Reasons []string

	Score     *int64
	Scores    map[string]int64 // NormalizeScore: written even when empty
	HasScores bool
	Result    []string // PreFilter with a result: written even when empty
	HasResult bool
	Nominate  *string
	Timeout   *float64
	Leaked    bool
	Delivered *bool
}

// MarshalJSON writes the keys in the reference's order: seq, t, pod, point, then the fields.
func (r Record) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"seq":`)
	b.WriteString(strconv.Itoa(r.Seq))
	b.WriteString(`,"t":`)
	b.WriteString(strconv.FormatFloat(r.T, 'f', -1, 64))
	field := func(key string, v any) error {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b.WriteString(`,"` + key + `":`)
		b.Write(data)
		return nil
	}
	fields := []struct {
		key  string
		set  bool
		data any
	}{
		{"pod", true, r.Pod},
		{"point", true, r.Point},
		{"attempt", true, r.Attempt},
		{"plugin", r.Plugin != "", r.Plugin},
		{"node", r.Node != "", r.Node},
		{"code", r.Code != "", r.Code},
		{"reasons", len(r.Reasons) > 0, r.Reasons},
		{"score", r.Score != nil, r.Score},
		{"scores", r.HasScores, nonNilScores(r.Scores)},
		{"result", r.HasResult, nonNilList(r.Result)},
		{"nominate", r.Nominate != nil, r.Nominate},
		{"timeout", r.Timeout != nil, r.Timeout},
		{"leaked", r.Leaked, true},
		{"delivered", r.Delivered != nil, r.Delivered},
	}
	for _, f := range fields {
		if f.set {
			if err := field(f.key, f.data); err != nil {
				return nil, err
			}
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func nonNilScores(m map[string]int64) map[string]int64 {
	if m == nil {
		return map[string]int64{}
	}
	return m
}

func nonNilList(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}
