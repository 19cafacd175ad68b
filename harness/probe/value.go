package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The script errors quote the offending JSON values exactly as the Python
// reference (reference/probe/script.py) prints them with repr(), so that an
// invalid script produces the same trace on both sides. That needs the JSON
// object key order and the number literals, which encoding/json's map decoding
// loses; hence this small ordered decoder.

// object is a JSON object with its keys in document order. A repeated key keeps
// its first position and its last value, like Python's json.loads.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// decodeJSON decodes one JSON document into nil, bool, string, json.Number,
// []any and *object values.
func decodeJSON(text string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("extra data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
		obj := &object{vals: map[string]any{}}
		for dec.More() {
			keyTok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key := keyTok.(string)
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			if _, seen := obj.vals[key]; !seen {
				obj.keys = append(obj.keys, key)
			}
			obj.vals[key] = v
		}
		_, err := dec.Token()
		return obj, err
	default:
		return t, nil
	}
}

// isInt reports whether a JSON number is an integer literal (Python's json
// makes those int, everything with a fraction or exponent float).
func isInt(n json.Number) bool {
	return !strings.ContainsAny(string(n), ".eE")
}

// kind names a value's type the way script.py's _kind does.
func kind(v any) string {
	switch v.(type) {
	case *object:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	}
	return pyRepr(v)
}

// pyRepr renders a decoded JSON value like Python's repr() of json.loads' result.
func pyRepr(v any) string {
	switch t := v.(type) {
	case nil:
		return "None"
	case bool:
		if t {
			return "True"
		}
		return "False"
	case string:
		return pyStr(t)
	case json.Number:
		if isInt(t) {
			if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
				return strconv.FormatInt(i, 10)
			}
			return string(t)
		}
		f, _ := strconv.ParseFloat(string(t), 64)
		return pyFloat(f)
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = pyRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *object:
		parts := make([]string, len(t.keys))
		for i, k := range t.keys {
			parts[i] = pyStr(k) + ": " + pyRepr(t.vals[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// pyStr is CPython's str repr: single quotes unless the text has a single
// quote and no double quote; non-printable characters escaped.
func pyStr(s string) string {
	quote := '\''
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		quote = '"'
	}
	var b bytes.Buffer
	b.WriteRune(quote)
	for _, r := range s {
		switch {
		case r == quote || r == '\\':
			b.WriteRune('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError || r < 0x20 || r == 0x7f || (r >= 0x80 && !unicode.IsPrint(r)):
			switch {
			case r < 0x100:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r < 0x10000:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteRune(quote)
	return b.String()
}

// pyFloat is Python's float repr: the shortest round-trip digits, positional
// for decimal exponents in [-4, 16), scientific otherwise.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	sci := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mantissa, expText, _ := strings.Cut(sci, "e")
	exp, _ := strconv.Atoi(expText)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return fmt.Sprintf("%se%s%02d", mantissa, sign, exp)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsRune(s, '.') {
		s += ".0"
	}
	return s
}

// Typed reads of decoded values, for the script checks.

func unknownKeys(raw *object, allowed []string) []string {
	var unknown []string
	for _, k := range raw.keys {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	return unknown
}

func stringList(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// integer accepts JSON integer literals that fit int64 (Python's int is
// unbounded; the framework's scores are int64 anyway).
func integer(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok || !isInt(n) {
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	return i, err == nil
}

func integerMap(v any) (map[string]int64, bool) {
	obj, ok := v.(*object)
	if !ok {
		return nil, false
	}
	out := make(map[string]int64, len(obj.keys))
	for _, k := range obj.keys {
		if out[k], ok = integer(obj.vals[k]); !ok {
			return nil, false
		}
	}
	return out, true
}
