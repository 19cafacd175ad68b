package main

import (
	"encoding/json"
	"io"
	"sort"
	"strconv"
)

// The categories of the output: each maps a key to the values seen with it.
const (
	labels      = "labels"
	annotations = "annotations"
	taints      = "taints"
	resources   = "resources"
)

// at is a position for the report: the file relative to its DIR and the line.
type at struct {
	file string
	line int
}

func (a at) less(b at) bool { return a.file < b.file || a.file == b.file && a.line < b.line }

// vocab collects what was found; only what an API server accepts gets in (validate.go), so
// the generators never draw an object the server would refuse.
type vocab struct {
	keyed     map[string]map[string]map[string]bool // category -> key -> values
	resources map[string]bool
	sources   map[string]at
}

func newVocab() *vocab {
	return &vocab{
		keyed:     map[string]map[string]map[string]bool{labels: {}, annotations: {}, taints: {}},
		resources: map[string]bool{},
		sources:   map[string]at{},
	}
}

// source keeps the earliest position of an item, so the output does not depend on walk order.
func (v *vocab) source(item string, pos at) {
	if old, ok := v.sources[item]; !ok || pos.less(old) {
		v.sources[item] = pos
	}
}

func (v *vocab) addKey(cat, key string, pos at) {
	if !validKey(key) {
		return
	}
	if v.keyed[cat][key] == nil {
		v.keyed[cat][key] = map[string]bool{}
	}
	v.source(cat+"/"+key, pos)
}

func (v *vocab) addValue(cat, key, value string, pos at) {
	v.addKey(cat, key, pos)
	if !validKey(key) || !validValue(cat, value) {
		return
	}
	v.keyed[cat][key][value] = true
	v.source(cat+"/"+key+"="+value, pos)
}

// addBounds adds the values around a bound a parsed value is compared with: one below, the
// bound, one above, and 0 (negative ones are no valid label values and drop out).
func (v *vocab) addBounds(cat, key string, bound float64, pos at) {
	for _, x := range []float64{bound - 1, bound, bound + 1, 0} {
		v.addValue(cat, key, strconv.FormatFloat(x, 'f', -1, 64), pos)
	}
}

func (v *vocab) addResource(name string, pos at) {
	if !extendedResource(name) {
		return
	}
	v.resources[name] = true
	v.source(resources+"/"+name, pos)
}

// output is the JSON schema the Python side reads: every key present, lists sorted, no nulls.
type output struct {
	Labels      map[string][]string `json:"labels"`
	Annotations map[string][]string `json:"annotations"`
	Taints      map[string][]string `json:"taints"`
	Resources   []string            `json:"resources"`
	Sources     map[string]string   `json:"sources"`
}

func (v *vocab) write(w io.Writer) error {
	out := output{
		Labels:      sortedValues(v.keyed[labels]),
		Annotations: sortedValues(v.keyed[annotations]),
		Taints:      sortedValues(v.keyed[taints]),
		Resources:   sortedSet(v.resources),
		Sources:     map[string]string{},
	}
	for item, pos := range v.sources {
		out.Sources[item] = pos.file + ":" + strconv.Itoa(pos.line)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func sortedValues(m map[string]map[string]bool) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, vs := range m {
		out[k] = sortedSet(vs)
	}
	return out
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
