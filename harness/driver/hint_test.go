package driver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
	upstream "k8s.io/kube-scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// recorder registers the pod's toleration updates and keeps the pod its hint was asked with.
type recorder struct{ hinted *[]*v1.Pod }

func (recorder) Name() string { return "Recorder" }
func (recorder) Filter(context.Context, fwk.CycleState, *v1.Pod, fwk.NodeInfo) *fwk.Status {
	return nil
}
func (r recorder) EventsToRegister(context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{{
		Event: fwk.ClusterEvent{Resource: fwk.Pod, ActionType: upstream.UpdatePodToleration},
		QueueingHintFn: func(_ klog.Logger, pod *v1.Pod, _, _ any) (fwk.QueueingHint, error) {
			*r.hinted = append(*r.hinted, pod)
			return fwk.Queue, nil
		},
	}}, nil
}

func recorderDriver(t *testing.T) (*Driver, *[]*v1.Pod) {
	t.Helper()
	var hinted []*v1.Pod
	registry := frameworkruntime.Registry{"Recorder": func(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
		return recorder{&hinted}, nil
	}}
	config := []byte(`{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
		"profiles": [{"schedulerName": "default-scheduler", "plugins": {"multiPoint": {"enabled": [{"name": "Recorder"}]}}}]}`)
	d, err := New(InitRequest{Config: config, Plugin: "Recorder"}, registry)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d, &hinted
}

func podJSON(t *testing.T, name, nodeName string, tolerations ...v1.Toleration) json.RawMessage {
	t.Helper()
	pod := v1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, Spec: v1.PodSpec{NodeName: nodeName, Tolerations: tolerations,
		Containers: []v1.Container{{Name: "c", Image: "i"}}}}
	pod.Name, pod.Namespace = name, "default"
	raw, err := json.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestTargetPodUpdateIsHintedWithTheNewPod(t *testing.T) {
	d, hinted := recorderDriver(t)
	old := podJSON(t, "pod-0", "")
	updated := podJSON(t, "pod-0", "", v1.Toleration{Key: "example.com/dedicated", Operator: v1.TolerationOpExists})
	event := &Event{Kind: "pod", Action: "update", Target: true, Old: old, New: updated}
	results, err := d.Run([]Call{{Point: "hint", Pod: old, Event: event}})
	if err != nil {
		t.Fatal(err)
	}
	hint := results[0].Hint
	if results[0].Error != "" || hint == nil || !hint.Queue || len(hint.Events) != 1 ||
		!strings.HasSuffix(hint.Events[0], "PodUpdatePodToleration") {
		t.Fatalf("a toleration added to the pending pod: %+v %+v", results[0], hint)
	}
	if len(*hinted) != 1 {
		t.Fatalf("the hint was asked %d times, want once", len(*hinted))
	}
	if got := (*hinted)[0].Spec.Tolerations; len(got) != 1 {
		t.Fatalf("the hint is asked with the updated pod, as PriorityQueue.Update does; it got tolerations %v", got)
	}
}

func TestTargetPodUpdateMustBeThePendingPodItself(t *testing.T) {
	d, _ := recorderDriver(t)
	pod := podJSON(t, "pod-0", "")
	for want, event := range map[string]*Event{
		"not the call's pod":    {Kind: "pod", Action: "update", Target: true, Old: podJSON(t, "pod-1", ""), New: podJSON(t, "pod-1", "")},
		"leave spec.nodeName":   {Kind: "pod", Action: "update", Target: true, Old: pod, New: podJSON(t, "pod-0", "node-0")},
		"needs old and new":     {Kind: "pod", Action: "update", Target: true, New: pod},
		"is a pod update; give": {Kind: "node", Action: "update", Target: true, Old: pod, New: pod},
	} {
		results, err := d.Run([]Call{{Point: "hint", Pod: pod, Event: event}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(results[0].Error, want) {
			t.Errorf("want an error saying %q, got %+v", want, results[0])
		}
	}
}
