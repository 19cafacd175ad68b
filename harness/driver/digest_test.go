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
