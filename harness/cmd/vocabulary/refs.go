package main

import (
	"go/ast"
	"go/token"
	"strings"
)

type refKind int

// What an expression is known to hold, traced through local definitions and small helpers.
const (
	refNone      refKind = iota
	refMap               // a labels or annotations map (cat)
	refValue             // the value of cat/key (key "" when the key is not known)
	refNumber            // the value of cat/key parsed as a number
	refKeyVar            // a key ranged over a labels or annotations map (cat)
	refTaint             // one taint or toleration
	refTaintList         // a list of them
	refResources         // a ResourceList
)

type ref struct {
	kind     refKind
	cat, key string
	// loop is the range statement of a key or value ranged over a map: a value's key is the
	// one its key variable was compared with (for k, v := range m { k == "a" && v == "b" }).
	loop ast.Node
}

var none = ref{}

// mapFields are the fields holding label-like maps: a node selector's keys are node labels.
var mapFields = map[string]string{
	"Labels": labels, "NodeSelector": labels, "MatchLabels": labels, "Annotations": annotations,
}

var resourceFields = map[string]bool{
	"Requests": true, "Limits": true, "Allocatable": true, "Capacity": true, "ScalarResources": true,
}

func (w *world) ref(f *file, e ast.Expr, depth int) ref {
	if depth > maxDepth {
		return none
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return w.ref(f, e.X, depth+1)
	case *ast.StarExpr:
		return w.ref(f, e.X, depth+1)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return w.ref(f, e.X, depth+1)
		}
	case *ast.SelectorExpr:
		if cat, ok := mapFields[e.Sel.Name]; ok {
			return ref{kind: refMap, cat: cat}
		}
		if resourceFields[e.Sel.Name] {
			return ref{kind: refResources}
		}
		if e.Sel.Name == "Taints" || e.Sel.Name == "Tolerations" {
			return ref{kind: refTaintList}
		}
	case *ast.IndexExpr:
		x := w.ref(f, e.X, depth+1)
		switch x.kind {
		case refMap:
			if key, ok := w.str(f, e.Index, depth+1); ok {
				return ref{kind: refValue, cat: x.cat, key: key}
			}
		case refTaintList:
			return ref{kind: refTaint}
		}
	case *ast.CallExpr:
		return w.callRef(f, e, depth)
	case *ast.Ident:
		return w.identRef(f, e, depth)
	}
	return none
}

func (w *world) identRef(f *file, id *ast.Ident, depth int) ref {
	if id.Obj == nil || f.isPackageLevel(id.Obj) {
		return none
	}
	switch d := id.Obj.Decl.(type) {
	case *ast.Field:
		return typeRef(id.Name, d.Type)
	case *ast.ValueSpec:
		if r := typeRef(id.Name, d.Type); d.Type != nil && r.kind != refNone {
			return r
		}
	}
	v, i := localValue(id)
	if v == nil {
		return none
	}
	if r, ok := v.(*ast.UnaryExpr); ok && r.Op == token.RANGE {
		x := w.ref(f, r.X, depth+1)
		switch {
		case x.kind == refMap && i == 0:
			return ref{kind: refKeyVar, cat: x.cat, loop: id.Obj.Decl.(ast.Node)}
		case x.kind == refMap && i == 1:
			return ref{kind: refValue, cat: x.cat, loop: id.Obj.Decl.(ast.Node)}
		case x.kind == refTaintList && i == 1:
			return ref{kind: refTaint}
		}
		return none
	}
	// In v, ok := m[k] and n, err := strconv.Atoi(s) the value is the tuple's first element.
	if i != 0 {
		return none
	}
	return w.ref(f, v, depth+1)
}

// typeRef reads a parameter's or var's declared type: func(t *v1.Taint), var rl v1.ResourceList,
// and a helper's map parameter by its name: func(podLabels map[string]string) or labels.Set.
func typeRef(name string, t ast.Expr) ref {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t := t.(type) {
	case *ast.ArrayType:
		if r := typeRef("", t.Elt); r.kind == refTaint {
			return ref{kind: refTaintList}
		}
		return none
	case *ast.MapType:
		if typeName(t.Key) == "string" && typeName(t.Value) == "string" {
			return mapByName(name)
		}
		return none
	}
	switch typeName(t) {
	case "Taint", "Toleration":
		return ref{kind: refTaint}
	case "ResourceList":
		return ref{kind: refResources}
	case "Set":
		if sel, ok := t.(*ast.SelectorExpr); ok && pkgIdent(sel.X) == "labels" {
			return ref{kind: refMap, cat: labels}
		}
		return mapByName(name)
	}
	return none
}

func mapByName(name string) ref {
	switch lower := strings.ToLower(name); {
	case strings.Contains(lower, "annotation"):
		return ref{kind: refMap, cat: annotations}
	case strings.Contains(lower, "label") || strings.Contains(lower, "selector"):
		return ref{kind: refMap, cat: labels}
	}
	return none
}

// typeName is the last name of a type expression: Taint for v1.Taint and *v1.Taint.
func typeName(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.StarExpr:
		return typeName(t.X)
	}
	return ""
}

// callName is pkg and name of a call pkg.Name(...) or x.Name(...); pkg is "" for a method.
func callName(e *ast.CallExpr) (string, string) {
	switch fun := e.Fun.(type) {
	case *ast.Ident:
		return "", fun.Name
	case *ast.SelectorExpr:
		if x, ok := fun.X.(*ast.Ident); ok && x.Obj == nil {
			return x.Name, fun.Sel.Name
		}
		return "", fun.Sel.Name
	case *ast.IndexExpr: // a generic instantiation: pkg.F[T](...)
		if s, ok := fun.X.(*ast.SelectorExpr); ok {
			if x, ok := s.X.(*ast.Ident); ok {
				return x.Name, s.Sel.Name
			}
		}
	}
	return "", ""
}

func (w *world) callRef(f *file, e *ast.CallExpr, depth int) ref {
	pkgName, name := callName(e)
	switch {
	case len(e.Args) == 0 && (name == "GetLabels" || name == "GetAnnotations"):
		return ref{kind: refMap, cat: map[string]string{"GetLabels": labels, "GetAnnotations": annotations}[name]}
	case pkgName == "labels" && name == "Set" && len(e.Args) == 1:
		return w.ref(f, e.Args[0], depth+1)
	case pkgName == "strings" && len(e.Args) == 1 &&
		(name == "ToLower" || name == "ToUpper" || name == "TrimSpace"):
		return w.ref(f, e.Args[0], depth+1)
	case pkgName == "" && name == "string" && len(e.Args) == 1:
		return w.ref(f, e.Args[0], depth+1)
	}
	if r, ok := w.numberRef(f, e, pkgName, name, depth); ok {
		return r
	}
	if id, ok := e.Fun.(*ast.Ident); ok && (id.Obj == nil || f.isPackageLevel(id.Obj)) {
		if fn, ok := f.pkg.funcs[id.Name]; ok {
			return w.returnRef(fn, depth+1)
		}
	}
	return none
}

// returnRef is what a helper returns, when one of its returns is a known label value or map:
// func tier(n *v1.Node) string { return n.Labels[tierLabel] }.
func (w *world) returnRef(fn funcDecl, depth int) ref {
	if fn.decl.Body == nil || depth > maxDepth {
		return none
	}
	// Memoised, and none while in progress: helpers calling helpers stay linear, recursion ends.
	if r, ok := w.returns[fn.decl]; ok {
		return r
	}
	w.returns[fn.decl] = none
	found := none
	defer func() { w.returns[fn.decl] = found }()
	ast.Inspect(fn.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if found.kind == refNone && len(n.Results) > 0 {
				found = w.ref(fn.file, n.Results[0], depth+1)
			}
		}
		return found.kind == refNone
	})
	return found
}
