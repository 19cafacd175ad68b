// A plugin reading an extended resource.
package resource

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

const fpga v1.ResourceName = "example.com/fpga"

func fits(pod *v1.Pod, node *v1.Node) bool {
	want := pod.Spec.Containers[0].Resources.Requests[fpga]
	have := node.Status.Allocatable[fpga]
	gpus := pod.Spec.Containers[0].Resources.Limits["nvidia.com/gpu"]
	_ = node.Status.Capacity[v1.ResourceName("vendor.io/nic")]
	// Standard resources are the stock vocabulary: not listed.
	_ = node.Status.Allocatable["cpu"]
	_ = node.Status.Allocatable["hugepages-2Mi"]
	_ = node.Status.Allocatable["kubernetes.io/batch-cpu"]
	return have.Cmp(want) >= 0 && gpus.Value() < 2
}

var defaults = v1.ResourceList{"acme.io/qat": resource.MustParse("1"), v1.ResourceCPU: resource.MustParse("1")}
