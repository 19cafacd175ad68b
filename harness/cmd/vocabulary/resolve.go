package main

import (
	"bufio"
	"go/ast"
	"go/parser"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// A plugin's keys are often constants of another package: its module's apis package
// (v1alpha1.PodGroupLabel) or a dependency's (v1.LabelTopologyZone). Such packages are read on
// first use, for their declarations only: from the rest of the DIR's module, or from the module
// cache at the version its go.mod requires. Nothing found in them is reported for itself.

// module is a go.mod: its path, directory and the modules it requires (after replace).
type module struct {
	path, dir string
	requires  map[string]string // module path -> "path@version", or a directory for a local replace
}

func readGoMod(dir string) *module {
	fh, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil
	}
	defer fh.Close()
	// Absolute: a local replace is told from a module path by it (dirOf).
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	m := &module{dir: dir, requires: map[string]string{}}
	replaces := map[string]string{}
	block := ""
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "//")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		verb := block
		switch {
		case f[0] == ")":
			block = ""
			continue
		case len(f) == 2 && f[1] == "(":
			block = f[0]
			continue
		case block == "":
			verb, f = f[0], f[1:]
		}
		switch {
		case verb == "module" && len(f) >= 1:
			m.path = strings.Trim(f[0], `"`)
		case verb == "require" && len(f) >= 2:
			m.requires[f[0]] = f[0] + "@" + f[1]
		case verb == "replace":
			// a => b v, or a => ./local; a replace of one version (a v => ...) counts for all.
			i := indexOf(f, "=>")
			switch {
			case i < 1 || i+1 >= len(f):
			case i+2 < len(f):
				replaces[f[0]] = f[i+1] + "@" + f[i+2]
			case strings.HasPrefix(f[i+1], ".") || filepath.IsAbs(f[i+1]):
				replaces[f[0]] = filepath.Join(dir, f[i+1])
			}
		}
	}
	for p, to := range replaces {
		if _, ok := m.requires[p]; ok {
			m.requires[p] = to
		}
	}
	if m.path == "" {
		return nil
	}
	return m
}

func indexOf(f []string, s string) int {
	for i, x := range f {
		if x == s {
			return i
		}
	}
	return -1
}

// pkg is the package of an import path: one under the DIRs, or one read now for its declarations.
func (w *world) pkg(ip string) *pkg {
	if p, ok := w.pkgs[ip]; ok || ip == "" {
		return p
	}
	w.pkgs[ip] = nil // tried once, found or not
	dir := w.dirOf(ip)
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	p := &pkg{path: ip}
	for _, e := range entries {
		name := e.Name()
		// Generated code declares no label or resource names, and is most of an API package.
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") ||
			strings.HasSuffix(name, ".pb.go") || strings.HasPrefix(name, "zz_generated") {
			continue
		}
		if ok, err := w.ctx.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		af, err := parser.ParseFile(w.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			continue // not the user's code: what parses still counts
		}
		p.name = af.Name.Name
		p.files = append(p.files, &file{ast: af, rel: name, pkg: p, imports: importNames(af)})
	}
	sort.Slice(p.files, func(i, j int) bool { return p.files[i].rel < p.files[j].rel })
	p.index()
	w.pkgs[ip] = p
	return p
}

// dirOf finds an import path's directory: in a DIR's own module, or in the module cache.
func (w *world) dirOf(ip string) string {
	for _, m := range w.modules {
		if rest, ok := under(ip, m.path); ok {
			return filepath.Join(m.dir, rest)
		}
	}
	best, target := "", ""
	for _, m := range w.modules {
		for mp, to := range m.requires {
			if _, ok := under(ip, mp); ok && len(mp) > len(best) {
				best, target = mp, to
			}
		}
	}
	if best == "" {
		return ""
	}
	rest, _ := under(ip, best)
	if filepath.IsAbs(target) {
		return filepath.Join(target, rest)
	}
	mp, version, _ := strings.Cut(target, "@")
	return filepath.Join(w.modcache, escape(mp)+"@"+escape(version), rest)
}

func under(ip, prefix string) (string, bool) {
	if ip == prefix {
		return "", true
	}
	if strings.HasPrefix(ip, prefix+"/") {
		return ip[len(prefix)+1:], true
	}
	return "", false
}

// escape is the module cache's case encoding: an upper-case letter is "!" and its lower case.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func modCache() string {
	if c := os.Getenv("GOMODCACHE"); c != "" {
		return c
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		home, _ := os.UserHomeDir()
		gopath = filepath.Join(home, "go")
	}
	return filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod")
}

var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

// importNames maps a file's local package names to import paths. Without an alias the name is
// guessed from the path (the module's own packages are corrected in resolveImports):
// the last element, or the one before a major version suffix, less a ".vN" (gopkg.in).
func importNames(f *ast.File) map[string]string {
	names := map[string]string{}
	for _, spec := range f.Imports {
		ip, _ := strconv.Unquote(spec.Path.Value)
		if spec.Name != nil {
			names[spec.Name.Name] = ip
			continue
		}
		base := path.Base(ip)
		names[base] = ip
		if parent := path.Base(path.Dir(ip)); majorVersion.MatchString(base) && parent != "." {
			names[parent] = ip
		}
		if name, _, ok := strings.Cut(base, ".v"); ok {
			names[name] = ip
		}
	}
	return names
}
