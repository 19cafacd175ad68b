//go:build !k8s134 && !k8s135 && !k8s136

package runner

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// The few scheduler APIs the runner uses that changed in v1.37;
// compat_until136.go has the v1.34 to v1.36 spelling (build.sh sets the tag).

func newInformerFactory(client kubernetes.Interface) informers.SharedInformerFactory {
	return scheduler.NewInformerFactory(client, 0, nil)
}

func queuedPod(sched *scheduler.Scheduler, pod *v1.Pod) (*framework.QueuedPodInfo, bool) {
	return sched.SchedulingQueue.GetPod(pod.Name, pod.Namespace, nil)
}

// awaitBackgroundStop: v1.37's background goroutines end as soon as the
// scenario's context is cancelled.
func awaitBackgroundStop() {}

// onPop wraps the scheduler's NextEntity: popped sees every pod popped.
func onPop(sched *scheduler.Scheduler, popped func(*framework.QueuedPodInfo)) {
	next := sched.NextEntity
	sched.NextEntity = func(logger klog.Logger) (framework.QueuedEntityInfo, error) {
		entity, err := next(logger)
		if pInfo, ok := entity.(*framework.QueuedPodInfo); ok && pInfo != nil && pInfo.Pod != nil {
			popped(pInfo)
		}
		return entity, err
	}
}
