package runner

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"

	"k8s.io/kubernetes/pkg/scheduler"

	"github.com/kube-scheduler-conformance/harness/fwk"
	"github.com/kube-scheduler-conformance/harness/probe"
)

// Observing a scenario's plugins (scenario `observe`: plugin names, or "*"
// for every plugin but the probes, which record themselves).
//
// A wrapper implementing every extension point would change what the
// framework decides from a plugin's type (which points it extends, whether it
// has EnqueueExtensions or SignPlugin), so the plugins are swapped after
// NewFramework made those decisions on the plugins themselves: each entry of a
// per-point list becomes that point's wrapper. The lists are unexported, hence
// reflect and unsafe; a release without one of these fields fails loudly.

type observedPoint struct {
	field string
	wrap  func(probe.Observer, any) any
}

var observedPoints = []observedPoint{
	{"preFilterPlugins", func(o probe.Observer, pl any) any { return o.PreFilter(pl.(fwk.PreFilterPlugin)) }},
	{"filterPlugins", func(o probe.Observer, pl any) any { return o.Filter(pl.(fwk.FilterPlugin)) }},
	{"postFilterPlugins", func(o probe.Observer, pl any) any { return o.PostFilter(pl.(fwk.PostFilterPlugin)) }},
	{"preScorePlugins", func(o probe.Observer, pl any) any { return o.PreScore(pl.(fwk.PreScorePlugin)) }},
	{"scorePlugins", func(o probe.Observer, pl any) any { return o.Score(pl.(fwk.ScorePlugin)) }},
	{"reservePlugins", func(o probe.Observer, pl any) any { return o.Reserve(pl.(fwk.ReservePlugin)) }},
	{"permitPlugins", func(o probe.Observer, pl any) any { return o.Permit(pl.(fwk.PermitPlugin)) }},
	{"preBindPlugins", func(o probe.Observer, pl any) any { return o.PreBind(pl.(fwk.PreBindPlugin)) }},
	{"bindPlugins", func(o probe.Observer, pl any) any { return o.Bind(pl.(fwk.BindPlugin)) }},
	{"postBindPlugins", func(o probe.Observer, pl any) any { return o.PostBind(pl.(fwk.PostBindPlugin)) }},
}

// observedNames says which plugins a scenario observes.
func observedNames(names []string) func(string) bool {
	all := slices.Contains(names, "*")
	return func(name string) bool {
		return !slices.Contains(probe.Names, name) && (all || slices.Contains(names, name))
	}
}

// unexported returns a settable view of struct field name of the struct v points to.
func unexported(v reflect.Value, name string) (reflect.Value, error) {
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, fmt.Errorf("%s is not a pointer to a struct", v.Type())
	}
	f := v.Elem().FieldByName(name)
	if !f.IsValid() {
		return reflect.Value{}, fmt.Errorf("%s has no field %s", v.Type(), name)
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem(), nil
}

// observePlugins swaps the wanted plugins of every profile, and the queue's PreEnqueue plugins, for their wrappers.
func observePlugins(sched *scheduler.Scheduler, o probe.Observer, wanted func(string) bool) error {
	for profile, fw := range sched.Profiles {
		for _, point := range observedPoints {
			list, err := unexported(reflect.ValueOf(fw), point.field)
			if err != nil {
				return fmt.Errorf("observing plugins of profile %s: %w", profile, err)
			}
			for i := 0; i < list.Len(); i++ {
				entry := list.Index(i)
				if wanted(entry.Interface().(fwk.Plugin).Name()) {
					entry.Set(reflect.ValueOf(point.wrap(o, entry.Interface())))
				}
			}
		}
	}
	// The queue copied each profile's PreEnqueue plugins into a map when the scheduler was built.
	byProfile, err := unexported(reflect.ValueOf(sched.SchedulingQueue), "preEnqueuePluginMap")
	if err != nil {
		return fmt.Errorf("observing PreEnqueue plugins: %w", err)
	}
	for _, profile := range byProfile.MapKeys() {
		plugins := byProfile.MapIndex(profile)
		for _, name := range plugins.MapKeys() {
			if wanted(name.String()) {
				pl := plugins.MapIndex(name).Interface().(fwk.PreEnqueuePlugin)
				plugins.SetMapIndex(name, reflect.ValueOf(o.PreEnqueue(pl)))
			}
		}
	}
	return nil
}
