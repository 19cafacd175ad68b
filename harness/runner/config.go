package runner

import (
	"bytes"
	"fmt"
	"sort"

	configv1 "k8s.io/kube-scheduler/config/v1"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
)

// LoadConfig decodes, defaults and validates a KubeSchedulerConfiguration as
// `kube-scheduler --config` does (cmd/kube-scheduler/app/options: loadConfig,
// Validate). JSON null or empty means the v1 defaults.
func LoadConfig(data []byte) (*config.KubeSchedulerConfiguration, error) {
	var cfg *config.KubeSchedulerConfiguration
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		var err error
		if cfg, err = latest.Default(); err != nil {
			return nil, err
		}
	} else {
		obj, gvk, err := scheme.Codecs.UniversalDecoder().Decode(trimmed, nil, nil)
		if err != nil {
			return nil, err
		}
		var ok bool
		if cfg, ok = obj.(*config.KubeSchedulerConfiguration); !ok {
			return nil, fmt.Errorf("couldn't decode as KubeSchedulerConfiguration, got %s", gvk)
		}
		// Conversion clears TypeMeta; kube-scheduler restores it the same way.
		cfg.TypeMeta.APIVersion = gvk.GroupVersion().String()
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// schedulerOptions are the options app.Setup derives from a config.
func schedulerOptions(cfg *config.KubeSchedulerConfiguration) []scheduler.Option {
	return []scheduler.Option{
		scheduler.WithComponentConfigVersion(cfg.TypeMeta.APIVersion),
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithExtenders(cfg.Extenders...),
		scheduler.WithParallelism(cfg.Parallelism),
	}
}

// EffectivePlugins returns, per profile, the plugins the built framework runs
// at each extension point, converted to the v1 Plugins type by upstream's
// scheme (every set present, weight 0 except at score-like points).
func EffectivePlugins(sched *scheduler.Scheduler) (map[string]*configv1.Plugins, error) {
	names := make([]string, 0, len(sched.Profiles))
	for name := range sched.Profiles {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make(map[string]*configv1.Plugins, len(names))
	for _, name := range names {
		var p configv1.Plugins
		if err := scheme.Scheme.Convert(sched.Profiles[name].ListPlugins(), &p, nil); err != nil {
			return nil, fmt.Errorf("profile %s: %w", name, err)
		}
		out[name] = &p
	}
	return out, nil
}
