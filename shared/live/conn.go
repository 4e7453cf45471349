package live

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// conn is one local connection. Its reader (the handler's goroutine)
// answers the client's messages; its writer sends what is queued on out,
// pings, re-decides access and closes. Subscriptions (dbs, zeroSince) are
// guarded by the hub's mutex, as the hub's indexes are.
type conn struct {
	hub  *Hub
	ws   *websocket.Conn
	cred Credential
	user string

	dbs       map[string]bool
	zeroSince time.Time // when the connection last had no subscription

	out  chan []byte  // frames to send, in order
	kill chan closing // the first reason to close wins
	done chan struct{}
	once sync.Once
}

type closing struct {
	code   websocket.StatusCode
	reason string
}

// send queues a frame without blocking the stream: a client too far behind
// is closed and catches up with _changes when it reconnects.
func (c *conn) send(b []byte) {
	select {
	case c.out <- b:
	case <-c.done:
	default:
		c.end(websocket.StatusTryAgainLater, MsgTooSlow)
	}
}

// end asks the writer to close the connection (non-blocking).
func (c *conn) end(code websocket.StatusCode, reason string) {
	select {
	case c.kill <- closing{code, reason}:
	default:
	}
}

// readLoop answers the client's messages until the connection ends.
func (c *conn) readLoop(ctx context.Context) {
	defer func() {
		c.once.Do(func() { close(c.done) })
		c.hub.remove(c)
		c.ws.CloseNow() // a read error leaves the socket open
	}()
	for {
		typ, b, err := c.ws.Read(ctx)
		if err != nil {
			if ctx.Err() == nil && websocket.CloseStatus(err) == -1 && !errors.Is(err, context.Canceled) {
				c.hub.log.Debug("live: connection ended", "user", c.user, "err", err)
			}
			return
		}
		if typ != websocket.MessageText {
			c.send(encode(errorMsg{MsgBadMessage}))
			continue
		}
		m, ok := parseMessage(b)
		switch {
		case !ok:
			c.send(encode(errorMsg{MsgBadMessage}))
		case m.Subscribe != nil:
			c.subscribe(ctx, m.Subscribe)
		case m.Unsubscribe != nil:
			c.unsubscribe(m.Unsubscribe)
		default:
			c.send(encode(pongMsg{m.Ping}))
		}
	}
}

// subscribe decides each db with the principal as it stands now (roles
// may have grown since the connection opened) and follows those allowed.
func (c *conn) subscribe(ctx context.Context, dbs []string) {
	h := c.hub
	for _, db := range dbs {
		for {
			epoch := h.epoch.Load()
			p, err := h.principal(ctx, c.cred)
			if err != nil {
				h.log.Error("live: resolving a connection's principal failed", "user", c.user, "err", err)
				c.send(encode(refusedMsg{truncate(db, 80), MsgUndefinedError}))
				break
			}
			if p == nil {
				c.end(websocket.StatusPolicyViolation, MsgSessionEnded)
				return
			}
			seq, refusal, err := h.decide(ctx, p, db)
			if err != nil {
				h.log.Error("live: deciding a subscription failed", "db", db, "err", err)
				refusal = MsgUndefinedError
			}
			h.mu.Lock()
			if h.epoch.Load() != epoch {
				// Access was re-decided meanwhile: decide again with it.
				h.mu.Unlock()
				continue
			}
			if refusal == "" && !c.dbs[db] && len(c.dbs) >= h.opts.MaxSubscriptions {
				refusal = MsgTooManyDBs
			}
			if refusal == "" {
				c.dbs[db] = true
				addTo(h.byDB, db, c)
			}
			// Queued under the lock, so no notice of db overtakes its answer.
			if refusal != "" {
				c.send(encode(refusedMsg{truncate(db, 80), refusal}))
			} else {
				c.send(encode(subscribedMsg{db, seq}))
			}
			h.mu.Unlock()
			break
		}
	}
}

func (c *conn) unsubscribe(dbs []string) {
	h := c.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, db := range dbs {
		if c.dbs[db] {
			delete(c.dbs, db)
			removeFrom(h.byDB, db, c)
			if len(c.dbs) == 0 {
				c.zeroSince = time.Now()
			}
		}
		c.send(encode(unsubscribedMsg{truncate(db, 80)}))
	}
}

// recheck decides the connection's subscriptions again; those refused now
// are dropped with their refusal, and an ended session ends the connection.
func (c *conn) recheck(ctx context.Context) {
	h := c.hub
	p, err := h.principal(ctx, c.cred)
	if err != nil {
		h.log.Error("live: re-deciding a connection failed", "user", c.user, "err", err)
		return // the next recheck tries again; the API refuses reads meanwhile
	}
	if p == nil {
		c.drop(nil, "")
		c.end(websocket.StatusPolicyViolation, MsgSessionEnded)
		return
	}
	h.mu.RLock()
	dbs := make([]string, 0, len(c.dbs))
	for db := range c.dbs {
		dbs = append(dbs, db)
	}
	h.mu.RUnlock()
	slices.Sort(dbs)
	for _, db := range dbs {
		refusal, err := h.allowed(ctx, p, db)
		if err != nil {
			h.log.Error("live: re-deciding a subscription failed", "db", db, "err", err)
			continue
		}
		if refusal != "" {
			c.drop([]string{db}, refusal)
		}
	}
}

// drop ends the subscriptions to dbs (nil: all), telling the client why
// when there is a reason.
func (c *conn) drop(dbs []string, reason string) {
	h := c.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if dbs == nil {
		for db := range c.dbs {
			dbs = append(dbs, db)
		}
	}
	for _, db := range dbs {
		if !c.dbs[db] {
			continue
		}
		delete(c.dbs, db)
		removeFrom(h.byDB, db, c)
		if reason != "" {
			c.send(encode(refusedMsg{db, reason}))
		}
	}
	if len(c.dbs) == 0 {
		c.zeroSince = time.Now()
	}
}

// writeLoop sends queued frames, pings, re-decides access now and then,
// closes idle connections, and closes the connection when asked to.
func (c *conn) writeLoop() {
	h := c.hub
	ping := time.NewTicker(h.opts.PingEvery)
	defer ping.Stop()
	recheck := time.NewTicker(h.opts.RecheckEvery)
	defer recheck.Stop()
	idle := time.NewTimer(h.opts.IdleAfter)
	defer idle.Stop()
	for {
		select {
		case b := <-c.out:
			ctx, cancel := context.WithTimeout(h.ctx, h.opts.WriteTimeout)
			err := c.ws.Write(ctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				c.ws.CloseNow()
				return
			}
		case <-ping.C:
			ctx, cancel := context.WithTimeout(h.ctx, h.opts.WriteTimeout)
			err := c.ws.Ping(ctx)
			cancel()
			if err != nil {
				c.ws.CloseNow()
				return
			}
		case <-recheck.C:
			c.recheck(h.ctx)
		case <-idle.C:
			h.mu.RLock()
			left := h.opts.IdleAfter - time.Since(c.zeroSince)
			if len(c.dbs) > 0 {
				left = h.opts.IdleAfter
			}
			h.mu.RUnlock()
			if left <= 0 {
				c.close(closing{websocket.StatusPolicyViolation, MsgIdle})
				return
			}
			idle.Reset(left)
		case k := <-c.kill:
			c.close(k)
			return
		case <-c.done:
			return
		}
	}
}

// close sends what is queued (a refusal before the close that follows it),
// unless the client is too slow for that, then the close frame.
func (c *conn) close(k closing) {
	h := c.hub
	ctx, cancel := context.WithTimeout(context.WithoutCancel(h.ctx), h.opts.WriteTimeout)
	defer cancel()
	for k.code != websocket.StatusTryAgainLater {
		select {
		case b := <-c.out:
			if c.ws.Write(ctx, websocket.MessageText, b) != nil {
				c.ws.CloseNow()
				return
			}
			continue
		default:
		}
		break
	}
	_ = c.ws.Close(k.code, k.reason)
}
