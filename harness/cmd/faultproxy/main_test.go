package main

import (
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// upstream is a stand-in API server that records the requests it gets.
type upstream struct {
	mu   sync.Mutex
	seen []string // "METHOD path auth"
}

func (u *upstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.mu.Lock()
	u.seen = append(u.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
	u.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"kind":"Status","status":"Success"}`)
}

func (u *upstream) requests() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.seen...)
}

func start(t *testing.T) (*upstream, *proxy, *httptest.Server) {
	t.Helper()
	up := &upstream{}
	api := httptest.NewTLSServer(up)
	t.Cleanup(api.Close)
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.crt")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: api.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	token := filepath.Join(dir, "token")
	if err := os.WriteFile(token, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := newProxy(api.URL, ca, token)
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	return up, p, front
}

func do(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

const binding = "/api/v1/namespaces/ns/pods/p/binding"
const bindBody = `{"kind":"Binding","metadata":{"name":"p"},"target":{"kind":"Node","name":"n1"}}`

func arm(t *testing.T, front *httptest.Server, f string) {
	t.Helper()
	if code, body := do(t, "POST", front.URL+control+"arm", f); code != 200 {
		t.Fatalf("arm: %d %s", code, body)
	}
}

func TestFailAnswersTheSelectedOccurrencesAndForwardsTheRest(t *testing.T) {
	up, _, front := start(t)
	arm(t, front, `{"index":0,"op":"fail","call":"bind","error":"conflict","pod":"ns/p",`+
		`"occurrence":2,"times":2}`)
	var codes []int
	for range 4 {
		code, _ := do(t, "POST", front.URL+binding, bindBody)
		codes = append(codes, code)
	}
	if want := []int{200, 409, 409, 200}; !equal(codes, want) {
		t.Errorf("codes %v, want %v", codes, want)
	}
	got := up.requests()
	if len(got) != 2 || got[0] != "POST "+binding+" Bearer secret" {
		t.Errorf("the API server got %q; want the 1st and 4th binding, with the token", got)
	}
	_, body := do(t, "GET", front.URL+control+"firings?after=0", "")
	var fired []firing
	if err := json.Unmarshal([]byte(body), &fired); err != nil || len(fired) != 2 || fired[0].Detail != "bind" ||
		fired[0].Pod != "ns/p" || fired[0].Fault != "fail" {
		t.Errorf("firings %s (%v)", body, err)
	}
}

func TestErrorsAreTheAPIServersStatuses(t *testing.T) {
	for errName, want := range map[string]string{"conflict": `"reason":"Conflict"`,
		"internal": `"reason":"InternalError"`, "timeout": `"reason":"Timeout"`} {
		code, body := status(&fault{Error: errName}, call{resource: "pods/binding", name: "p"})
		if !strings.Contains(string(body), want) || code < 400 {
			t.Errorf("%s: %d %s", errName, code, body)
		}
	}
}

func TestEventsAreMatchedByTheirPodAndSeriesByTheirEvent(t *testing.T) {
	up, _, front := start(t)
	arm(t, front, `{"index":0,"op":"fail","call":"event","error":"conflict","pod":"ns/p","occurrence":2}`)
	events := "/apis/events.k8s.io/v1/namespaces/ns/events"
	if code, _ := do(t, "POST", front.URL+events, `{"metadata":{"name":"p.1"},"regarding":{"kind":"Pod",`+
		`"namespace":"ns","name":"p"}}`); code != 200 {
		t.Errorf("first event: %d", code)
	}
	if code, _ := do(t, "PATCH", front.URL+events+"/p.1", `{"series":{"count":2}}`); code != 409 {
		t.Errorf("its series update (the 2nd event call about ns/p): %d, want 409", code)
	}
	if n := len(up.requests()); n != 1 {
		t.Errorf("the API server got %d requests, want 1", n)
	}
}

func TestVanishDeletesBeforeTheBindingIsForwarded(t *testing.T) {
	up, _, front := start(t)
	arm(t, front, `{"index":3,"op":"vanish","pod":"ns/p","point":"prebind","object":"node"}`)
	if code, _ := do(t, "POST", front.URL+binding, bindBody); code != 200 {
		t.Fatalf("binding: %d", code)
	}
	got := up.requests()
	if len(got) != 2 || !strings.HasPrefix(got[0], "DELETE /api/v1/nodes/n1 ") ||
		!strings.HasPrefix(got[1], "POST "+binding) {
		t.Errorf("the API server got %q; want the node's delete, then the binding", got)
	}
	_, body := do(t, "GET", front.URL+control+"firings?after=0", "")
	if !strings.Contains(body, `"object":"Node/n1"`) || !strings.Contains(body, `"detail":"prebind"`) {
		t.Errorf("firings %s", body)
	}
}

func TestRestartFencesEveryCallUntilResumed(t *testing.T) {
	up, _, front := start(t)
	arm(t, front, `{"index":0,"op":"restart","pod":"ns/p","point":"bind"}`)
	arm(t, front, `{"index":1,"op":"fail","call":"bind","error":"conflict"}`)
	done := make(chan int, 2)
	go func() { code, _ := do(t, "POST", front.URL+binding, bindBody); done <- code }()
	go func() {
		time.Sleep(50 * time.Millisecond)
		code, _ := do(t, "GET", front.URL+"/api/v1/pods", "")
		done <- code
	}()
	time.Sleep(200 * time.Millisecond)
	if n := len(up.requests()); n != 0 {
		t.Fatalf("a fenced scheduler reached the API server: %q", up.requests())
	}
	do(t, "POST", front.URL+control+"resume", "")
	for range 2 {
		if code := <-done; code != http.StatusServiceUnavailable {
			t.Errorf("a held call answered %d, want 503", code)
		}
	}
	if n := len(up.requests()); n != 0 {
		t.Errorf("held calls were forwarded: %q", up.requests())
	}
	// The new scheduler's binding: the fail fault counts it as the first (the held one was never made).
	if code, _ := do(t, "POST", front.URL+binding, bindBody); code != 409 {
		t.Errorf("the new scheduler's binding: %d, want the fail fault's 409", code)
	}
}

func TestOnlyLoopbackUpstreams(t *testing.T) {
	if _, err := newProxy("https://example.com:443", "x", "y"); err == nil ||
		!strings.Contains(err.Error(), "loopback") {
		t.Errorf("err %v", err)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
