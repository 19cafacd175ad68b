package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	configv1 "k8s.io/kube-scheduler/config/v1"
	"k8s.io/kubernetes/pkg/scheduler"

	"github.com/kube-scheduler-conformance/harness/probe"
)

// Layout builds the frameworks of config and returns, per profile, the plugins
// each extension point runs (what an empty scenario's outcome reports), with
// Handle.KubeConfig() pointing at the API server of kubeconfig. It is for the
// plugins that build their own clients and informers from it (coscheduling,
// capacity scheduling): they cannot start in a scenario's bubble, whose API
// server is a fake, but the cluster backend needs to know where they run. It
// runs outside any bubble, on the real clock, and stops the plugins after.
func (r *Runner) Layout(raw json.RawMessage, kubeconfig string) (map[string]*configv1.Plugins, error) {
	cfg, err := LoadConfig(raw)
	if err != nil {
		return nil, err
	}
	kc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("layout: kubeconfig %s: %w", kubeconfig, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st := newStore(time.Now(), nil, func() {})
	informerFactory := newInformerFactory(st.client)
	defer informerFactory.Shutdown()
	rec := probe.NewRecorder()
	defer rec.Close()
	registry := probe.Registry(rec)
	if err := registry.Merge(guarded(r.opts.Plugins)); err != nil {
		return nil, fmt.Errorf("registering the runner's plugins beside the probes: %w", err)
	}
	opts := append(schedulerOptions(cfg), scheduler.WithFrameworkOutOfTreeRegistry(registry), scheduler.WithKubeConfig(kc))
	sched, err := scheduler.New(ctx, st.client, informerFactory, nil, st.recorderFactory(&session{}), opts...)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := sched.Profiles.Close(); err != nil {
			klog.Background().Error(err, "Closing plugins")
		}
	}()
	return EffectivePlugins(sched)
}
