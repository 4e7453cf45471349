package live

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store"
)

// HubOptions configures NewHub; zero values take the defaults.
type HubOptions struct {
	Store store.Store
	Auth  Authenticator
	Log   *slog.Logger // nil = discard
	// PingEvery is the keep-alive (30 s): a WebSocket ping the browser
	// answers by itself; a connection that does not answer is closed.
	PingEvery time.Duration
	// IdleAfter closes a connection that has had no subscription this
	// long (10 min).
	IdleAfter time.Duration
	// RecheckEvery decides every connection's subscriptions again (5 min):
	// _security edits, signed-out sessions and expiries, which the change
	// stream does not carry.
	RecheckEvery time.Duration
	// SendBuffer is how many notices may wait for a slow client (64)
	// before it is closed and left to catch up with _changes.
	SendBuffer int
	// WriteTimeout bounds writing one frame or a ping's answer (10 s).
	WriteTimeout time.Duration
	// MaxSubscriptions bounds the databases one connection follows (32).
	MaxSubscriptions int
}

// Hub is the local server's live-updates channel: the connections of this
// process, fed by the in-process change stream. Safe for concurrent use.
type Hub struct {
	gate
	log  *slog.Logger
	opts HubOptions

	ctx    context.Context // ends when the hub closes
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.RWMutex
	conns  map[*conn]struct{}
	byDB   map[string]map[*conn]struct{}
	byUser map[string]map[*conn]struct{}
	closed bool

	// epoch moves on before every access re-decision, so a subscription
	// decided meanwhile is decided again (see conn.subscribe).
	epoch atomic.Uint64
}

// NewHub returns a hub; Close ends it.
func NewHub(o HubOptions) *Hub {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.PingEvery, 30*time.Second)
	def(&o.IdleAfter, 10*time.Minute)
	def(&o.RecheckEvery, 5*time.Minute)
	def(&o.WriteTimeout, 10*time.Second)
	if o.SendBuffer <= 0 {
		o.SendBuffer = 64
	}
	if o.MaxSubscriptions <= 0 {
		o.MaxSubscriptions = 32
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Hub{
		gate: gate{st: o.Store, auth: o.Auth}, log: o.Log, opts: o,
		ctx: ctx, cancel: cancel,
		conns: map[*conn]struct{}{}, byDB: map[string]map[*conn]struct{}{}, byUser: map[string]map[*conn]struct{}{},
	}
}

// Stats is what the hub holds.
type Stats struct {
	Connections   int
	Subscriptions int
}

// Stats counts the open connections and their subscriptions.
func (h *Hub) Stats() Stats {
	h.mu.RLock()
	defer h.mu.RUnlock()
	s := Stats{Connections: len(h.conns)}
	for _, cs := range h.byDB {
		s.Subscriptions += len(cs)
	}
	return s
}

// closeGrace is how long Close lets clients answer the close frame.
const closeGrace = 5 * time.Second

// Close closes every connection (going away: clients reconnect and catch
// up) and waits for them, at most closeGrace before cutting them.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	for c := range h.conns {
		c.end(websocket.StatusGoingAway, MsgGoingAway)
	}
	h.mu.Unlock()
	done := make(chan struct{})
	go func() { h.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeGrace):
	}
	h.cancel()
	<-done
}

// Serve upgrades GET /api/_live (the core authenticated the handshake,
// checked its origin and XSRF token) and serves the connection until it
// ends.
func (h *Hub) Serve(w http.ResponseWriter, r *http.Request) error {
	p := access.PrincipalFrom(r.Context())
	cred, ok := credentialOf(p)
	if !ok {
		return fault.New(fault.Unauthorized, "You are not logged in.")
	}
	if !headerHas(r.Header, "Connection", "upgrade") || !headerHas(r.Header, "Upgrade", "websocket") {
		return fault.New(fault.BadRequest, "GET /api/_live opens a WebSocket: send Connection: Upgrade and Upgrade: websocket")
	}
	c := &conn{hub: h, cred: cred, user: p.UserID, dbs: map[string]bool{}, zeroSince: time.Now(),
		out: make(chan []byte, h.opts.SendBuffer), kill: make(chan closing, 1), done: make(chan struct{})}
	if !h.add(c) {
		return fault.New(fault.Internal, "the live-updates hub is closed")
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		InsecureSkipVerify: true, // the core checked the origin (httpapi.checkOrigin), with the site's own rule
		CompressionMode:    websocket.CompressionDisabled,
	})
	if err != nil {
		// Accept has answered the client already.
		h.remove(c)
		h.wg.Add(-2)
		h.log.DebugContext(r.Context(), "live: handshake failed", "err", err)
		return nil
	}
	ws.SetReadLimit(maxMessage)
	c.ws = ws
	go func() {
		defer h.wg.Done()
		c.writeLoop()
	}()
	// A fresh goroutine reads, so the server's, its stack grown by the
	// handshake's request, ends here: ~20 KiB less per idle connection.
	go func() {
		defer h.wg.Done()
		c.readLoop(h.ctx)
	}()
	return nil
}

// headerHas reports whether header name lists token (case-insensitive).
func headerHas(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

func (h *Hub) add(c *conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.conns[c] = struct{}{}
	addTo(h.byUser, c.user, c)
	h.wg.Add(2) // its reader and writer, under the lock so Close waits for them
	return true
}

func (h *Hub) remove(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.conns, c)
	removeFrom(h.byUser, c.user, c)
	for db := range c.dbs {
		removeFrom(h.byDB, db, c)
	}
	clear(c.dbs)
}

func addTo(m map[string]map[*conn]struct{}, key string, c *conn) {
	set := m[key]
	if set == nil {
		set = map[*conn]struct{}{}
		m[key] = set
	}
	set[c] = struct{}{}
}

func removeFrom(m map[string]map[*conn]struct{}, key string, c *conn) {
	if set := m[key]; set != nil {
		delete(set, c)
		if len(set) == 0 {
			delete(m, key)
		}
	}
}

// Applied is the change stream's hook (stream.Observer): first the
// connections whose access the batch may have changed are decided again,
// then every subscriber of each change's database gets its notice.
func (h *Hub) Applied(ctx context.Context, changes []store.Change) {
	users, dbs := accessChanges(changes)
	if len(users)+len(dbs) > 0 {
		h.epoch.Add(1)
		h.mu.RLock()
		affected := map[*conn]struct{}{}
		for u := range users {
			for c := range h.byUser[u] {
				affected[c] = struct{}{}
			}
		}
		for db := range dbs {
			for c := range h.byDB[db] {
				affected[c] = struct{}{}
			}
		}
		h.mu.RUnlock()
		for c := range affected {
			c.recheck(ctx)
		}
	}
	frames := notices(changes)
	if len(frames) == 0 {
		return
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, f := range frames {
		for c := range h.byDB[f.db] {
			c.send(f.body)
		}
	}
}
