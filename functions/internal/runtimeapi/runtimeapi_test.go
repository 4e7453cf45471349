package runtimeapi

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runtime is a minimal runtime client, the part of aws-lambda-go's loop the
// tests need.
type runtime struct {
	t    *testing.T
	base string
}

func newRuntime(t *testing.T, e *Emulator) *runtime {
	return &runtime{t: t, base: "http://" + e.Addr() + "/" + APIVersion + "/runtime/"}
}

func (rt *runtime) next() (*http.Response, []byte) {
	rt.t.Helper()
	res, err := http.Get(rt.base + "invocation/next")
	if err != nil {
		rt.t.Error(err)
		return nil, nil
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

func (rt *runtime) post(path, body string, header http.Header) (int, string) {
	rt.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, rt.base+path, strings.NewReader(body))
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		rt.t.Error(err)
		return 0, ""
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func invokeAsync(e *Emulator, payload string) <-chan *Result {
	out := make(chan *Result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := e.Invoke(ctx, []byte(payload))
		if err != nil {
			res = &Result{Err: &ErrorReport{Type: "test", Message: err.Error()}}
		}
		out <- res
	}()
	return out
}

func TestNextResponse(t *testing.T) {
	e := New(Options{FunctionARN: "arn:aws:lambda:sa-east-1:1:function:api", Timeout: time.Minute})
	defer e.Close()
	rt := newRuntime(t, e)

	got := make(chan []byte, 1)
	var hdr http.Header
	go func() {
		res, body := rt.next()
		if res != nil {
			hdr = res.Header
			if res.StatusCode != 200 {
				t.Errorf("next: %d %s", res.StatusCode, body)
			}
		}
		got <- body
	}()
	<-e.Ready()
	// The runtime is waiting: next blocks until there is an event.
	select {
	case b := <-got:
		t.Fatalf("next returned %q with nothing queued", b)
	case <-time.After(50 * time.Millisecond):
	}
	if e.ReadyAt().IsZero() {
		t.Error("ReadyAt is zero after Ready")
	}

	result := invokeAsync(e, `{"hello":"world"}`)
	if b := <-got; string(b) != `{"hello":"world"}` {
		t.Fatalf("next body %q", b)
	}
	id := hdr.Get("Lambda-Runtime-Aws-Request-Id")
	if len(id) != 36 {
		t.Errorf("request id %q", id)
	}
	if hdr.Get("Lambda-Runtime-Invoked-Function-Arn") != "arn:aws:lambda:sa-east-1:1:function:api" {
		t.Errorf("function ARN %q", hdr.Get("Lambda-Runtime-Invoked-Function-Arn"))
	}
	ms, err := strconv.ParseInt(hdr.Get("Lambda-Runtime-Deadline-Ms"), 10, 64)
	if err != nil || time.UnixMilli(ms).Before(time.Now().Add(50*time.Second)) {
		t.Errorf("deadline %q, want about a minute ahead", hdr.Get("Lambda-Runtime-Deadline-Ms"))
	}
	if !strings.HasPrefix(hdr.Get("Lambda-Runtime-Trace-Id"), "Root=1-") {
		t.Errorf("trace id %q", hdr.Get("Lambda-Runtime-Trace-Id"))
	}

	status, _ := rt.post("invocation/"+id+"/response", `{"ok":true}`, http.Header{"Content-Type": {"application/json"}})
	if status != http.StatusAccepted {
		t.Fatalf("response: %d", status)
	}
	res := <-result
	if res.Err != nil || string(res.Payload) != `{"ok":true}` || res.ContentType != "application/json" || res.RequestID != id {
		t.Fatalf("result %+v", res)
	}
	if res.Delivered.Before(res.Queued) || res.Completed.Before(res.Delivered) || res.Latency() < 0 {
		t.Errorf("times out of order: %+v", res)
	}

	// The invocation is over: a second response for it is refused.
	status, body := rt.post("invocation/"+id+"/response", `{}`, nil)
	if status != http.StatusBadRequest || !strings.Contains(body, "InvalidRequestID") {
		t.Errorf("second response: %d %s", status, body)
	}
}

func TestInvocationError(t *testing.T) {
	e := New(Options{})
	defer e.Close()
	rt := newRuntime(t, e)
	result := invokeAsync(e, `"event"`)
	res, _ := rt.next()
	id := res.Header.Get("Lambda-Runtime-Aws-Request-Id")
	status, _ := rt.post("invocation/"+id+"/error",
		`{"errorMessage":"json: cannot unmarshal string","errorType":"UnmarshalTypeError"}`,
		http.Header{"Lambda-Runtime-Function-Error-Type": {"Runtime.UnmarshalError"}})
	if status != http.StatusAccepted {
		t.Fatalf("error: %d", status)
	}
	r := <-result
	if r.Err == nil || r.Err.Type != "UnmarshalTypeError" || r.Err.HeaderType != "Runtime.UnmarshalError" ||
		r.Err.Message != "json: cannot unmarshal string" || r.Payload != nil {
		t.Fatalf("result %+v, err %+v", r, r.Err)
	}
}

func TestInitError(t *testing.T) {
	e := New(Options{})
	defer e.Close()
	rt := newRuntime(t, e)
	status, _ := rt.post("init/error", `{"errorMessage":"no table","errorType":"ConfigError"}`,
		http.Header{"Lambda-Runtime-Function-Error-Type": {"Runtime.ConfigError"}})
	if status != http.StatusAccepted {
		t.Fatalf("init/error: %d", status)
	}
	select {
	case <-e.InitFailed():
	default:
		t.Fatal("InitFailed not closed")
	}
	if rep := e.InitError(); rep == nil || rep.Error() != "ConfigError: no table" {
		t.Fatalf("InitError %v", rep)
	}
	// The environment is done for: no more events, no second report.
	if res, body := rt.next(); res.StatusCode != http.StatusForbidden {
		t.Errorf("next after init error: %d %s", res.StatusCode, body)
	}
	if status, _ := rt.post("init/error", `{}`, nil); status != http.StatusForbidden {
		t.Errorf("second init error: %d", status)
	}
}

func TestInitErrorAfterInit(t *testing.T) {
	e := New(Options{})
	defer e.Close()
	rt := newRuntime(t, e)
	result := invokeAsync(e, `{}`)
	res, _ := rt.next()
	if status, body := rt.post("init/error", `{"errorMessage":"late"}`, nil); status != http.StatusForbidden {
		t.Errorf("init error after next: %d %s", status, body)
	}
	rt.post("invocation/"+res.Header.Get("Lambda-Runtime-Aws-Request-Id")+"/response", `{}`, nil)
	<-result
	if e.InitError() != nil || len(e.ProtocolErrors()) != 1 {
		t.Errorf("init error %v, protocol errors %v", e.InitError(), e.ProtocolErrors())
	}
}

func TestProtocolFaults(t *testing.T) {
	e := New(Options{})
	defer e.Close()
	rt := newRuntime(t, e)

	if status, body := rt.post("invocation/nope/response", `{}`, nil); status != http.StatusBadRequest || !strings.Contains(body, "InvalidRequestID") {
		t.Errorf("unknown id: %d %s", status, body)
	}
	if _, err := e.Invoke(context.Background(), []byte(`{not json`)); err == nil {
		t.Error("Invoke accepted a payload that is not JSON")
	}

	// Too large a response fails the invocation with 413.
	result := invokeAsync(e, `{}`)
	res, _ := rt.next()
	id := res.Header.Get("Lambda-Runtime-Aws-Request-Id")
	big := `"` + strings.Repeat("x", MaxResponseBytes) + `"`
	if status, body := rt.post("invocation/"+id+"/response", big, nil); status != http.StatusRequestEntityTooLarge {
		t.Errorf("6 MB response: %d %s", status, body)
	}
	if r := <-result; r.Err == nil || r.Err.Type != "Function.ResponseSizeTooLarge" {
		t.Errorf("result %+v", r)
	}

	// Asking for the next event ends the unanswered one.
	result = invokeAsync(e, `{"n":1}`)
	rt.next()
	nextDone := make(chan struct{})
	go func() { defer close(nextDone); rt.next() }()
	if r := <-result; r.Err == nil || r.Err.Type != "Runtime.NoResponse" {
		t.Errorf("result %+v", r)
	}

	// Close answers the waiting next with 500.
	e.Close()
	<-nextDone
}

func TestCloseUnblocksNext(t *testing.T) {
	e := New(Options{})
	rt := newRuntime(t, e)
	status := make(chan int, 1)
	go func() {
		res, _ := rt.next()
		if res == nil {
			status <- 0
			return
		}
		status <- res.StatusCode
	}()
	<-e.Ready()
	e.Close()
	if s := <-status; s != http.StatusInternalServerError {
		t.Errorf("next on close: %d", s)
	}
	if _, err := e.Invoke(context.Background(), []byte(`{}`)); err == nil {
		t.Error("Invoke after Close succeeded")
	}
}

func TestErrorReportFallsBackToBody(t *testing.T) {
	rep := &ErrorReport{HeaderType: "Runtime.Crash", Body: []byte("segfault")}
	if got := rep.Error(); got != "Runtime.Crash: segfault" {
		t.Errorf("Error() = %q", got)
	}
}
