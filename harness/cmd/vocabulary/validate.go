package main

import (
	"regexp"
	"strings"
)

// The API server's rules (k8s.io/apimachinery/pkg/util/validation): a qualified name is an
// optional DNS-subdomain prefix and "/", then a name of at most 63 characters.
var (
	qualifiedName = regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`)
	labelValue    = regexp.MustCompile(`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`)
	dnsSubdomain  = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

// validKey is IsQualifiedName: label, annotation and taint keys all follow it.
func validKey(key string) bool {
	prefix, name, found := strings.Cut(key, "/")
	if !found {
		name, prefix = prefix, ""
	} else if prefix == "" || len(prefix) > 253 || !dnsSubdomain.MatchString(prefix) {
		return false
	}
	return len(name) <= 63 && qualifiedName.MatchString(name)
}

// validValue: label and taint values follow IsValidLabelValue; an annotation value is any
// string (only the total size of an object's annotations is bounded).
func validValue(cat, value string) bool {
	if cat == annotations {
		return true
	}
	return len(value) <= 63 && labelValue.MatchString(value)
}

// extendedResource keeps the names a node can advertise beside the standard resources:
// domain-qualified and not in the kubernetes.io namespace (IsExtendedResourceName, simplified).
func extendedResource(name string) bool {
	return strings.Contains(name, "/") && !strings.Contains(name, "kubernetes.io/") && validKey(name)
}
