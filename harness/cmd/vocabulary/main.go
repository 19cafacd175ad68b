// Command vocabulary reads the Go sources of a user's plugin module and prints, as JSON, the label
// and annotation keys and values, taint keys and values and extended resource names its code
// compares against (issue 30, item 2): the generators draw them beside the stock vocabulary, so
// a plugin's own branches get exercised without the user naming its domain.
//
//	vocabulary [-tags a,b] DIR...
//
// Exit status 2, with one line on stderr, for bad usage or sources that do not parse.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// usageError is reported as one line; its text names the bad value and the fix.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		// A parse error reads as go build's does (file:line:col: msg); the rest names the command.
		var perr parseError
		if errors.As(err, &perr) {
			fmt.Fprintln(os.Stderr, perr.Error())
		} else {
			fmt.Fprintln(os.Stderr, "vocabulary: "+err.Error())
		}
		os.Exit(2)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("vocabulary", flag.ContinueOnError)
	// The flag package's own report spans several lines; we print one.
	fs.SetOutput(io.Discard)
	tags := fs.String("tags", "", "comma- or space-separated build tags, as for go build")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return usageError{"usage: vocabulary [-tags a,b] DIR..."}
		}
		return usageError{err.Error() + "; usage: vocabulary [-tags a,b] DIR..."}
	}
	if fs.NArg() == 0 {
		return usageError{"no DIR given; usage: vocabulary [-tags a,b] DIR..."}
	}
	for _, dir := range fs.Args() {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return usageError{fmt.Sprintf("%q is not a directory; pass the plugin module's directory", dir)}
		}
	}
	w, err := load(fs.Args(), strings.FieldsFunc(*tags, func(r rune) bool { return r == ',' || r == ' ' }))
	if err != nil {
		return err
	}
	v := newVocab()
	w.extract(v)
	return v.write(stdout)
}
