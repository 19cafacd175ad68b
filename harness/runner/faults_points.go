//go:build !k8s134 && !k8s135 && !k8s136

package runner

import (
	"context"
	"reflect"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	schedfwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// Vanish and restart faults fire when a pod reaches a point of its cycle.
// The runner learns it without a plugin of its own (which would show in the
// plugin lists and change what the framework decides): each profile's
// framework is wrapped where the scheduler calls it (Reserve, Permit,
// PreBind: the fault fires before the plugins run); `bind` is the binding
// call itself (store.beforeCall); `preempt` is DefaultPreemption's own test
// hook, Executor.PreemptPod, which names the victim and its preemptor.

// pointFaultsSupported: this release's framework is wrapped as above.
func pointFaultsSupported(*objects) error { return nil }

// faultOps are the fault ops this build injects (the hello answer).
func faultOps() []string { return []string{"fail", "vanish", "restart", "lag"} }

// faultyFramework fires the armed point faults of inc's pods. A restart at
// bind fires here too, before the bind plugins (DefaultBinder's call): a
// goroutine held in the fake clientset's reactor would hold its lock, and
// goroutines waiting for a mutex never let synctest.Wait return.
type faultyFramework struct {
	framework.Framework
	rn  *run
	inc *incarnation
}

func (f *faultyFramework) RunReservePluginsReserve(ctx context.Context, state fwk.CycleState, pod *v1.Pod,
	node string) *fwk.Status {
	if st := f.rn.reach(f.inc, "reserve", pod, node); st != nil {
		return st
	}
	return f.Framework.RunReservePluginsReserve(ctx, state, pod, node)
}

func (f *faultyFramework) RunPermitPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod,
	node string) (map[string]time.Duration, *fwk.Status) {
	if st := f.rn.reach(f.inc, "permit", pod, node); st != nil {
		return nil, st
	}
	return f.Framework.RunPermitPlugins(ctx, state, pod, node)
}

func (f *faultyFramework) RunBindPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod,
	node string) *fwk.Status {
	if st := f.rn.reach(f.inc, "bind", pod, node); st != nil {
		return st
	}
	return f.Framework.RunBindPlugins(ctx, state, pod, node)
}

func (f *faultyFramework) RunPreBindPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod,
	node string) *fwk.Status {
	if st := f.rn.reach(f.inc, "prebind", pod, node); st != nil {
		return st
	}
	return f.Framework.RunPreBindPlugins(ctx, state, pod, node)
}

// hookPoints wraps inc's profiles when the scenario has point faults, and
// has the store ask about the binding and victim-delete calls.
func (rn *run) hookPoints(inc *incarnation) {
	if !rn.objs.hasPointFaults() {
		return
	}
	for name, fw := range inc.sched.Profiles {
		inc.sched.Profiles[name] = &faultyFramework{Framework: fw, rn: rn, inc: inc}
	}
	rn.store.beforeCall = rn.beforeCall
}

// reach fires the faults armed for pod at point; a restart answers the
// stopped scheduler's call with an error (nothing it does is seen any more).
func (rn *run) reach(inc *incarnation, point string, pod *v1.Pod, node string) *fwk.Status {
	if inc.sess.stopped.Load() {
		return nil
	}
	restarted := false
	for _, f := range rn.store.faults.at(point, podKey(pod)) {
		if f.op == "restart" {
			restarted = true
		} else {
			rn.vanish(f, pod.Namespace, pod.Name, node)
		}
	}
	if !restarted {
		return nil
	}
	rn.requestRestart(inc)
	return fwk.NewStatus(fwk.Error, errStopped.Error())
}

// vanish deletes the fault's object through the API server, as someone
// else than the scheduler; upstream's informers see the deletion.
func (rn *run) vanish(f *fault, namespace, name, node string) {
	ctx := context.Background()
	var err error
	switch f.object {
	case "node":
		rn.store.faults.vanished(f, "Node/"+node)
		err = rn.store.client.CoreV1().Nodes().Delete(ctx, node, metav1.DeleteOptions{})
	default: // pod, victim
		rn.store.faults.vanished(f, "Pod/"+namespace+"/"+name)
		if err = rn.store.client.CoreV1().Pods(namespace).Delete(ctx, name, metav1.DeleteOptions{}); err == nil {
			rn.dropPod(namespace + "/" + name)
		}
	}
	if err != nil {
		klog.Background().Info("Vanish fault found nothing to delete", "index", f.index, "object", f.object,
			"err", err)
	}
}

// beforeCall fires a victim vanishing: deleted just before the scheduler's
// delete, which then finds it gone.
func (rn *run) beforeCall(sess *session, call, pod string) error {
	inc := rn.incarnationOf(sess)
	if inc == nil {
		return nil
	}
	switch call {
	case "evict":
		rn.mu.Lock()
		preemptor, ok := rn.victims[pod]
		delete(rn.victims, pod)
		rn.mu.Unlock()
		if !ok {
			return nil
		}
		namespace, name := splitKey(pod)
		for _, f := range rn.store.faults.at("preempt", preemptor) {
			rn.vanish(f, namespace, name, "")
		}
	}
	return nil
}

func (rn *run) incarnationOf(sess *session) *incarnation {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	for _, inc := range rn.incarnations {
		if inc.sess == sess {
			return inc
		}
	}
	return nil
}

// hookPreemption marks the first victim of each preemption whose preemptor
// has a victim fault armed; the fault fires at that victim's delete.
func (rn *run) hookPreemption(inc *incarnation) error {
	if !rn.objs.hasVictimFaults() {
		return nil
	}
	for profile, fw := range inc.sched.Profiles {
		list, err := unexported(reflect.ValueOf(fw), "postFilterPlugins")
		if err != nil {
			return err
		}
		for i := 0; i < list.Len(); i++ {
			dp, ok := list.Index(i).Interface().(*defaultpreemption.DefaultPreemption)
			if !ok || dp.Executor == nil {
				continue
			}
			klog.Background().V(4).Info("Hooking preemption for victim faults", "profile", profile)
			preempt := dp.Executor.PreemptPod
			dp.Executor.PreemptPod = func(ctx context.Context, c preemption.Candidate,
				preemptor preemption.ExecutorPreemptor, victim *v1.Pod, plugin string) (bool, error) {
				key := preemptor.GetNamespace() + "/" + preemptor.GetName()
				if victims := c.Victims(); preemptor.Type() == string(schedfwk.PodKeyType) && !inc.sess.stopped.Load() &&
					victims != nil && len(victims.Pods) > 0 && victims.Pods[0].UID == victim.UID &&
					rn.store.faults.armedAt("preempt", key) {
					rn.mu.Lock()
					rn.victims[podKey(victim)] = key
					rn.mu.Unlock()
				}
				return preempt(ctx, c, preemptor, victim, plugin)
			}
		}
	}
	return nil
}
