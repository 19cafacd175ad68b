package driver

import (
	"fmt"
	"hash"
	"hash/fnv"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"unsafe"
)

// digest is a deep, order-independent fingerprint of v: every field,
// exported or not, followed through pointers, interfaces and maps (sorted),
// with sync.Map contents (a CycleState's storage) included. Funcs, channels
// and unsafe pointers are left out. Two digests differ when a call changed
// anything reachable from what it was given.
func digest(v any) string {
	d := &digester{h: fnv.New128a(), seen: map[visit]bool{}}
	d.value(reflect.ValueOf(v))
	return fmt.Sprintf("%x", d.h.Sum(nil))
}

type visit struct {
	ptr uintptr
	typ reflect.Type
}

type digester struct {
	h    hash.Hash
	seen map[visit]bool
}

func (d *digester) write(s string) { d.h.Write([]byte(s)); d.h.Write([]byte{0}) }

var syncMapType = reflect.TypeOf(sync.Map{})

func (d *digester) value(v reflect.Value) {
	if !v.IsValid() {
		d.write("nil")
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		d.write(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.write(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		d.write(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		d.write(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.Complex64, reflect.Complex128:
		d.write(fmt.Sprint(v.Complex()))
	case reflect.String:
		d.write(v.String())
	case reflect.Pointer:
		if v.IsNil() {
			d.write("nil")
			return
		}
		key := visit{v.Pointer(), v.Type()}
		if d.seen[key] {
			d.write("cycle")
			return
		}
		// Only the current path counts: a pointer shared by two fields is digested twice.
		d.seen[key] = true
		defer delete(d.seen, key)
		if v.Type().Elem() == syncMapType {
			d.syncMap((*sync.Map)(unsafe.Pointer(v.Pointer())))
			return
		}
		d.value(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			d.write("nil")
			return
		}
		d.write(v.Elem().Type().String())
		d.value(v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			d.write("nil")
			return
		}
		d.write("[" + strconv.Itoa(v.Len()))
		for i := 0; i < v.Len(); i++ {
			d.value(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			d.write("nil")
			return
		}
		entries := make([]string, 0, v.Len())
		iter := v.MapRange()
		for iter.Next() {
			entries = append(entries, d.sub(iter.Key())+"="+d.sub(iter.Value()))
		}
		sort.Strings(entries)
		d.write("{" + strconv.Itoa(len(entries)))
		for _, e := range entries {
			d.write(e)
		}
	case reflect.Struct:
		if v.Type() == syncMapType {
			if v.CanAddr() {
				d.syncMap((*sync.Map)(unsafe.Pointer(v.UnsafeAddr())))
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			d.value(v.Field(i))
		}
	}
}

// sub digests a map key or value on its own (they are sorted before hashing).
func (d *digester) sub(v reflect.Value) string {
	inner := &digester{h: fnv.New128a(), seen: d.seen}
	inner.value(v)
	return fmt.Sprintf("%x", inner.h.Sum(nil))
}

func (d *digester) syncMap(m *sync.Map) {
	var entries []string
	m.Range(func(k, val any) bool {
		entries = append(entries, d.sub(reflect.ValueOf(k))+"="+d.sub(reflect.ValueOf(val)))
		return true
	})
	sort.Strings(entries)
	d.write("syncmap" + strconv.Itoa(len(entries)))
	for _, e := range entries {
		d.write(e)
	}
}
