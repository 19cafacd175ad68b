// A Score plugin preferring its own label values.
package score

import (
	"context"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"example.com/score/api"
)

type tierKey string

const (
	tierLabel         = "example.com/tier"
	zoneLabel tierKey = "example.com/" + "zone"
)

var tierWeights = map[string]int64{"gold": 100, "bronze": 10}

type Prefer struct{}

func (Prefer) Score(_ context.Context, _ fwk.CycleState, pod *v1.Pod, n fwk.NodeInfo) (int64, *fwk.Status) {
	node := n.Node()
	score := int64(0)
	switch node.Labels[tierLabel] {
	case "silver":
		score += 50
	case "has space": // not a valid label value: dropped
	}
	if w, ok := tierWeights[tier(node)]; ok {
		score += w
	}
	if z, ok := node.Labels[string(zoneLabel)]; ok && z == "edge" {
		score++
	}
	if strings.HasPrefix(node.GetLabels()[v1api.PoolLabel], "gpu-") {
		score++
	}
	budget, err := strconv.Atoi(pod.Annotations["example.com/budget"])
	if err == nil && budget > 10 {
		score--
	}
	for k := range node.Labels {
		if k == "example.com/legacy" {
			score = 0
		}
	}
	return score, nil
}

// tier is a helper: its callers compare what it returns.
func tier(node *v1.Node) string {
	return node.Labels[tierLabel]
}
