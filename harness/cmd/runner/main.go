// Command runner runs the upstream scheduler in-process against a fake
// clientset: it schedules one pod onto one of two nodes and prints, as JSON
// lines on stdout, the effective plugins of every profile and the outcome.
//
// Usage: runner [CONFIG.yaml]   (no argument or "-" reads stdin; empty input
// means the upstream default configuration)
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	configv1 "k8s.io/kube-scheduler/config/v1"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	"k8s.io/kubernetes/pkg/scheduler/profile"
)

func main() {
	timeout := flag.Duration("timeout", 30*time.Second, "give up if the pod is neither bound nor reported unschedulable by then")
	flag.Parse()
	if err := run(flag.Arg(0), *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "runner:", err)
		os.Exit(1)
	}
}

func run(configPath string, timeout time.Duration) error {
	start := time.Now()
	cfg, err := loadConfig(configPath)
	if err != nil {
		return err
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return fmt.Errorf("invalid configuration: %w", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()

	client := fake.NewClientset(
		makeNode("node-a", "2", "4Gi"),
		makeNode("node-b", "4", "8Gi"),
	)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	informerFactory := informers.NewSharedInformerFactory(client, 0)

	sched, err := scheduler.New(ctx, client, informerFactory, nil,
		profile.NewRecorderFactory(broadcaster),
		scheduler.WithComponentConfigVersion(cfg.TypeMeta.APIVersion),
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds),
		scheduler.WithExtenders(cfg.Extenders...),
		scheduler.WithParallelism(cfg.Parallelism),
	)
	if err != nil {
		return fmt.Errorf("scheduler.New: %w", err)
	}

	plugins, err := effectivePlugins(sched)
	if err != nil {
		return err
	}
	if err := emit(map[string]any{"kind": "plugins", "profiles": plugins}); err != nil {
		return err
	}

	outcome := make(chan map[string]any, 1)
	report := func(o map[string]any) {
		select {
		case outcome <- o:
		default:
		}
	}
	client.PrependReactor("create", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "binding" {
			return false, nil, nil
		}
		binding := action.(clienttesting.CreateAction).GetObject().(*v1.Binding)
		// The fake client holds its lock while reactors run, so the pod must
		// be updated through the tracker, not through the client.
		if err := bindInTracker(client.Tracker(), binding); err != nil {
			return true, nil, err
		}
		report(map[string]any{
			"kind": "binding", "pod": binding.Namespace + "/" + binding.Name, "node": binding.Target.Name,
		})
		return true, binding, nil
	})
	// Binding is synchronous with the reactor; unschedulable pods are only
	// visible as FailedScheduling events.
	stopWatch, err := broadcaster.StartEventWatcher(func(obj runtime.Object) {
		if e, ok := obj.(*eventsv1.Event); ok && e.Reason == "FailedScheduling" {
			report(map[string]any{
				"kind": "unschedulable", "pod": e.Regarding.Namespace + "/" + e.Regarding.Name, "message": e.Note,
			})
		}
	})
	if err != nil {
		return err
	}
	defer stopWatch()

	informerFactory.Start(ctx.Done())
	informerFactory.WaitForCacheSync(ctx.Done())
	if err := sched.WaitForHandlersSync(ctx); err != nil {
		return fmt.Errorf("waiting for handlers: %w", err)
	}
	go sched.Run(ctx)

	pod := makePod("pod-0", cfg.Profiles[0].SchedulerName)
	if _, err := client.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		return err
	}

	select {
	case o := <-outcome:
		o["profile"] = pod.Spec.SchedulerName
		o["elapsedMs"] = time.Since(start).Milliseconds()
		return emit(o)
	case <-ctx.Done():
		return fmt.Errorf("no outcome for pod %s within %v", pod.Name, timeout)
	}
}

// loadConfig decodes and defaults a KubeSchedulerConfiguration exactly as
// kube-scheduler's --config does.
func loadConfig(path string) (*config.KubeSchedulerConfiguration, error) {
	var data []byte
	var err error
	if path == "" || path == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return latest.Default()
	}
	obj, gvk, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	cfg, ok := obj.(*config.KubeSchedulerConfiguration)
	if !ok {
		return nil, fmt.Errorf("not a KubeSchedulerConfiguration: %s", gvk)
	}
	// Conversion clears TypeMeta; kube-scheduler restores it the same way.
	cfg.TypeMeta.APIVersion = gvk.GroupVersion().String()
	return cfg, nil
}

// effectivePlugins returns, per profile, the plugins the built framework runs
// at each extension point, in the v1 (kubescheduler.config.k8s.io) JSON shape.
// Conversion gives every entry a weight; it is 0 except at score-like points.
func effectivePlugins(sched *scheduler.Scheduler) (map[string]*configv1.Plugins, error) {
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

// bindInTracker does what the API server's binding subresource does to the pod.
func bindInTracker(tracker clienttesting.ObjectTracker, b *v1.Binding) error {
	gvr := v1.SchemeGroupVersion.WithResource("pods")
	obj, err := tracker.Get(gvr, b.Namespace, b.Name)
	if err != nil {
		return err
	}
	pod := obj.(*v1.Pod).DeepCopy()
	pod.Spec.NodeName = b.Target.Name
	pod.Status.Conditions = append(pod.Status.Conditions, v1.PodCondition{
		Type: v1.PodScheduled, Status: v1.ConditionTrue, LastTransitionTime: metav1.Now(),
	})
	return tracker.Update(gvr, pod, b.Namespace)
}

func makeNode(name, cpu, memory string) *v1.Node {
	resources := v1.ResourceList{
		v1.ResourcePods:   resource.MustParse("110"),
		v1.ResourceCPU:    resource.MustParse(cpu),
		v1.ResourceMemory: resource.MustParse(memory),
	}
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name), Labels: map[string]string{v1.LabelHostname: name}},
		Status: v1.NodeStatus{
			Capacity:    resources,
			Allocatable: resources,
			Conditions:  []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}},
		},
	}
}

func makePod(name, schedulerName string) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: v1.PodSpec{
			SchedulerName: schedulerName,
			Containers: []v1.Container{{
				Name:  "c",
				Image: "registry.k8s.io/pause:3.10",
				Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
					v1.ResourceCPU:    resource.MustParse("100m"),
					v1.ResourceMemory: resource.MustParse("128Mi"),
				}},
			}},
		},
	}
}

func emit(v any) error {
	return json.NewEncoder(os.Stdout).Encode(v)
}
