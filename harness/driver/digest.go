package driver

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"unsafe"
)

// digest is a deep, order-independent fingerprint of v: every field,
// exported or not, followed through pointers, interfaces and maps (sorted),
// with sync.Map contents (a CycleState's storage) included. Funcs, channels
// and unsafe pointers are left out. Two digests differ when a call changed
// anything reachable from what it was given. Off (the empty string) while a
// request asked for no digests (`"watch": false`).
func digest(v any) string {
	if !watching {
		return ""
	}
	d := &digester{seen: map[visit]bool{}}
	d.h.SetSeed(digestSeed)
	d.value(reflect.ValueOf(v))
	return strconv.FormatUint(d.h.Sum64(), 16)
}

// watching is set per request: the before/after digests are most of a call's
// cost, and only the no-input-mutation property reads what they find.
var watching = true

// digestSeed is one per process: digests are compared within a request only.
var digestSeed = maphash.MakeSeed()

type visit struct {
	ptr uintptr
	typ reflect.Type
}

// digester hashes a value as a stream of kind tags and raw contents
// (strings length-prefixed, so that no two different values share a stream).
type digester struct {
	h    maphash.Hash
	seen map[visit]bool
	buf  [9]byte
}

const (
	tagNil byte = iota + 1
	tagBool
	tagInt
	tagUint
	tagFloat
	tagComplex
	tagString
	tagCycle
	tagType
	tagList
	tagMap
	tagSyncMap
)

func (d *digester) word(tag byte, x uint64) {
	d.buf[0] = tag
	binary.LittleEndian.PutUint64(d.buf[1:], x)
	d.h.Write(d.buf[:])
}

func (d *digester) str(tag byte, s string) {
	d.word(tag, uint64(len(s)))
	d.h.WriteString(s)
}

var syncMapType = reflect.TypeOf(sync.Map{})

func (d *digester) value(v reflect.Value) {
	if !v.IsValid() {
		d.h.WriteByte(tagNil)
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		b := uint64(0)
		if v.Bool() {
			b = 1
		}
		d.word(tagBool, b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.word(tagInt, uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		d.word(tagUint, v.Uint())
	case reflect.Float32, reflect.Float64:
		d.word(tagFloat, math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		d.word(tagComplex, math.Float64bits(real(c)))
		d.word(tagComplex, math.Float64bits(imag(c)))
	case reflect.String:
		d.str(tagString, v.String())
	case reflect.Pointer:
		if v.IsNil() {
			d.h.WriteByte(tagNil)
			return
		}
		key := visit{v.Pointer(), v.Type()}
		if d.seen[key] {
			d.h.WriteByte(tagCycle)
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
			d.h.WriteByte(tagNil)
			return
		}
		d.str(tagType, v.Elem().Type().String())
		d.value(v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			d.h.WriteByte(tagNil)
			return
		}
		d.word(tagList, uint64(v.Len()))
		for i := 0; i < v.Len(); i++ {
			d.value(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			d.h.WriteByte(tagNil)
			return
		}
		entries := make([]entry, 0, v.Len())
		iter := v.MapRange()
		for iter.Next() {
			entries = append(entries, entry{d.sub(iter.Key()), d.sub(iter.Value())})
		}
		d.entries(tagMap, entries)
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

// entry is a map entry, key and value digested on their own (they are sorted before hashing).
type entry struct{ key, value uint64 }

func (d *digester) sub(v reflect.Value) uint64 {
	inner := &digester{seen: d.seen}
	inner.h.SetSeed(digestSeed)
	inner.value(v)
	return inner.h.Sum64()
}

func (d *digester) entries(tag byte, entries []entry) {
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.value, b.value))
	})
	d.word(tag, uint64(len(entries)))
	for _, e := range entries {
		d.word(tag, e.key)
		d.word(tag, e.value)
	}
}

func (d *digester) syncMap(m *sync.Map) {
	var entries []entry
	m.Range(func(k, val any) bool {
		entries = append(entries, entry{d.sub(reflect.ValueOf(k)), d.sub(reflect.ValueOf(val))})
		return true
	})
	d.entries(tagSyncMap, entries)
}
