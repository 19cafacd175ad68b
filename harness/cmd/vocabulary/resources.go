package main

import "go/ast"

// resourceConst handles const fpga v1.ResourceName = "example.com/fpga": the type says it
// names a resource even where the code never indexes a ResourceList with it.
func (x *extractor) resourceConst(s *ast.ValueSpec) {
	if s.Type == nil || typeName(s.Type) != "ResourceName" {
		return
	}
	for _, v := range s.Values {
		if name, ok := x.w.str(x.f, v, 0); ok {
			x.v.addResource(name, x.pos(v))
		}
	}
}
