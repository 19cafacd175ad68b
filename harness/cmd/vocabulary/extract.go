package main

import (
	"fmt"
	"go/ast"
	"go/types"
)

// extractor walks one file; what it finds goes to v.
type extractor struct {
	w *world
	f *file
	v *vocab
	// taintKeys are the keys a taint variable was compared with, so that a later comparison
	// of its Value (t.Key == "k" && t.Value == "v") knows which key the value belongs to.
	taintKeys map[string][]string
	// loopKeys are the keys a map's range key was compared with, by range statement (ref.loop).
	loopKeys map[ast.Node][]string
}

func (w *world) extract(v *vocab) {
	for _, p := range w.order {
		for _, f := range p.files {
			x := &extractor{w: w, f: f, v: v, taintKeys: map[string][]string{}, loopKeys: map[ast.Node][]string{}}
			ast.Inspect(f.ast, x.visit)
		}
	}
}

func (x *extractor) pos(n ast.Node) at {
	return at{x.f.rel, x.w.fset.Position(n.Pos()).Line}
}

func (x *extractor) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.IndexExpr:
		x.index(n)
	case *ast.BinaryExpr:
		if ordering[n.Op] {
			if !x.compare(n.X, n.Y, n) {
				x.compare(n.Y, n.X, n)
			}
		}
	case *ast.SwitchStmt:
		x.switchCases(n)
	case *ast.CallExpr:
		x.call(n)
	case *ast.CompositeLit:
		x.literal(n)
	case *ast.AssignStmt:
		x.assign(n)
	case *ast.ValueSpec:
		x.resourceConst(n)
	}
	return true
}

// index handles m[k] on a labels map or a ResourceList, and tables indexed by a label value.
func (x *extractor) index(e *ast.IndexExpr) {
	pos := x.pos(e)
	switch r := x.w.ref(x.f, e.X, 0); r.kind {
	case refMap:
		if key, ok := x.w.str(x.f, e.Index, 0); ok {
			x.v.addKey(r.cat, key, pos)
		}
		return
	case refResources:
		if name, ok := x.w.str(x.f, e.Index, 0); ok {
			x.v.addResource(name, pos)
		}
		return
	}
	x.indexTable(e, pos)
}

// compare handles `a OP b` with a something known and b a constant; false when a is not known.
func (x *extractor) compare(a, b ast.Expr, n ast.Node) bool {
	pos := x.pos(n)
	if x.taintField(a, b, pos) {
		return true
	}
	r := x.w.ref(x.f, a, 0)
	switch r.kind {
	case refValue:
		if s, ok := x.w.str(x.f, b, 0); ok {
			for _, key := range x.keysOf(r) {
				x.v.addValue(r.cat, key, s, pos)
			}
		}
		return true
	case refKeyVar:
		if s, ok := x.w.str(x.f, b, 0); ok {
			x.v.addKey(r.cat, s, pos)
			x.loopKeys[r.loop] = append(x.loopKeys[r.loop], s)
		}
		return true
	}
	return x.compareNumber(r, b, pos)
}

// switchCases handles switch v { case "gold": ... } over a label value or a parsed one.
func (x *extractor) switchCases(s *ast.SwitchStmt) {
	if s.Tag == nil {
		return
	}
	r := x.w.ref(x.f, s.Tag, 0)
	if r.kind != refValue && r.kind != refNumber {
		return
	}
	for _, c := range s.Body.List {
		for _, e := range c.(*ast.CaseClause).List {
			x.literalValue(r, x.f, e, x.pos(e))
		}
	}
}

// assign handles pod.Labels["k"] = "v": the plugin writes its own label.
func (x *extractor) assign(a *ast.AssignStmt) {
	if len(a.Lhs) != len(a.Rhs) {
		return
	}
	for i, l := range a.Lhs {
		if r := x.w.ref(x.f, l, 0); r.kind == refValue {
			if s, ok := x.w.str(x.f, a.Rhs[i], 0); ok {
				for _, key := range x.keysOf(r) {
					x.v.addValue(r.cat, key, s, x.pos(a))
				}
			}
		}
	}
}

// exprID names an expression for taintKeys: a local by its object, others by their text.
func exprID(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok && id.Obj != nil {
		return fmt.Sprintf("%p", id.Obj)
	}
	return types.ExprString(e)
}

// keysOf is the key of a value: its own, or those its range key was compared with before.
func (x *extractor) keysOf(r ref) []string {
	if r.key != "" {
		return []string{r.key}
	}
	return x.loopKeys[r.loop]
}
