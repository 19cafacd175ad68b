// Package driver drives ONE scheduler plugin directly, for the plugin contract
// properties (conformance/contracts): the plugin is the instance scheduler.New
// built from the effective profile, with its args and a real framework.Handle
// whose snapshot the driver sets, so it runs exactly as inside kube-scheduler;
// the driver then calls its extension points one by one.
package driver

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/kube-scheduler-conformance/harness/fwk"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/kube-scheduler-conformance/harness/runner"
)

// Driver holds the one plugin under test and the scheduler it was built in.
type Driver struct {
	ctx     context.Context
	cancel  context.CancelFunc
	profile string
	plugins []string // every plugin of the profile, sorted
	plugin  fwk.Plugin
	snap    *internalcache.Snapshot
	bound   bindings
	objects informed
	hints   internalqueue.QueueingHintMap
	// renew builds the plugin afresh: its factory, its args from the
	// profile, the framework as its Handle, as NewFramework built it.
	renew func() (fwk.Plugin, error)
	// notRenewable says why renew is nil: every call sequence then shares the framework's instance.
	notRenewable string
}

// InitRequest chooses the plugin: Config is a KubeSchedulerConfiguration
// (null: the v1 defaults), Profile a schedulerName (empty: the first profile).
type InitRequest struct {
	Config  []byte `json:"config"`
	Profile string `json:"profile"`
	Plugin  string `json:"plugin"`
}

// UnknownPluginError names the plugins the profile has.
type UnknownPluginError struct {
	Name    string
	Plugins []string
}

// Error names the plugin and the profile's plugins.
func (e *UnknownPluginError) Error() string {
	return fmt.Sprintf("plugin %q is not in the effective profile; its plugins are: %s", e.Name, strings.Join(e.Plugins, ", "))
}

// New builds the scheduler of the config with registry (the user's plugins)
// beside the in-tree ones and picks the plugin. An empty Plugin only lists
// the profile's plugins (Plugins()).
func New(req InitRequest, registry frameworkruntime.Registry) (*Driver, error) {
	cfg, err := runner.LoadConfig(req.Config)
	if err != nil {
		return nil, err
	}
	profile := req.Profile
	if profile == "" {
		profile = cfg.Profiles[0].SchedulerName
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &Driver{ctx: ctx, cancel: cancel, profile: profile}
	client := fake.NewClientset()
	d.bound.react(client)
	informers := runner.NewInformerFactory(client)
	opts := append(runner.SchedulerOptions(cfg), scheduler.WithFrameworkOutOfTreeRegistry(runner.Guarded(registry)))
	sched, err := scheduler.New(ctx, client, informers, nil, runner.RecorderFactory, opts...)
	if err != nil {
		cancel()
		return nil, err
	}
	// The snapshot every profile's Handle lists from (SnapshotSharedLister); the driver sets its contents.
	snap, err := runner.Unexported(reflect.ValueOf(sched), "nodeInfoSnapshot")
	if err != nil {
		cancel()
		return nil, err
	}
	d.snap = snap.Interface().(*internalcache.Snapshot)
	d.objects = informed{factory: informers, stores: map[cache.Store]bool{}}
	informers.Start(ctx.Done())
	informers.WaitForCacheSync(ctx.Done())
	fw, ok := sched.Profiles[profile]
	if !ok {
		cancel()
		return nil, fmt.Errorf("profile %q is not in the config; its profiles are: %s", profile, strings.Join(profileNames(sched), ", "))
	}
	byName, err := runner.Unexported(reflect.ValueOf(fw), "pluginsMap")
	if err != nil {
		cancel()
		return nil, err
	}
	for _, key := range byName.MapKeys() {
		d.plugins = append(d.plugins, key.String())
	}
	sort.Strings(d.plugins)
	if req.Plugin == "" {
		return d, nil
	}
	pl := byName.MapIndex(reflect.ValueOf(req.Plugin))
	if !pl.IsValid() {
		cancel()
		return nil, &UnknownPluginError{Name: req.Plugin, Plugins: d.plugins}
	}
	merged := frameworkplugins.NewInTreeRegistry()
	if err := merged.Merge(runner.Guarded(registry)); err != nil {
		cancel()
		return nil, err
	}
	factory := merged[req.Plugin]
	args := pluginArgs(cfg, profile, req.Plugin)
	d.renew = func() (fwk.Plugin, error) { return factory(ctx, args, fw) }
	if err := d.use(pl.Interface().(fwk.Plugin)); err != nil {
		cancel()
		return nil, err
	}
	// Some plugins cannot be built twice on one Handle (DynamicResources adds
	// an informer indexer of a fixed name): they keep the framework's instance.
	if _, err := d.renew(); err != nil {
		d.renew, d.notRenewable = nil, oneLine(err)
	}
	return d, nil
}

// pluginArgs are the plugin's args in the (defaulted) profile, as NewFramework passes them.
func pluginArgs(cfg *config.KubeSchedulerConfiguration, profile, name string) runtime.Object {
	for _, p := range cfg.Profiles {
		if p.SchedulerName != profile {
			continue
		}
		for _, pc := range p.PluginConfig {
			if pc.Name == name {
				return pc.Args
			}
		}
	}
	return nil
}

// use makes pl the plugin under test, with the queueing hints it registers.
func (d *Driver) use(pl fwk.Plugin) error {
	hints, err := registrations(d.ctx, pl)
	if err != nil {
		return fmt.Errorf("%s.EventsToRegister: %w", pl.Name(), err)
	}
	d.plugin, d.hints = pl, hints
	return nil
}

// Fresh replaces the plugin with a new instance, so that one call sequence
// never sees what an earlier one left in the plugin's own memory.
func (d *Driver) Fresh() error {
	if d.renew == nil {
		return nil
	}
	pl, err := d.renew()
	if err != nil {
		return fmt.Errorf("building %s again: %w", d.plugin.Name(), err)
	}
	return d.use(pl)
}

// registrations is what scheduler.New's buildQueueingHintMap registers for
// one plugin (hintMap, per release), with NewFramework's default for a
// plugin without EnqueueExtensions: every resource, every action.
func registrations(ctx context.Context, pl fwk.Plugin) (internalqueue.QueueingHintMap, error) {
	events := framework.UnrollWildCardResource()
	if ext, ok := pl.(fwk.EnqueueExtensions); ok {
		var err error
		if events, err = ext.EventsToRegister(ctx); err != nil {
			return nil, err
		}
	}
	return hintMap(pl.Name(), events), nil
}

func queueAlways(klog.Logger, *v1.Pod, any, any) (fwk.QueueingHint, error) { return fwk.Queue, nil }

// Close stops the scheduler's informers.
func (d *Driver) Close() { d.cancel() }

// Plugins are the names of every plugin of the profile.
func (d *Driver) Plugins() []string { return d.plugins }

// Points are the extension points the plugin implements, as the framework tells them from its type.
func (d *Driver) Points() []string {
	var out []string
	pl := d.plugin
	add := func(ok bool, name string) {
		if ok {
			out = append(out, name)
		}
	}
	_, ok := pl.(fwk.QueueSortPlugin)
	add(ok, "queueSort")
	_, ok = pl.(fwk.PreEnqueuePlugin)
	add(ok, "preEnqueue")
	if p, ok := pl.(fwk.PreFilterPlugin); ok {
		add(true, "preFilter")
		add(p.PreFilterExtensions() != nil, "preFilterExtensions")
	}
	_, ok = pl.(fwk.FilterPlugin)
	add(ok, "filter")
	_, ok = pl.(fwk.PostFilterPlugin)
	add(ok, "postFilter")
	_, ok = pl.(fwk.PreScorePlugin)
	add(ok, "preScore")
	if p, ok := pl.(fwk.ScorePlugin); ok {
		add(true, "score")
		add(p.ScoreExtensions() != nil, "scoreExtensions")
	}
	_, ok = pl.(fwk.ReservePlugin)
	add(ok, "reserve")
	_, ok = pl.(fwk.PermitPlugin)
	add(ok, "permit")
	_, ok = pl.(fwk.PreBindPlugin)
	add(ok, "preBind")
	_, ok = pl.(fwk.BindPlugin)
	add(ok, "bind")
	_, ok = pl.(fwk.PostBindPlugin)
	add(ok, "postBind")
	_, ok = pl.(fwk.EnqueueExtensions)
	add(ok, "enqueueExtensions")
	return out
}

func profileNames(sched *scheduler.Scheduler) []string {
	var out []string
	for name := range sched.Profiles {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
