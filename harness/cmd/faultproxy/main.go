// Command faultproxy stands between the local kube-scheduler and
// kube-apiserver, on loopback only, and injects the scenario's timeline faults
// (issue 31, docs/scenario.md "Faults") into the scheduler's own API calls:
// an error answered instead of the binding POST, a pod status PATCH, a victim
// DELETE or an Event write; an object deleted through the API server before
// the binding call is forwarded; a restart: the binding call is never
// forwarded and every later call of that scheduler is held until the backend
// has killed it and lifted the fence. The scheduler talks plain HTTP to it; it
// talks TLS with the control plane's token to the API server. The backend
// drives it under /_faults/ (conformance/cluster/fault_proxy.py).
//
//	faultproxy --listen 127.0.0.1:PORT --upstream https://127.0.0.1:PORT --ca CA --token-file FILE
package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

const control = "/_faults/"

type proxy struct {
	upstream *url.URL
	token    string
	client   *http.Client
	rp       *httputil.ReverseProxy
	inj      *injector
	mu       sync.Mutex
	events   map[string]string // "ns/event name" -> the pod it regards
}

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "loopback address to listen on")
	upstream := flag.String("upstream", "", "the API server, https://127.0.0.1:PORT")
	ca := flag.String("ca", "", "the API server's CA certificate")
	tokenFile := flag.String("token-file", "", "a file holding the bearer token")
	flag.Parse()
	p, err := newProxy(*upstream, *ca, *tokenFile)
	if err != nil {
		log.Fatalf("faultproxy: %v", err)
	}
	host, _, err := net.SplitHostPort(*listen)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		log.Fatalf("faultproxy: --listen %q is not a loopback address; use 127.0.0.1:PORT", *listen)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("faultproxy: %v", err)
	}
	log.Printf("faultproxy listening on %s, forwarding to %s", ln.Addr(), p.upstream)
	log.Fatal((&http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}).Serve(ln))
}

func newProxy(upstream, caFile, tokenFile string) (*proxy, error) {
	u, err := url.Parse(upstream)
	if err != nil || u.Scheme != "https" || !net.ParseIP(u.Hostname()).IsLoopback() {
		return nil, fmt.Errorf("--upstream %q is not https://<loopback>:PORT; pass the local API server", upstream)
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("--ca: %v", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--ca %s holds no PEM certificate", caFile)
	}
	token, err := os.ReadFile(tokenFile)
	if err != nil {
		return nil, fmt.Errorf("--token-file: %v", err)
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	transport.MaxIdleConnsPerHost = 64
	p := &proxy{upstream: u, token: strings.TrimSpace(string(token)), inj: newInjector(),
		client: &http.Client{Transport: transport, Timeout: 10 * time.Second}, events: map[string]string{}}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(u)
			r.Out.Header.Set("Authorization", "Bearer "+p.token)
		},
		Transport:     transport,
		FlushInterval: -1, // watches stream event by event
		ErrorLog:      log.New(os.Stderr, "faultproxy: ", log.LstdFlags),
	}
	return p, nil
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, control) {
		p.control(w, r)
		return
	}
	if !p.inj.hold(r) {
		http.Error(w, "the scheduler is restarting (fault)", http.StatusServiceUnavailable)
		return
	}
	var body []byte
	writes := r.Method == http.MethodPost || r.Method == http.MethodPatch || r.Method == http.MethodPut
	if r.Body != nil && writes {
		var err error
		if body, err = io.ReadAll(io.LimitReader(r.Body, 16<<20)); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
	c := p.classify(r, body)
	if c.kind != "" {
		a := p.inj.decide(c)
		for _, f := range a.vanish {
			p.vanish(f, c)
		}
		if a.restart != nil {
			log.Printf("restart at bind of %s (timeline[%d]): fenced", c.pod, a.restart.Index)
			p.inj.hold(r) // never forwarded
			http.Error(w, "the scheduler restarted (fault)", http.StatusServiceUnavailable)
			return
		}
		if a.fail != nil {
			code, msg := status(a.fail, c)
			log.Printf("%s %s of %s answered %d (timeline[%d])", c.kind, r.URL.Path, c.pod, code, a.fail.Index)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			_, _ = w.Write(msg)
			return
		}
	}
	p.rp.ServeHTTP(w, r)
}

// vanish deletes the fault's object through the API server (grace 0).
func (p *proxy) vanish(f *fault, c call) {
	target := "/api/v1/nodes/" + c.node
	if f.Object == "pod" {
		ns, name, _ := strings.Cut(c.pod, "/")
		target = "/api/v1/namespaces/" + ns + "/pods/" + name
	}
	req, _ := http.NewRequest(http.MethodDelete, p.upstream.String()+target,
		strings.NewReader(`{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0}`))
	req.Header.Set("Authorization", "Bearer "+p.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		log.Printf("vanish %s (timeline[%d]): %v", target, f.Index, err)
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	log.Printf("vanish %s (timeline[%d]): %s", target, f.Index, resp.Status)
}

// control: POST reset, POST arm (a fault), GET firings?after=N&wait=SECONDS,
// POST resume (the old scheduler is gone), GET healthz.
func (p *proxy) control(w http.ResponseWriter, r *http.Request) {
	switch what := strings.TrimPrefix(r.URL.Path, control); {
	case what == "healthz" && r.Method == http.MethodGet:
		_, _ = io.WriteString(w, "ok\n")
	case what == "reset" && r.Method == http.MethodPost:
		p.inj.reset()
		p.mu.Lock()
		p.events = map[string]string{}
		p.mu.Unlock()
	case what == "arm" && r.Method == http.MethodPost:
		var f fault
		if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
			http.Error(w, "arm: "+err.Error(), http.StatusBadRequest)
			return
		}
		p.inj.arm(&f)
	case what == "resume" && r.Method == http.MethodPost:
		p.inj.resume()
	case what == "firings" && r.Method == http.MethodGet:
		after, _ := strconv.Atoi(r.URL.Query().Get("after"))
		wait, _ := strconv.ParseFloat(r.URL.Query().Get("wait"), 64)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(p.inj.since(after, time.Duration(wait*float64(time.Second))))
	default:
		http.Error(w, "unknown control request "+r.Method+" "+r.URL.Path, http.StatusNotFound)
	}
}
