//go:build extra

package tags

import v1 "k8s.io/api/core/v1"

func extra(n *v1.Node) bool { return n.Labels["example.com/extra"] == "yes" }
