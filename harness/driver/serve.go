package driver

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"k8s.io/component-base/version"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// The JSON-lines protocol of the driver (docs/contracts.md), one request per
// line on stdin, one response per line on stdout:
//
//	{"id": 1, "init": {"config": {...} | null, "profile": "", "plugin": "NodeResourcesFit"}}
//	    -> {"id": 1, "plugins": [...], "points": [...], "kubernetesVersion": "v1.37.2", "goVersion": "go1.26.8", "race": false}
//	    or {"id": 1, "error": "...", "plugins": [...]}   (an unknown plugin: the profile's plugins)
//	{"id": 2, "calls": [{"point": "snapshot", "nodes": [...], "pods": [...]}, {"point": "preFilter", "pod": {...}, "state": "a"}, ...]}
//	    -> {"id": 2, "results": [{"code": "Success", ...}, ...]}
//
// "watch": false with calls skips digesting each call's inputs before and
// after it: no result then has "mutated".
type request struct {
	ID    json.RawMessage `json:"id"`
	Init  *wireInit       `json:"init"`
	Calls []Call          `json:"calls"`
	Watch *bool           `json:"watch"`
}

type wireInit struct {
	Config  json.RawMessage `json:"config"`
	Profile string          `json:"profile"`
	Plugin  string          `json:"plugin"`
}

// Race is set by a file built only with -race.
var Race = false

// Serve answers requests from in on out until in ends.
func Serve(in io.Reader, out io.Writer, registry frameworkruntime.Registry) error {
	w := bufio.NewWriter(out)
	lines := bufio.NewReaderSize(in, 1<<20)
	var d *Driver
	defer func() {
		if d != nil {
			d.Close()
		}
	}()
	for {
		line, err := lines.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var req request
			var resp map[string]any
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				resp = map[string]any{"error": "decoding the request: " + jerr.Error()}
			} else {
				resp = answer(&d, &req, registry)
			}
			resp["id"] = req.ID
			data, merr := json.Marshal(resp)
			if merr != nil {
				data, _ = json.Marshal(map[string]any{"id": req.ID, "error": "encoding the response: " + merr.Error()})
			}
			w.Write(append(data, '\n'))
			w.Flush()
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

func answer(d **Driver, req *request, registry frameworkruntime.Registry) map[string]any {
	switch {
	case req.Init != nil:
		if *d != nil {
			(*d).Close()
			*d = nil
		}
		nd, err := New(InitRequest{Config: req.Init.Config, Profile: req.Init.Profile, Plugin: req.Init.Plugin}, registry)
		if err != nil {
			resp := map[string]any{"error": oneLine(err)}
			var unknown *UnknownPluginError
			if errors.As(err, &unknown) {
				resp["plugins"] = unknown.Plugins
			}
			return resp
		}
		*d = nd
		resp := map[string]any{"plugins": nd.Plugins(), "kubernetesVersion": version.Get().GitVersion,
			"goVersion": runtime.Version(), "race": Race}
		if nd.plugin != nil {
			resp["points"] = nd.Points()
			resp["fresh"] = nd.renew != nil
			if nd.notRenewable != "" {
				resp["notFresh"] = nd.notRenewable
			}
		}
		return resp
	case req.Calls != nil:
		if *d == nil || (*d).plugin == nil {
			return map[string]any{"error": "no plugin yet: send init with a plugin first"}
		}
		watching = req.Watch == nil || *req.Watch
		results, err := (*d).Run(req.Calls)
		watching = true
		if err != nil {
			return map[string]any{"error": oneLine(err)}
		}
		return map[string]any{"results": results}
	}
	return map[string]any{"error": fmt.Sprintf("request has neither init nor calls")}
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
