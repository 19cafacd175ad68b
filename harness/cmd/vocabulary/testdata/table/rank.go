// A plugin indexing a table by a parsed label value.
package table

import (
	"strconv"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

const rankLabel = "example.com/rank"

var capacityTable = []int64{1, 2, 4, 8}

const maxRatio = 0.5

func capacity(node *v1.Node) int64 {
	n, err := strconv.Atoi(node.Labels[rankLabel])
	if err != nil || n >= len(capacityTable) {
		return 0
	}
	return capacityTable[n]
}

func ratio(node *v1.Node) bool {
	r, err := strconv.ParseFloat(node.Labels["example.com/ratio"], 64)
	return err == nil && r < maxRatio
}

func memory(node *v1.Node) bool {
	q, err := resource.ParseQuantity(node.Labels["example.com/mem"])
	return err == nil && q.Value() > 64
}

func level(node *v1.Node) int {
	lvl, _ := strconv.ParseInt(node.Labels["example.com/level"], 10, 64)
	switch lvl {
	case 3:
		return 1
	}
	return 0
}
