package driver

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

func TestDigestSeesDeepChangesAndNothingElse(t *testing.T) {
	pod := &v1.Pod{}
	pod.Labels = map[string]string{"a": "1", "b": "2"}
	before := digest(pod)
	if digest(pod.DeepCopy()) != before {
		t.Fatal("a deep copy digests differently")
	}
	pod.Labels["b"] = "3"
	if digest(pod) == before {
		t.Fatal("a changed label value went unseen")
	}
}

func TestDigestReadsTheCycleStateStorage(t *testing.T) {
	st := framework.NewCycleState()
	st.Write(foreignKey, &foreignState{Value: "x"})
	read := foreign(st)
	before := digest(read())
	st.Write(foreignKey, &foreignState{Value: "y"})
	if digest(read()) == before {
		t.Fatal("another plugin's overwritten state went unseen")
	}
	if digest(st) == digest(framework.NewCycleState()) {
		t.Fatal("the CycleState's sync.Map contents are left out of its digest")
	}
}

type node struct{ next *node }

func TestDigestEndsOnPointerCycles(t *testing.T) {
	n := &node{}
	n.next = n
	if digest(n) == "" {
		t.Fatal("no digest")
	}
}

func TestDigestTellsAwayAMovedValue(t *testing.T) {
	a := &v1.Pod{}
	a.Labels = map[string]string{"a": "1"}
	a.Annotations = map[string]string{}
	b := a.DeepCopy()
	b.Labels, b.Annotations = map[string]string{}, map[string]string{"a": "1"}
	if digest(a) == digest(b) {
		t.Fatal("a label moved to the annotations went unseen")
	}
	c := &v1.Pod{}
	c.Name, c.Namespace = "ab", ""
	e := &v1.Pod{}
	e.Name, e.Namespace = "a", "b"
	if digest(c) == digest(e) {
		t.Fatal("strings split differently digest alike")
	}
}
