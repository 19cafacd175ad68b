package main

import (
	"go/ast"
)

// call handles the calls that name a label, annotation or resource, or test a label value.
func (x *extractor) call(e *ast.CallExpr) {
	pkgName, name := callName(e)
	pos := x.pos(e)
	switch {
	case parsers[pkgName][name] && len(e.Args) >= 1:
		x.parsed(e.Args[0], pos)
	case pkgName == "strings" && len(e.Args) == 2:
		x.stringTest(name, e.Args[0], e.Args[1], pos)
	case name == "HasLabel" || name == "HasAnnotation":
		// metav1.HasLabel(meta, key)
		if len(e.Args) == 2 {
			if key, ok := x.w.str(x.f, e.Args[1], 0); ok {
				x.v.addKey(map[string]string{"HasLabel": labels, "HasAnnotation": annotations}[name], key, pos)
			}
		}
	case name == "SetMetaDataLabel" || name == "SetMetaDataAnnotation":
		if len(e.Args) == 3 {
			cat := map[string]string{"SetMetaDataLabel": labels, "SetMetaDataAnnotation": annotations}[name]
			x.keyValue(cat, e.Args[1], e.Args[2], pos)
		}
	case pkgName == "labels" && (name == "SelectorFromSet" || name == "SelectorFromValidatedSet"):
		if len(e.Args) == 1 {
			x.labelMap(labels, e.Args[0])
		}
	case pkgName == "slices" && name == "Contains" && len(e.Args) == 2:
		// slices.Contains(allowed, v): every element of a table literal is a value of v's label.
		r := x.w.ref(x.f, e.Args[1], 0)
		if lit, lf := x.w.table(x.f, e.Args[0], 0); lit != nil && r.kind == refValue {
			for _, el := range lit.Elts {
				x.literalValue(r, lf, el, pos)
			}
		}
	case name == "Has" && len(e.Args) == 1:
		x.setHas(e, pos)
	case name == "ResourceName" && len(e.Args) == 1:
		if s, ok := x.w.str(x.f, e.Args[0], 0); ok {
			x.v.addResource(s, pos)
		}
	}
}

// stringTest handles strings.HasPrefix(v, "gpu-") and its kin on a label value: a prefix
// stands for the values it starts, with the small integers such prefixes usually carry.
func (x *extractor) stringTest(name string, subject, arg ast.Expr, pos at) {
	r := x.w.ref(x.f, subject, 0)
	if r.kind != refValue {
		return
	}
	s, ok := x.w.str(x.f, arg, 0)
	if !ok {
		return
	}
	var values []string
	switch name {
	case "HasPrefix", "TrimPrefix", "CutPrefix":
		values = []string{s + "0", s + "1"}
	case "HasSuffix", "TrimSuffix", "CutSuffix":
		values = []string{"0" + s, "1" + s}
	case "EqualFold", "Contains":
		values = []string{s}
	}
	for _, key := range x.keysOf(r) {
		for _, value := range values {
			x.v.addValue(r.cat, key, value, pos)
		}
	}
}

// keyValue adds a key and, when it is a constant too, its value.
func (x *extractor) keyValue(cat string, k, v ast.Expr, pos at) {
	key, ok := x.w.str(x.f, k, 0)
	if !ok {
		return
	}
	if value, ok := x.w.str(x.f, v, 0); ok {
		x.v.addValue(cat, key, value, pos)
	} else {
		x.v.addKey(cat, key, pos)
	}
}

// labelMap reads a map literal of keys and values: labels.Set{"k": "v"}, MatchLabels: {...}.
func (x *extractor) labelMap(cat string, e ast.Expr) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			x.keyValue(cat, kv.Key, kv.Value, x.pos(kv))
		}
	}
}

// literal handles composite literals that spell out labels, selectors, taints or resources.
func (x *extractor) literal(lit *ast.CompositeLit) {
	name := typeName(lit.Type)
	if s, ok := lit.Type.(*ast.SelectorExpr); ok && name == "Set" && pkgIdent(s.X) == "labels" {
		x.labelMap(labels, lit)
		return
	}
	switch name {
	case "LabelSelectorRequirement", "NodeSelectorRequirement":
		x.requirement(lit)
	case "Taint", "Toleration":
		x.taintLiteral(lit)
	case "ResourceList", "":
		if m, ok := lit.Type.(*ast.MapType); name != "" || ok && typeName(m.Key) == "ResourceName" {
			x.resourceKeys(lit)
		}
	}
	// []metav1.LabelSelectorRequirement{{Key: ...}}: the elements' types are elided.
	if a, ok := lit.Type.(*ast.ArrayType); ok {
		for _, el := range lit.Elts {
			if el, ok := el.(*ast.CompositeLit); ok && el.Type == nil {
				switch typeName(a.Elt) {
				case "LabelSelectorRequirement", "NodeSelectorRequirement":
					x.requirement(el)
				case "Taint", "Toleration":
					x.taintLiteral(el)
				}
			}
		}
	}
	// Labels: map[string]string{...} in an ObjectMeta, MatchLabels in a LabelSelector.
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && mapFields[id.Name] != "" {
				x.labelMap(mapFields[id.Name], kv.Value)
			}
		}
	}
}

// requirement reads {Key: "k", Operator: In, Values: []string{"a", "b"}}.
func (x *extractor) requirement(lit *ast.CompositeLit) {
	key, ok := x.w.str(x.f, field(lit, "Key"), 0)
	if !ok {
		return
	}
	x.v.addKey(labels, key, x.pos(lit))
	if vals, ok := field(lit, "Values").(*ast.CompositeLit); ok {
		for _, e := range vals.Elts {
			if s, ok := x.w.str(x.f, e, 0); ok {
				x.v.addValue(labels, key, s, x.pos(e))
			}
		}
	}
}

// field is the value of Name: in a keyed composite literal, or nil.
func field(lit *ast.CompositeLit, name string) ast.Expr {
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value
			}
		}
	}
	return nil
}

// pkgIdent is the name of a package identifier, "" for anything else.
func pkgIdent(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok && id.Obj == nil {
		return id.Name
	}
	return ""
}

// setHas handles allowed.Has(v) with allowed := sets.New("a", "b") (or sets.NewString): the
// set's elements are values of v's label.
func (x *extractor) setHas(e *ast.CallExpr, pos at) {
	sel, ok := e.Fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	r := x.w.ref(x.f, e.Args[0], 0)
	if r.kind != refValue {
		return
	}
	def, df := x.w.definition(x.f, sel.X, 0)
	call, ok := def.(*ast.CallExpr)
	if !ok {
		return
	}
	if pkgName, name := callName(call); pkgName != "sets" || name != "New" && name != "NewString" {
		return
	}
	for _, el := range call.Args {
		if s, ok := x.w.str(df, el, 0); ok {
			for _, key := range x.keysOf(r) {
				x.v.addValue(r.cat, key, s, pos)
			}
		}
	}
}

// resourceKeys reads v1.ResourceList{"example.com/fpga": ...} and map[v1.ResourceName]T{...}.
func (x *extractor) resourceKeys(lit *ast.CompositeLit) {
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if s, ok := x.w.str(x.f, kv.Key, 0); ok {
				x.v.addResource(s, x.pos(kv))
			}
		}
	}
}
