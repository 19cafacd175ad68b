package main

import "go/ast"

// taintLiteral reads v1.Taint{Key: "k", Value: "v"} and the same fields of a Toleration.
func (x *extractor) taintLiteral(lit *ast.CompositeLit) {
	x.keyValue(taints, field(lit, "Key"), field(lit, "Value"), x.pos(lit))
}

// taintField handles t.Key == "k" and t.Value == "v" with t a taint or toleration; a value
// belongs to the keys t was compared with before it (the usual t.Key == k && t.Value == v).
func (x *extractor) taintField(a, b ast.Expr, pos at) bool {
	sel, ok := a.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Key" && sel.Sel.Name != "Value" {
		return false
	}
	if x.w.ref(x.f, sel.X, 0).kind != refTaint {
		return false
	}
	s, ok := x.w.str(x.f, b, 0)
	if !ok {
		return true
	}
	id := exprID(sel.X)
	if sel.Sel.Name == "Key" {
		x.v.addKey(taints, s, pos)
		x.taintKeys[id] = append(x.taintKeys[id], s)
		return true
	}
	for _, key := range x.taintKeys[id] {
		x.v.addValue(taints, key, s, pos)
	}
	return true
}
