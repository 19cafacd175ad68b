package dep

import v1 "k8s.io/api/core/v1"

func vendored(n *v1.Node) bool { return n.Labels["example.com/vendored"] == "yes" }
