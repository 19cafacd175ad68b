package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// Args are a probe's pluginConfig args (docs/probes.md, "Names and configuration").
type Args struct {
	// ScoreExtensions makes ScoreExtensions() return the probe, so NormalizeScore runs.
	ScoreExtensions bool `json:"scoreExtensions"`
	// Collector, when set, receives every record as a JSON POST instead of the in-process trace.
	Collector string `json:"collector"`
}

// decodeArgs reads args strictly: an unknown field is a config error, as in the reference.
func decodeArgs(obj runtime.Object) (Args, error) {
	var args Args
	unknown, ok := obj.(*runtime.Unknown)
	if obj == nil || (ok && len(unknown.Raw) == 0) {
		return args, nil
	}
	if !ok {
		return args, fmt.Errorf("probe args: want runtime.Unknown, got %T", obj)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(unknown.Raw, &raw); err != nil {
		return args, fmt.Errorf("probe args: %v", err)
	}
	delete(raw, "apiVersion")
	delete(raw, "kind")
	trimmed, _ := json.Marshal(raw)
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&args); err != nil {
		detail := strings.TrimPrefix(err.Error(), "json: ")
		return args, fmt.Errorf("probe args: %s; probe args are scoreExtensions and collector", detail)
	}
	return args, nil
}

// Factory builds the probe called name, recording into rec.
func Factory(name string, rec *Recorder) frameworkruntime.PluginFactory {
	return func(_ context.Context, obj runtime.Object, handle fwk.Handle) (fwk.Plugin, error) {
		args, err := decodeArgs(obj)
		if err != nil {
			return nil, err
		}
		return &Probe{name: name, args: args, handle: handle, rec: rec, epoch: rec.Epoch()}, nil
	}
}

// Registry is an out-of-tree registry with the eight probes sharing rec, for
// scheduler.WithFrameworkOutOfTreeRegistry or, entry by entry, app.WithPlugin.
func Registry(rec *Recorder) frameworkruntime.Registry {
	r := frameworkruntime.Registry{}
	for _, name := range Names {
		r[name] = Factory(name, rec)
	}
	return r
}
