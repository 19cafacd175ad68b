package main

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// maxDepth bounds the tracing of names to their definitions (cycles, long chains).
const maxDepth = 12

// lookup finds what a name refers to at package level: an identifier of this package (not
// declared in a function) or pkg.Name of another package (resolve.go finds it).
func (f *file) lookup(w *world, e ast.Expr) *decl {
	switch e := e.(type) {
	case *ast.Ident:
		if e.Obj != nil && !f.isPackageLevel(e.Obj) {
			return nil
		}
		return f.pkg.decls[e.Name]
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok || x.Obj != nil {
			return nil
		}
		if p := w.pkg(f.imports[x.Name]); p != nil {
			return p.decls[e.Sel.Name]
		}
	}
	return nil
}

func (f *file) isPackageLevel(obj *ast.Object) bool {
	return f.ast.Scope != nil && f.ast.Scope.Lookup(obj.Name) == obj
}

// localValue is the expression a local name was defined with, and the name's index in a
// tuple definition (v, ok := m[k]: index 0 of m[k]); nil when it is not known.
func localValue(id *ast.Ident) (ast.Expr, int) {
	if id.Obj == nil {
		return nil, 0
	}
	switch d := id.Obj.Decl.(type) {
	case *ast.AssignStmt:
		for i, l := range d.Lhs {
			if l, ok := l.(*ast.Ident); ok && l.Name == id.Name {
				if len(d.Rhs) == len(d.Lhs) {
					return d.Rhs[i], 0
				}
				if len(d.Rhs) == 1 {
					return d.Rhs[0], i
				}
			}
		}
	case *ast.ValueSpec:
		for i, n := range d.Names {
			if n.Name == id.Name {
				if len(d.Values) == len(d.Names) {
					return d.Values[i], 0
				}
				if len(d.Values) == 1 {
					return d.Values[0], i
				}
			}
		}
	}
	return nil, 0
}

// str evaluates a string constant: literals, consts and vars initialised with one (in this
// package or another under the DIRs), concatenation, and conversions to string types.
func (w *world) str(f *file, e ast.Expr, depth int) (string, bool) {
	if depth > maxDepth {
		return "", false
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.ParenExpr:
		return w.str(f, e.X, depth+1)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, ok1 := w.str(f, e.X, depth+1)
			b, ok2 := w.str(f, e.Y, depth+1)
			return a + b, ok1 && ok2
		}
	case *ast.CallExpr:
		if len(e.Args) == 1 && w.isStringType(f, e.Fun) {
			return w.str(f, e.Args[0], depth+1)
		}
	case *ast.Ident:
		if e.Obj != nil && !f.isPackageLevel(e.Obj) {
			// A local const, or a local var never reassigned in the common case.
			if v, i := localValue(e); v != nil && i == 0 {
				return w.str(f, v, depth+1)
			}
			return "", false
		}
		return w.declStr(f, e, depth)
	case *ast.SelectorExpr:
		return w.declStr(f, e, depth)
	}
	return "", false
}

func (w *world) declStr(f *file, e ast.Expr, depth int) (string, bool) {
	d := f.lookup(w, e)
	if d == nil || d.value == nil {
		return "", false
	}
	return w.str(d.file, d.value, depth+1)
}

// isStringType says whether fun names a type whose underlying type is string, as far as the
// sources show: string, the API's ResourceName and friends, or a `type X string` under the DIRs.
func (w *world) isStringType(f *file, fun ast.Expr) bool {
	switch fun := fun.(type) {
	case *ast.Ident:
		return fun.Name == "string" || f.pkg.stringTypes[fun.Name]
	case *ast.SelectorExpr:
		switch fun.Sel.Name {
		case "ResourceName", "TaintEffect", "LabelSelectorOperator", "NodeSelectorOperator":
			return true
		}
		if x, ok := fun.X.(*ast.Ident); ok {
			if p := w.pkg(f.imports[x.Name]); p != nil {
				return p.stringTypes[fun.Sel.Name]
			}
		}
	}
	return false
}

// num evaluates a numeric constant: literals, consts, arithmetic, conversions, len of a table
// literal, and resource.MustParse of a plain number. isInt tells an integer.
func (w *world) num(f *file, e ast.Expr, depth int) (v float64, isInt, ok bool) {
	if depth > maxDepth {
		return 0, false, false
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		switch e.Kind {
		case token.INT:
			n, err := strconv.ParseInt(strings.ReplaceAll(e.Value, "_", ""), 0, 64)
			return float64(n), true, err == nil
		case token.FLOAT:
			x, err := strconv.ParseFloat(strings.ReplaceAll(e.Value, "_", ""), 64)
			return x, false, err == nil
		}
	case *ast.ParenExpr:
		return w.num(f, e.X, depth+1)
	case *ast.UnaryExpr:
		if e.Op == token.SUB {
			x, isInt, ok := w.num(f, e.X, depth+1)
			return -x, isInt, ok
		}
	case *ast.BinaryExpr:
		a, ia, ok1 := w.num(f, e.X, depth+1)
		b, ib, ok2 := w.num(f, e.Y, depth+1)
		if !ok1 || !ok2 {
			return 0, false, false
		}
		switch e.Op {
		case token.ADD:
			return a + b, ia && ib, true
		case token.SUB:
			return a - b, ia && ib, true
		case token.MUL:
			return a * b, ia && ib, true
		case token.QUO:
			if b != 0 {
				if ia && ib {
					return float64(int64(a) / int64(b)), true, true
				}
				return a / b, false, true
			}
		}
	case *ast.CallExpr:
		return w.numCall(f, e, depth)
	case *ast.Ident:
		if e.Obj != nil && !f.isPackageLevel(e.Obj) {
			if e.Obj.Kind == ast.Con {
				if v, i := localValue(e); v != nil && i == 0 {
					return w.num(f, v, depth+1)
				}
			}
			return 0, false, false
		}
		if d := f.lookup(w, e); d != nil && d.isConst && d.value != nil {
			return w.num(d.file, d.value, depth+1)
		}
	case *ast.SelectorExpr:
		if d := f.lookup(w, e); d != nil && d.isConst && d.value != nil {
			return w.num(d.file, d.value, depth+1)
		}
	}
	return 0, false, false
}

func (w *world) numCall(f *file, e *ast.CallExpr, depth int) (float64, bool, bool) {
	if len(e.Args) != 1 {
		return 0, false, false
	}
	switch fun := e.Fun.(type) {
	case *ast.Ident:
		switch fun.Name {
		case "len":
			if n, ok := w.tableLen(f, e.Args[0], depth+1); ok {
				return float64(n), true, true
			}
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
			x, _, ok := w.num(f, e.Args[0], depth+1)
			return float64(int64(x)), true, ok
		case "float32", "float64":
			x, _, ok := w.num(f, e.Args[0], depth+1)
			return x, false, ok
		}
	case *ast.SelectorExpr:
		if fun.Sel.Name == "MustParse" {
			if s, ok := w.str(f, e.Args[0], depth+1); ok {
				if n, err := strconv.ParseInt(s, 10, 64); err == nil {
					return float64(n), true, true
				}
			}
		}
	}
	return 0, false, false
}

// definition follows names to the expression they were initialised with: locals, and
// package-level vars here or in another package.
func (w *world) definition(f *file, e ast.Expr, depth int) (ast.Expr, *file) {
	if depth > maxDepth {
		return nil, nil
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return w.definition(f, e.X, depth+1)
	case *ast.Ident:
		if e.Obj != nil && !f.isPackageLevel(e.Obj) {
			if v, i := localValue(e); v != nil && i == 0 {
				return w.definition(f, v, depth+1)
			}
			return nil, nil
		}
		if d := f.lookup(w, e); d != nil && d.value != nil {
			return w.definition(d.file, d.value, depth+1)
		}
		return nil, nil
	case *ast.SelectorExpr:
		if d := f.lookup(w, e); d != nil && d.value != nil {
			return w.definition(d.file, d.value, depth+1)
		}
	}
	return e, f
}

// table is the composite literal a name was initialised with (a slice, array or map literal).
func (w *world) table(f *file, e ast.Expr, depth int) (*ast.CompositeLit, *file) {
	def, df := w.definition(f, e, depth)
	if lit, ok := def.(*ast.CompositeLit); ok {
		return lit, df
	}
	return nil, nil
}

// tableLen is len() of a table literal: its element count, or N of a [N]T array type.
func (w *world) tableLen(f *file, e ast.Expr, depth int) (int, bool) {
	lit, lf := w.table(f, e, depth)
	if lit == nil {
		return 0, false
	}
	if at, ok := lit.Type.(*ast.ArrayType); ok && at.Len != nil {
		if n, isInt, ok := w.num(lf, at.Len, depth+1); ok && isInt {
			return int(n), true
		}
	}
	return len(lit.Elts), true
}
