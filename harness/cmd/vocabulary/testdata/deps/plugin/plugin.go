// A plugin whose keys are constants of other packages: its module's, a dependency's, a replace's.
package plugin

import (
	"example.com/Labels/keys"
	"example.com/deps/api"
	"example.com/local/names"
	v1 "k8s.io/api/core/v1"
)

func score(pod *v1.Pod, node *v1.Node) int {
	if node.Labels[api.Tier] == "gold" && node.Labels[keys.Rack] == "r1" {
		return 1
	}
	if node.Labels[v1.LabelTopologyZone] == "zone-a" || pod.Labels[names.Team] == "ml" {
		return 2
	}
	_ = node.Status.Allocatable[keys.GPU]
	return 0
}
