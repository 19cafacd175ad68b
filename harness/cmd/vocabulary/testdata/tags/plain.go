package tags

import v1 "k8s.io/api/core/v1"

func plain(n *v1.Node) bool { return n.Labels["example.com/plain"] == "yes" }
