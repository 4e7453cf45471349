// Package runtimeapi emulates the AWS Lambda Runtime API (version
// 2018-06-01) for tests and benchmarks that run a built function binary as
// Lambda would: point the process's AWS_LAMBDA_RUNTIME_API at Addr, wait for
// Ready, then Invoke events one at a time.
//
// It implements what a runtime calls during the lifecycle of one execution
// environment with one invocation at a time (AWS_LAMBDA_MAX_CONCURRENCY 1):
//
//	GET  /2018-06-01/runtime/invocation/next          blocks until an event is queued
//	POST /2018-06-01/runtime/invocation/{id}/response the result of an invocation
//	POST /2018-06-01/runtime/invocation/{id}/error    a failed invocation
//	POST /2018-06-01/runtime/init/error               a failed initialisation
//
// with the status codes and error bodies of the real service (202 on
// accepted reports; 400 InvalidRequestID, 403 InvalidStateTransition and 413
// RequestEntityTooLarge otherwise). It records when the runtime first asked
// for work, which is when Lambda considers initialisation done.
package runtimeapi

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"
)

const (
	// APIVersion is the path prefix of every endpoint.
	APIVersion = "2018-06-01"

	// MaxResponseBytes is Lambda's limit on a synchronous invocation's
	// response payload (6 MB).
	MaxResponseBytes = 6 * 1024 * 1024

	headerRequestID   = "Lambda-Runtime-Aws-Request-Id"
	headerDeadline    = "Lambda-Runtime-Deadline-Ms"
	headerFunctionARN = "Lambda-Runtime-Invoked-Function-Arn"
	headerTraceID     = "Lambda-Runtime-Trace-Id"
	headerErrorType   = "Lambda-Runtime-Function-Error-Type"
	trailerErrorBody  = "Lambda-Runtime-Function-Error-Body"
)

// Options configure an Emulator; zero values get Lambda-like defaults.
type Options struct {
	// FunctionARN is sent as Lambda-Runtime-Invoked-Function-Arn.
	FunctionARN string
	// Timeout sets Lambda-Runtime-Deadline-Ms relative to delivery; 25s
	// (the API function's timeout) when zero.
	Timeout time.Duration
}

// ErrorReport is what a runtime posted to an /error endpoint: the
// Lambda-Runtime-Function-Error-Type header (or trailer) and the JSON body
// {"errorMessage", "errorType", "stackTrace"}.
type ErrorReport struct {
	HeaderType string          // Lambda-Runtime-Function-Error-Type, if sent
	Type       string          `json:"errorType"`
	Message    string          `json:"errorMessage"`
	StackTrace json.RawMessage `json:"stackTrace,omitempty"`
	Body       []byte          `json:"-"` // the raw body
}

func (e *ErrorReport) Error() string {
	typ := e.Type
	if typ == "" {
		typ = e.HeaderType
	}
	if e.Message == "" && e.Type == "" {
		return fmt.Sprintf("%s: %s", typ, e.Body)
	}
	return fmt.Sprintf("%s: %s", typ, e.Message)
}

// Result is the outcome of one invocation.
type Result struct {
	RequestID   string
	Queued      time.Time // Invoke was called
	Delivered   time.Time // the event went out in a next response
	Completed   time.Time // the runtime's response or error had fully arrived
	Payload     []byte    // the response, unless Err is set
	ContentType string
	Err         *ErrorReport // the invocation failed (posted to /error, or a protocol fault)
}

// Latency is the time the runtime took from receiving the event to
// delivering its outcome.
func (r *Result) Latency() time.Duration { return r.Completed.Sub(r.Delivered) }

// Emulator is one execution environment's Runtime API. Its zero value is
// not usable; call New.
type Emulator struct {
	opts   Options
	srv    *httptest.Server
	queue  chan *invocation
	closed chan struct{}

	mu          sync.Mutex
	ready       chan struct{} // closed by the first next
	readyAt     time.Time
	initFailed  chan struct{} // closed by an init error
	initErr     *ErrorReport
	polling     bool                   // a next request is outstanding
	inflight    map[string]*invocation // delivered, no outcome yet
	nextCount   int
	closeOnce   sync.Once
	protocolErr []error // runtime misbehaviour that has no invocation to fail
}

type invocation struct {
	id      string
	payload []byte
	res     Result
	done    chan struct{}
	once    sync.Once
}

func (inv *invocation) finish(res func(*Result)) bool {
	ok := false
	inv.once.Do(func() {
		res(&inv.res)
		if inv.res.Completed.IsZero() {
			inv.res.Completed = time.Now()
		}
		close(inv.done)
		ok = true
	})
	return ok
}

// New starts an emulator on a loopback port.
func New(o Options) *Emulator {
	if o.Timeout <= 0 {
		o.Timeout = 25 * time.Second
	}
	if o.FunctionARN == "" {
		o.FunctionARN = "arn:aws:lambda:us-east-1:123456789012:function:emulated"
	}
	e := &Emulator{
		opts:       o,
		queue:      make(chan *invocation, 64),
		closed:     make(chan struct{}),
		ready:      make(chan struct{}),
		initFailed: make(chan struct{}),
		inflight:   map[string]*invocation{},
	}
	mux := http.NewServeMux()
	prefix := "/" + APIVersion + "/runtime"
	mux.HandleFunc("GET "+prefix+"/invocation/next", e.next)
	mux.HandleFunc("POST "+prefix+"/invocation/{id}/response", e.response)
	mux.HandleFunc("POST "+prefix+"/invocation/{id}/error", e.invokeError)
	mux.HandleFunc("POST "+prefix+"/init/error", e.initError)
	e.srv = httptest.NewServer(mux)
	return e
}

// Addr is the value for AWS_LAMBDA_RUNTIME_API (host:port, no scheme).
func (e *Emulator) Addr() string { return e.srv.Listener.Addr().String() }

// Ready is closed when the runtime first asks for an invocation: the end of
// initialisation.
func (e *Emulator) Ready() <-chan struct{} { return e.ready }

// ReadyAt is when the first next request arrived (zero before Ready).
func (e *Emulator) ReadyAt() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.readyAt
}

// InitFailed is closed when the runtime reports an initialisation error.
func (e *Emulator) InitFailed() <-chan struct{} { return e.initFailed }

// InitError is the reported initialisation error, or nil.
func (e *Emulator) InitError() *ErrorReport {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.initErr
}

// ProtocolErrors lists runtime calls that broke the protocol without
// failing a particular invocation (e.g. a second concurrent next).
func (e *Emulator) ProtocolErrors() []error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]error(nil), e.protocolErr...)
}

// Close unblocks waiting next requests (they get 500, as from a dying
// environment) and stops the server.
func (e *Emulator) Close() {
	e.closeOnce.Do(func() {
		close(e.closed)
		e.srv.Close()
	})
}

// Invoke queues a JSON event and waits for its outcome. The error is
// non-nil only when there is no outcome: ctx ended, the emulator closed, or
// the payload is not JSON (Lambda's Invoke API rejects those too). A failed
// invocation is a Result with Err set.
func (e *Emulator) Invoke(ctx context.Context, payload []byte) (*Result, error) {
	if !json.Valid(payload) {
		return nil, errors.New("runtimeapi: the event is not valid JSON")
	}
	inv := &invocation{id: newRequestID(), payload: payload, done: make(chan struct{})}
	inv.res.RequestID = inv.id
	inv.res.Queued = time.Now()
	select {
	case e.queue <- inv:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-e.closed:
		return nil, errors.New("runtimeapi: emulator closed")
	}
	select {
	case <-inv.done:
		res := inv.res
		return &res, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("runtimeapi: invocation %s: %w", inv.id, ctx.Err())
	case <-e.closed:
		return nil, fmt.Errorf("runtimeapi: invocation %s: emulator closed", inv.id)
	}
}

func (e *Emulator) next(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	e.mu.Lock()
	if e.initErr != nil {
		e.mu.Unlock()
		writeError(w, http.StatusForbidden, "InvalidStateTransition", "next after an init error")
		return
	}
	if e.polling {
		e.protocolErr = append(e.protocolErr, errors.New("concurrent next requests"))
		e.mu.Unlock()
		writeError(w, http.StatusForbidden, "InvalidStateTransition", "a next request is already waiting")
		return
	}
	e.nextCount++
	if e.nextCount == 1 {
		e.readyAt = now
		close(e.ready)
	}
	// Asking for the next event without reporting the current one ends it.
	for id, inv := range e.inflight {
		delete(e.inflight, id)
		inv.finish(func(res *Result) {
			res.Err = &ErrorReport{Type: "Runtime.NoResponse", Message: "the runtime asked for the next event without reporting this one"}
		})
	}
	e.polling = true
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.polling = false
		e.mu.Unlock()
	}()

	var inv *invocation
	select {
	case inv = <-e.queue:
	case <-r.Context().Done():
		return
	case <-e.closed:
		writeError(w, http.StatusInternalServerError, "ServiceException", "execution environment shutting down")
		return
	}
	deadline := time.Now().Add(e.opts.Timeout)
	e.mu.Lock()
	inv.res.Delivered = time.Now()
	e.inflight[inv.id] = inv
	e.mu.Unlock()
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set(headerRequestID, inv.id)
	h.Set(headerDeadline, strconv.FormatInt(deadline.UnixMilli(), 10))
	h.Set(headerFunctionARN, e.opts.FunctionARN)
	h.Set(headerTraceID, newTraceID())
	h.Set("Content-Length", strconv.Itoa(len(inv.payload)))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(inv.payload); err != nil {
		e.mu.Lock()
		delete(e.inflight, inv.id)
		e.mu.Unlock()
		inv.finish(func(res *Result) {
			res.Err = &ErrorReport{Type: "Emulator.DeliveryFailed", Message: err.Error()}
		})
	}
}

// take removes the in-flight invocation named in the path, or answers 400.
func (e *Emulator) take(w http.ResponseWriter, r *http.Request) *invocation {
	id := r.PathValue("id")
	e.mu.Lock()
	inv := e.inflight[id]
	delete(e.inflight, id)
	e.mu.Unlock()
	if inv == nil {
		writeError(w, http.StatusBadRequest, "InvalidRequestID", fmt.Sprintf("no invocation %q in flight", id))
	}
	return inv
}

func (e *Emulator) response(w http.ResponseWriter, r *http.Request) {
	inv := e.take(w, r)
	if inv == nil {
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxResponseBytes+1))
	switch {
	case err != nil:
		inv.finish(func(res *Result) {
			res.Err = &ErrorReport{Type: "Runtime.ResponseReadFailed", Message: err.Error()}
		})
		writeError(w, http.StatusBadRequest, "InvalidRequest", err.Error())
		return
	case len(body) > MaxResponseBytes:
		inv.finish(func(res *Result) {
			res.Err = &ErrorReport{Type: "Function.ResponseSizeTooLarge", Message: "response payload exceeds 6 MB"}
		})
		writeError(w, http.StatusRequestEntityTooLarge, "RequestEntityTooLarge", "response payload exceeds 6 MB")
		return
	}
	// aws-lambda-go streams the response and reports a failure while
	// producing it in trailers.
	if typ := r.Trailer.Get(headerErrorType); typ != "" {
		rep := &ErrorReport{HeaderType: typ, Type: typ, Body: []byte(r.Trailer.Get(trailerErrorBody))}
		inv.finish(func(res *Result) { res.Err = rep })
		accepted(w)
		return
	}
	inv.finish(func(res *Result) {
		res.Payload = body
		res.ContentType = r.Header.Get("Content-Type")
	})
	accepted(w)
}

func (e *Emulator) invokeError(w http.ResponseWriter, r *http.Request) {
	inv := e.take(w, r)
	if inv == nil {
		return
	}
	rep, err := readErrorReport(r)
	if err != nil {
		rep = &ErrorReport{Type: "Runtime.InvalidErrorReport", Message: err.Error()}
	}
	inv.finish(func(res *Result) { res.Err = rep })
	accepted(w)
}

func (e *Emulator) initError(w http.ResponseWriter, r *http.Request) {
	rep, err := readErrorReport(r)
	if err != nil {
		rep = &ErrorReport{Type: "Runtime.InvalidErrorReport", Message: err.Error()}
	}
	e.mu.Lock()
	if e.nextCount > 0 || e.initErr != nil {
		e.protocolErr = append(e.protocolErr, fmt.Errorf("init error after initialisation: %v", rep))
		e.mu.Unlock()
		writeError(w, http.StatusForbidden, "InvalidStateTransition", "initialisation is over")
		return
	}
	e.initErr = rep
	close(e.initFailed)
	e.mu.Unlock()
	accepted(w)
}

// readErrorReport reads an /error body. The body is free-form in the API
// (the JSON shape is a convention every AWS runtime follows), so anything
// that is not that JSON is kept as Body.
func readErrorReport(r *http.Request) (*ErrorReport, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxResponseBytes))
	if err != nil {
		return nil, err
	}
	rep := &ErrorReport{}
	if json.Unmarshal(body, rep) != nil {
		rep = &ErrorReport{}
	}
	rep.Body = body
	rep.HeaderType = r.Header.Get(headerErrorType)
	if rep.Type == "" {
		rep.Type = rep.HeaderType
	}
	return rep, nil
}

func accepted(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusAccepted)
	io.WriteString(w, `{"status":"OK"}`)
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"errorType": typ, "errorMessage": msg})
}

// newTraceID returns an X-Ray trace header, not sampled.
func newTraceID() string {
	var b [20]byte
	rand.Read(b[:])
	return fmt.Sprintf("Root=1-%08x-%x;Parent=%x;Sampled=0", time.Now().Unix(), b[:12], b[12:])
}

// newRequestID returns a version 4 UUID, the shape of Lambda request ids.
func newRequestID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
