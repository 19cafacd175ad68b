package driver

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

// The scheduler's informers hold what the snapshot call gives: its nodes,
// its pods and every pod a call names (they exist in the API: the pod being
// scheduled, the other pod), and its objects (Services, ReplicaSets,
// StatefulSets, ReplicationControllers, PodDisruptionBudgets,
// PersistentVolumeClaims) for the plugins' listers: PodTopologySpread's
// system-default constraints select a pod's Services and owners,
// DefaultPreemption reads the preemptor and the PDBs. The stores are written
// directly, so the scheduler's own event handlers see nothing.

// objectStore is the informer store of an object's kind, from the factory
// every plugin took its listers from.
func objectStore(factory informers.SharedInformerFactory, obj runtime.Object) (cache.Store, bool) {
	switch obj.(type) {
	case *v1.Pod:
		return factory.Core().V1().Pods().Informer().GetStore(), true
	case *v1.Node:
		return factory.Core().V1().Nodes().Informer().GetStore(), true
	case *v1.Service:
		return factory.Core().V1().Services().Informer().GetStore(), true
	case *v1.ReplicationController:
		return factory.Core().V1().ReplicationControllers().Informer().GetStore(), true
	case *v1.PersistentVolumeClaim:
		return factory.Core().V1().PersistentVolumeClaims().Informer().GetStore(), true
	case *appsv1.ReplicaSet:
		return factory.Apps().V1().ReplicaSets().Informer().GetStore(), true
	case *appsv1.StatefulSet:
		return factory.Apps().V1().StatefulSets().Informer().GetStore(), true
	case *policyv1.PodDisruptionBudget:
		return factory.Policy().V1().PodDisruptionBudgets().Informer().GetStore(), true
	}
	return nil, false
}

// ObjectKinds are the kinds a snapshot's objects may have.
const ObjectKinds = "Service, ReplicaSet, StatefulSet, ReplicationController, PodDisruptionBudget, PersistentVolumeClaim"

// informed is what the driver put in the informer stores.
type informed struct {
	factory informers.SharedInformerFactory
	stores  map[cache.Store]bool // every store written since the driver started
	// snapshotPods are the keys of the snapshot's pods, which a call's pod of the same name does not replace.
	snapshotPods map[string]bool
}

// replace makes the stores hold exactly objs (the snapshot's world).
func (in *informed) replace(objs []runtime.Object) error {
	byStore := map[cache.Store][]any{}
	for store := range in.stores {
		byStore[store] = nil
	}
	in.snapshotPods = map[string]bool{}
	for _, obj := range objs {
		if pod, ok := obj.(*v1.Pod); ok {
			in.snapshotPods[pod.Namespace+"/"+pod.Name] = true
		}
		store, ok := objectStore(in.factory, obj)
		if !ok {
			return fmt.Errorf("a %T is not an object the driver's informers hold; give one of %s", obj, ObjectKinds)
		}
		in.stores[store] = true
		byStore[store] = append(byStore[store], obj)
	}
	for store, items := range byStore {
		if err := store.Replace(items, ""); err != nil {
			return err
		}
	}
	return nil
}

// add puts a pod a call names in the pod store unless the snapshot has one
// of its name. It replaces an earlier version of the pod: after an update of
// the pending pod (a target event) the informer holds the new one.
func (in *informed) add(pod *v1.Pod) {
	store, _ := objectStore(in.factory, pod)
	in.stores[store] = true
	if !in.snapshotPods[pod.Namespace+"/"+pod.Name] {
		store.Add(pod)
	}
}
