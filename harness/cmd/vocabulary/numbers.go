package main

import (
	"go/ast"
	"go/token"
	"strconv"
)

// parsers are the calls that read a label value as a number.
var parsers = map[string]map[string]bool{
	"strconv":  {"Atoi": true, "ParseInt": true, "ParseUint": true, "ParseFloat": true},
	"resource": {"ParseQuantity": true, "MustParse": true},
}

// numberRef recognises a parsed label value: strconv.Atoi(v), resource.ParseQuantity(v),
// q.Value() of such a quantity, and conversions int64(n) / float64(n) of one.
func (w *world) numberRef(f *file, e *ast.CallExpr, pkgName, name string, depth int) (ref, bool) {
	if parsers[pkgName][name] && len(e.Args) >= 1 {
		if r := w.ref(f, e.Args[0], depth+1); r.kind == refValue && r.key != "" {
			return ref{kind: refNumber, cat: r.cat, key: r.key}, true
		}
		return none, true
	}
	if sel, ok := e.Fun.(*ast.SelectorExpr); ok && len(e.Args) == 0 {
		switch sel.Sel.Name {
		case "Value", "AsApproximateFloat64", "AsInt64":
			if r := w.ref(f, sel.X, depth+1); r.kind == refNumber {
				return r, true
			}
		}
	}
	if pkgName == "" && len(e.Args) == 1 {
		switch name {
		case "int", "int32", "int64", "uint", "uint32", "uint64", "float32", "float64":
			if r := w.ref(f, e.Args[0], depth+1); r.kind == refNumber {
				return r, true
			}
		}
	}
	return none, false
}

// parsed gives a label value read as a number the value "0": a generic value would only reach
// the parse error branch, comparisons with bounds add more (compareNumber).
func (x *extractor) parsed(arg ast.Expr, pos at) {
	if r := x.w.ref(x.f, arg, 0); r.kind == refValue && r.key != "" {
		x.v.addValue(r.cat, r.key, "0", pos)
	}
}

// compareNumber adds the values around c for `n OP c` with n a parsed label value.
func (x *extractor) compareNumber(r ref, other ast.Expr, pos at) bool {
	if r.kind != refNumber {
		return false
	}
	if c, _, ok := x.w.num(x.f, other, 0); ok {
		x.v.addBounds(r.cat, r.key, c, pos)
	}
	return true
}

// indexTable handles table[v]: a map literal indexed by a label value gives its keys as the
// label's values; a slice or array indexed by a parsed value gives the values around its length.
func (x *extractor) indexTable(e *ast.IndexExpr, pos at) {
	r := x.w.ref(x.f, e.Index, 0)
	if r.kind != refValue && r.kind != refNumber {
		return
	}
	lit, lf := x.w.table(x.f, e.X, 0)
	if lit == nil {
		return
	}
	if _, isMap := lit.Type.(*ast.MapType); isMap || r.kind == refValue {
		for _, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				x.literalValue(r, lf, kv.Key, pos)
			}
		}
		return
	}
	if n, ok := x.w.tableLen(x.f, e.X, 0); ok {
		x.v.addBounds(r.cat, r.key, float64(n), pos)
	}
}

// literalValue adds one constant as a value of r: a string as it is, a number as printed.
func (x *extractor) literalValue(r ref, f *file, e ast.Expr, pos at) {
	s, ok := x.w.str(f, e, 0)
	if !ok {
		n, _, isNum := x.w.num(f, e, 0)
		if !isNum {
			return
		}
		s = strconv.FormatFloat(n, 'f', -1, 64)
	}
	for _, key := range x.keysOf(r) {
		x.v.addValue(r.cat, key, s, pos)
	}
}

var ordering = map[token.Token]bool{
	token.EQL: true, token.NEQ: true, token.LSS: true, token.GTR: true, token.LEQ: true, token.GEQ: true,
}
