package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*/want.json from the output")

// Each testdata module holds one pattern; want.json is the exact output, reviewed by hand.
func TestExtract(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"score", nil},    // a Score plugin preferring its own label values
		{"taint", nil},    // a Filter reading its own taint
		{"table", nil},    // a table indexed by a parsed label value, and other numbers
		{"resource", nil}, // extended resources
		{"selector", nil}, // selectors, label sets, metav1 helpers, invalid keys and values
		{"sets", nil},     // sets.New(...).Has(v), slices.Contains, ranging over the labels
		{"tags", nil},     // build tags, vendor/
		{"tags-extra", []string{"-tags", "extra"}},
		// Constants of other packages: the rest of the module, the module cache.
		{"deps", nil},
		{"two-dirs", []string{"testdata/taint"}}, // with testdata/resource: one vocabulary
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join("testdata", tc.name)
			switch tc.name {
			case "tags-extra":
				dir = filepath.Join("testdata", "tags")
			case "two-dirs":
				dir = filepath.Join("testdata", "resource")
			case "deps":
				dir = filepath.Join("testdata", "deps", "plugin")
				t.Setenv("GOMODCACHE", moduleCache(t))
			}
			var out bytes.Buffer
			if err := run(append(tc.args, dir), &out); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tc.name+".want.json")
			if *update {
				var pretty bytes.Buffer
				if err := json.Indent(&pretty, out.Bytes(), "", "  "); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, want); err != nil {
				t.Fatal(err)
			}
			compact.WriteByte('\n')
			if got := out.String(); got != compact.String() {
				t.Errorf("vocabulary %s:\n got %s\nwant %s", dir, got, compact.String())
			}
		})
	}
}

// moduleCache is a module cache holding the deps module's one dependency; it is written here
// because its path has the cache's escaping of an upper-case letter ("!l"), which the wheel
// that carries harness/cmd should not have to.
func moduleCache(t *testing.T) string {
	cache := t.TempDir()
	dir := filepath.Join(cache, "example.com", "!labels@v1.2.0", "keys")
	src := `// Package keys is a dependency in the module cache.
package keys

import v1 "k8s.io/api/core/v1"

const Rack = "example.com/rack"

const GPU v1.ResourceName = "vendor.io/gpu"
`
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "keys.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return cache
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		parse bool // a Go parse error, printed as go build does
		want  string
	}{
		{"parse error", []string{"testdata/broken"}, true,
			"testdata/broken/bad.go:4:5: expected boolean expression, found assignment " +
				"(missing parentheses around composite literal?)"},
		{"unknown flag", []string{"-x", "testdata/score"}, false,
			"flag provided but not defined: -x; usage: vocabulary [-tags a,b] DIR..."},
		{"no dir", nil, false, "no DIR given; usage: vocabulary [-tags a,b] DIR..."},
		{"missing dir", []string{"testdata/nonexistent"}, false,
			`"testdata/nonexistent" is not a directory; pass the plugin module's directory`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(tc.args, &out)
			var perr parseError
			if err == nil || errors.As(err, &perr) != tc.parse || err.Error() != tc.want {
				t.Fatalf("got error %v (parse error: %v), want %q", err, errors.As(err, &perr), tc.want)
			}
			if out.Len() != 0 {
				t.Errorf("printed %q on stdout with an error", out.String())
			}
		})
	}
}

// The output's shape is the contract with the Python side: every key, lists never null.
func TestEmptyModuleHasEveryKey(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{t.TempDir()}, &out); err != nil {
		t.Fatal(err)
	}
	want := `{"labels":{},"annotations":{},"taints":{},"resources":[],"sources":{}}` + "\n"
	if out.String() != want {
		t.Errorf("got %s want %s", out.String(), want)
	}
}

// The command itself, run as a subprocess of the test binary: exit status 2 and one line.
func TestExitStatus(t *testing.T) {
	if os.Getenv("VOCABULARY_MAIN") == "1" {
		os.Args = append([]string{"vocabulary"}, flag.Args()...)
		main()
		os.Exit(0)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"testdata/broken"}, "testdata/broken/bad.go:4:5: expected boolean expression, found " +
			"assignment (missing parentheses around composite literal?)\n"},
		{[]string{"-tags"}, "vocabulary: flag needs an argument: -tags; usage: vocabulary [-tags a,b] DIR...\n"},
	} {
		cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestExitStatus$", "--"}, tc.args...)...)
		cmd.Env = append(os.Environ(), "VOCABULARY_MAIN=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("vocabulary %v: %v, want exit status 2", tc.args, err)
		}
		if stderr.String() != tc.want || stdout.Len() != 0 {
			t.Errorf("vocabulary %v: stderr %q stdout %q, want stderr %q", tc.args, stderr.String(),
				stdout.String(), tc.want)
		}
	}
}
