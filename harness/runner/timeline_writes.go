package runner

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// write is one API write of a timeline update: the subresource ("" for the
// object itself) and the whole object sent.
type write struct {
	subresource string
	body        []byte
}

// splitWrites turns the change of old into merged (JSON objects) into the
// writes the API server needs, in order: the object itself (metadata and
// spec; ValidatePodUpdate refuses a change of a pod's container resources
// there), "resize" (a pod's container resources), "status" (a node's
// allocatable, capacity, conditions). Each stage sends the whole object with
// the later stages' fields as they were; a stage that changes nothing is
// not written (a real update that changes nothing sends no watch event).
func splitWrites(kind string, old, merged []byte) ([]write, error) {
	var before, after map[string]any
	if err := json.Unmarshal(old, &before); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(merged, &after); err != nil {
		return nil, err
	}
	if err := sameIdentity(before, after); err != nil {
		return nil, err
	}
	object := runtime.DeepCopyJSON(after)
	setOrDelete(object, "status", before)
	resize := runtime.DeepCopyJSON(object)
	if kind == "Pod" {
		if err := copyResources(object, before); err != nil {
			return nil, err
		}
	}
	stages := []struct {
		subresource string
		body        map[string]any
	}{{"", object}, {"resize", resize}, {"status", after}}
	var writes []write
	last := before
	for _, s := range stages {
		if reflect.DeepEqual(s.body, last) {
			continue
		}
		body, err := json.Marshal(s.body)
		if err != nil {
			return nil, err
		}
		writes = append(writes, write{subresource: s.subresource, body: body})
		last = s.body
	}
	return writes, nil
}

// sameIdentity refuses a patch that renames or moves the object: the
// tracker would write another object.
func sameIdentity(before, after map[string]any) error {
	identity := [][]string{{"apiVersion"}, {"kind"}, {"metadata", "name"}, {"metadata", "namespace"}}
	for _, path := range identity {
		if !reflect.DeepEqual(lookup(before, path), lookup(after, path)) {
			return fmt.Errorf("patch: changes %s; an update cannot rename or move an object, delete it and "+
				"create a new one", strings.Join(path, "."))
		}
	}
	return nil
}

// copyResources sets the resources of dst's containers to src's.
func copyResources(dst, src map[string]any) error {
	to, _ := lookup(dst, []string{"spec", "containers"}).([]any)
	from, _ := lookup(src, []string{"spec", "containers"}).([]any)
	if len(to) != len(from) {
		return fmt.Errorf("patch: spec.containers: %d containers become %d; a pod's containers cannot be "+
			"added or removed, patch only their resources", len(from), len(to))
	}
	for i := range to {
		c, _ := to[i].(map[string]any)
		s, _ := from[i].(map[string]any)
		if c == nil || s == nil {
			return fmt.Errorf("patch: spec.containers[%d] is not a container", i)
		}
		setOrDelete(c, "resources", s)
	}
	return nil
}

// setOrDelete sets dst[key] to src[key], or deletes it when src has none.
func setOrDelete(dst map[string]any, key string, src map[string]any) {
	if v, ok := src[key]; ok {
		dst[key] = runtime.DeepCopyJSONValue(v)
	} else {
		delete(dst, key)
	}
}

func lookup(m map[string]any, path []string) any {
	var v any = m
	for _, k := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}
