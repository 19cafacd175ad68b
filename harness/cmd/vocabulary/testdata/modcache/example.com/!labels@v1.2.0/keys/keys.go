// Package keys is a dependency in the module cache (its path has an upper-case letter).
package keys

import v1 "k8s.io/api/core/v1"

const Rack = "example.com/rack"

const GPU v1.ResourceName = "vendor.io/gpu"
