package runner

import (
	"encoding/json"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/events"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// What the plugin driver (harness/driver) shares with the runner, so that a
// plugin driven alone is built and fed exactly as in a whole scheduler.

// SchedulerOptions are the options app.Setup derives from a config.
func SchedulerOptions(cfg *config.KubeSchedulerConfiguration) []scheduler.Option {
	return schedulerOptions(cfg)
}

// NewInformerFactory is the informer factory kube-scheduler uses, in this release's spelling.
func NewInformerFactory(client kubernetes.Interface) informers.SharedInformerFactory {
	return newInformerFactory(client)
}

// DecodeManifest decodes a manifest and applies what the API server adds on create.
func DecodeManifest(raw json.RawMessage) (runtime.Object, error) { return decodeManifest(raw) }

// Guarded turns a panic while a plugin is built into an error naming it.
func Guarded(registry frameworkruntime.Registry) frameworkruntime.Registry { return guarded(registry) }

// RecorderFactory gives every profile an event recorder that drops events.
func RecorderFactory(string) profileRecorder { return &events.FakeRecorder{} }

// Unexported returns a settable view of struct field name of the struct v points to.
func Unexported(v reflect.Value, name string) (reflect.Value, error) { return unexported(v, name) }
