//go:build k8s134 || k8s135 || k8s136

package runner

import (
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// v1.34 to v1.36 spellings of compat.go's functions.

func newInformerFactory(client kubernetes.Interface) informers.SharedInformerFactory {
	return scheduler.NewInformerFactory(client, 0)
}

// awaitBackgroundStop lets the metrics recorders of v1.34 to v1.36 see the
// cancelled context: each sleeps a whole flush interval (1 s) before checking
// it (metrics/metric_recorder.go, run), and a bubble whose function returns
// while they sleep panics ("blocked goroutines remain"), which cost a runner
// restart per scenario. The sleep is virtual: it takes no wall time.
func awaitBackgroundStop() { time.Sleep(metricsFlushInterval + time.Nanosecond) }

// metricsFlushInterval is the interval scheduler.New and NewFramework give
// metrics.NewMetricsAsyncRecorder.
const metricsFlushInterval = time.Second

func queuedPod(sched *scheduler.Scheduler, pod *v1.Pod) (*framework.QueuedPodInfo, bool) {
	return sched.SchedulingQueue.GetPod(pod.Name, pod.Namespace)
}

func onPop(sched *scheduler.Scheduler, popped func(*framework.QueuedPodInfo)) {
	next := sched.NextPod
	sched.NextPod = func(logger klog.Logger) (*framework.QueuedPodInfo, error) {
		pInfo, err := next(logger)
		if pInfo != nil && pInfo.Pod != nil {
			popped(pInfo)
		}
		return pInfo, err
	}
}
