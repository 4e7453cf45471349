// Package live is the live-updates channel (issue 25): a WebSocket at
// GET /api/_live over which a client subscribes to databases and is told,
// change by change, what changed there — never the document itself, which
// it fetches through the API, so every read rule stays in one place.
//
// The protocol is the same on both runtimes:
//
//	client → {"subscribe": ["acc-…", "usr-…"]}   {"unsubscribe": ["acc-…"]}   {"ping": any}
//	server ← {"subscribed": "acc-…", "seq": 41}  {"refused": "acc-…", "reason": "…"}
//	         {"unsubscribed": "acc-…"}          {"pong": any}   {"error": "…"}
//	         {"db": "acc-…", "seq": 42, "id": "tck-…", "klass": "Ticket", "deleted": false, "rev": "2-…"}
//
// but for the keep-alive's answer: the local Hub answers {"pong"}, the
// Cloud nothing. API Gateway bills every message both ways, and a ping
// needs no answer to keep its connection open; the client reads none.
//
// Each database is decided as _changes decides it (access.Check, read).
// seq is the change's _changes seq, so after a reconnect a client catches
// up with GET /api/{db}/_changes?since=<last seq>.
//
// Locally the Hub keeps the connections in memory and hears of changes from
// the change stream (stream.Observer) right after it has written history
// and counters. On AWS, API Gateway's WebSocket API holds the connections;
// Cloud keeps them in the table and posts notices through the management
// API from the stream function.
package live

import (
	"encoding/json"
	"strings"

	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Limits of the protocol.
const (
	// maxMessage bounds a client message (a subscribe of 32 db names is ~1.3 KB).
	maxMessage = 8 << 10
)

// Reasons of refusals and errors the protocol itself gives (access refusals
// carry the access decision's reason).
const (
	MsgNotLiveDB      = "Live updates follow Group and personal databases only"
	MsgTooManyDBs     = "This connection follows as many databases as it may"
	MsgBadMessage     = `Send {"subscribe": ["<db>", …]}, {"unsubscribe": ["<db>", …]} or {"ping": …}`
	MsgSessionEnded   = "Your session has ended"
	MsgIdle           = "No subscription for 10 minutes"
	MsgTooSlow        = "Too far behind: reconnect and catch up with _changes?since="
	MsgGoingAway      = "The server is restarting: reconnect and catch up with _changes?since="
	MsgUndefinedError = "Undefined error"
)

// Notice tells a subscriber that a document changed.
type Notice struct {
	DB      string `json:"db"`
	Seq     uint64 `json:"seq"`
	ID      string `json:"id"`
	Klass   string `json:"klass"`
	Deleted bool   `json:"deleted"`
	// Rev is the revision written: the tab that wrote it knows its own
	// write by it, and refetches only what its own refetch left out.
	Rev string `json:"rev"`
}

// NoticeOf returns the notice of ch, if subscribers hear of it: changes the
// change stream tracks (Group and personal databases, not its own history
// entries and counters).
func NoticeOf(ch store.Change) (Notice, bool) {
	if !stream.Tracked(ch) || !liveDB(ch.DB) {
		return Notice{}, false
	}
	klass := ch.New.Klass
	if klass == "" && ch.Old != nil {
		klass = ch.Old.Klass
	}
	return Notice{DB: ch.DB, Seq: ch.New.Seq, ID: ch.New.ID, Klass: klass, Deleted: ch.New.Deleted, Rev: ch.New.Rev}, true
}

// notices returns the frames of a batch's changes in order, one per
// change, marshalled once however many subscribers read them.
func notices(changes []store.Change) []frame {
	var out []frame
	for _, ch := range changes {
		n, ok := NoticeOf(ch)
		if !ok {
			continue
		}
		b, _ := json.Marshal(n) // strings and numbers only: cannot fail
		out = append(out, frame{db: n.DB, id: n.ID, seq: n.Seq, body: b})
	}
	return out
}

// frame is one notice ready to send.
type frame struct {
	db, id string
	seq    uint64
	body   []byte
}

// liveDB reports whether db is one clients may follow: a Group's or a
// user's own.
func liveDB(db string) bool {
	p, ok := ids.Parse(db)
	return ok && (p == "acc" || p == "usr")
}

// clientMessage is what a client sends; exactly one member is set.
type clientMessage struct {
	Subscribe   []string        `json:"subscribe"`
	Unsubscribe []string        `json:"unsubscribe"`
	Ping        json.RawMessage `json:"ping"`
}

// parseMessage decodes a client message strictly: one known member.
func parseMessage(b []byte) (clientMessage, bool) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 1 {
		return clientMessage{}, false
	}
	var m clientMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return clientMessage{}, false
	}
	for k := range raw {
		switch k {
		case "subscribe":
			return m, m.Subscribe != nil
		case "unsubscribe":
			return m, m.Unsubscribe != nil
		case "ping":
			return m, true
		}
	}
	return clientMessage{}, false
}

// Server messages other than notices.
type (
	subscribedMsg struct {
		Subscribed string `json:"subscribed"`
		Seq        uint64 `json:"seq"`
	}
	refusedMsg struct {
		Refused string `json:"refused"`
		Reason  string `json:"reason"`
	}
	unsubscribedMsg struct {
		Unsubscribed string `json:"unsubscribed"`
	}
	pongMsg struct {
		Pong json.RawMessage `json:"pong"`
	}
	errorMsg struct {
		Error string `json:"error"`
	}
)

func encode(v any) []byte {
	b, _ := json.Marshal(v) // the message types above cannot fail
	return b
}

// truncate shortens an echoed db name in a refusal.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
