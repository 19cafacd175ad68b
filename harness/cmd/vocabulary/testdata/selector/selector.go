// Label selectors, label sets and metav1 helpers.
package selector

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

var selector = metav1.LabelSelector{
	MatchLabels: map[string]string{"app": "db"},
	MatchExpressions: []metav1.LabelSelectorRequirement{
		{Key: "example.com/disk", Operator: metav1.LabelSelectorOpIn, Values: []string{"ssd", "nvme"}},
	},
}

func matches(pod *v1.Pod) bool {
	if metav1.HasAnnotation(pod.ObjectMeta, "example.com/skip") {
		return false
	}
	pod.Labels["example.com/seen"] = "true"
	metav1.SetMetaDataAnnotation(&pod.ObjectMeta, "example.com/note", "checked by selector")
	return labels.SelectorFromSet(labels.Set{"team": "a"}).Matches(labels.Set(pod.Labels))
}

var objectMeta = metav1.ObjectMeta{Labels: map[string]string{"-bad": "x", "example.com/owner": "-bad"}}

// Helpers taking the labels as a map: the parameter's name says which map it is.
func hasGPU(nodeLabels map[string]string, set labels.Set) bool {
	return nodeLabels["example.com/gpu"] == "true" && set["example.com/rack"] != "r0"
}

var weights = map[v1.ResourceName]int64{"example.com/fpga": 2, v1.ResourceMemory: 1}

var byRole = labels.SelectorFromSet(map[string]string{"example.com/role": "cache"})
