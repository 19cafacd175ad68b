// Values in sets and lists, and a value found by ranging over the labels.
package sets

import (
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

var allowedDisks = sets.New[string]("ssd", "nvme")

var classes = []string{"batch", "service"}

func filter(pod *v1.Pod, node *v1.Node) bool {
	for k, v := range node.Labels {
		if k == "example.com/arch" && v == "arm64" {
			return false
		}
	}
	for _, v := range pod.Labels {
		if v == "orphan" { // no key compared: nowhere to put it
			return false
		}
	}
	if !allowedDisks.Has(node.Labels["example.com/disk"]) {
		return false
	}
	gens := sets.NewString("g1", "g2")
	return gens.Has(node.Labels["example.com/gen"]) && slices.Contains(classes, pod.Labels["example.com/class"])
}
