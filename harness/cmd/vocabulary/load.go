package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// parseError is the first syntax error of a file, as go build prints it.
type parseError struct{ msg string }

func (e parseError) Error() string { return e.msg }

// world is every package found under the DIRs, and those read for their constants (resolve.go),
// keyed by import path, so that v1alpha1.PodGroupLabel resolves wherever it is declared.
type world struct {
	fset  *token.FileSet
	pkgs  map[string]*pkg // nil for an import path looked for and not found
	order []*pkg          // the packages under the DIRs, sorted by directory
	ctx   build.Context
	// modules are the go.mod files of the DIRs; the module cache has what they require.
	modules  []*module
	modcache string
	returns  map[*ast.FuncDecl]ref // returnRef's answers
}

// pkg is one directory's files and its package-level declarations.
type pkg struct {
	path, name string
	files      []*file
	decls      map[string]*decl
	funcs      map[string]funcDecl
	// stringTypes are the package's `type X string` names: X("k") is a string constant too.
	stringTypes map[string]bool
}

// decl is one package-level const or var name with its value expression (nil when omitted).
type decl struct {
	value   ast.Expr
	isConst bool
	file    *file
}

// funcDecl is a package-level function: a helper returning a label value is traced into.
type funcDecl struct {
	decl *ast.FuncDecl
	file *file
}

type file struct {
	ast     *ast.File
	rel     string // relative to the DIR it was found under: the `sources` positions
	pkg     *pkg
	imports map[string]string // local name -> import path
}

// load parses the non-test Go files under dirs that the build tags select, skipping vendor,
// testdata and directories the go tool ignores (".x", "_x").
func load(dirs []string, tags []string) (*world, error) {
	w := &world{fset: token.NewFileSet(), pkgs: map[string]*pkg{}, ctx: build.Default, modcache: modCache(),
		returns: map[*ast.FuncDecl]ref{}}
	w.ctx.BuildTags = tags
	modules := map[string]string{} // directory -> import path, from the nearest go.mod
	for _, root := range dirs {
		var paths []string
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() {
				if p != root && (name == "vendor" || name == "testdata" ||
					strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
				paths = append(paths, p)
			}
			return nil
		})
		if err != nil {
			return nil, usageError{fmt.Sprintf("cannot read %s: %v", root, err)}
		}
		sort.Strings(paths)
		for _, p := range paths {
			dir, name := filepath.Split(p)
			// MatchFile fails on a malformed header; the parser below reports that better.
			if ok, err := w.ctx.MatchFile(dir, name); err == nil && !ok {
				continue
			}
			if err := w.add(root, p, w.importPath(filepath.Clean(dir), modules)); err != nil {
				return nil, err
			}
		}
	}
	sort.Slice(w.order, func(i, j int) bool { return w.order[i].files[0].rel < w.order[j].files[0].rel })
	for _, p := range w.order {
		p.index()
	}
	w.resolveImports()
	return w, nil
}

func (w *world) add(root, p, ipath string) error {
	src, err := os.ReadFile(p)
	if err != nil {
		return usageError{fmt.Sprintf("cannot read %s: %v", p, err)}
	}
	// Mode 0 keeps object resolution: refs.go traces locals to their definitions through it.
	f, err := parser.ParseFile(w.fset, p, src, 0)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			return parseError{list[0].Error()}
		}
		return parseError{err.Error()}
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		rel = p
	}
	pk := w.pkgs[ipath]
	if pk == nil {
		pk = &pkg{path: ipath, name: f.Name.Name}
		w.pkgs[ipath] = pk
		w.order = append(w.order, pk)
	}
	fl := &file{ast: f, rel: filepath.ToSlash(rel), pkg: pk, imports: importNames(f)}
	pk.files = append(pk.files, fl)
	return nil
}

// index records the package-level declarations, and fixes import names of the module's own
// packages whose name differs from the last element of their path.
func (p *pkg) index() {
	p.decls, p.funcs, p.stringTypes = map[string]*decl{}, map[string]funcDecl{}, map[string]bool{}
	for _, f := range p.files {
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					p.funcs[d.Name.Name] = funcDecl{d, f}
				}
			case *ast.GenDecl:
				p.indexGen(f, d)
			}
		}
	}
}

func (p *pkg) indexGen(f *file, d *ast.GenDecl) {
	for _, spec := range d.Specs {
		switch s := spec.(type) {
		case *ast.TypeSpec:
			if id, ok := s.Type.(*ast.Ident); ok && id.Name == "string" {
				p.stringTypes[s.Name.Name] = true
			}
		case *ast.ValueSpec:
			for i, n := range s.Names {
				dl := &decl{isConst: d.Tok == token.CONST, file: f}
				if i < len(s.Values) && len(s.Values) == len(s.Names) {
					dl.value = s.Values[i]
				}
				p.decls[n.Name] = dl
			}
		}
	}
}

// resolveImports renames imports of the module's own packages to their package names.
func (w *world) resolveImports() {
	for _, p := range w.order {
		for _, f := range p.files {
			for _, spec := range f.ast.Imports {
				ip, _ := strconv.Unquote(spec.Path.Value)
				if other := w.pkgs[ip]; spec.Name == nil && other != nil && other.name != path.Base(ip) {
					delete(f.imports, path.Base(ip))
					f.imports[other.name] = ip
				}
			}
		}
	}
}

// importPath is dir's import path from the nearest go.mod above it, or the directory itself
// when there is none (the path then only has to be unique).
func (w *world) importPath(dir string, modules map[string]string) string {
	if ip, ok := modules[dir]; ok {
		return ip
	}
	var ip string
	if m := readGoMod(dir); m != nil {
		ip = m.path
		w.modules = append(w.modules, m)
	} else if parent := filepath.Dir(dir); parent != dir {
		ip = w.importPath(parent, modules) + "/" + filepath.Base(dir)
	} else {
		ip = dir
	}
	modules[dir] = ip
	return ip
}
