package httpapi

import (
	"encoding/json"
	"math"
)

// Page caps. CouchDB answers _changes and _all_docs without a server limit;
// behind Lambda an answer cannot exceed 6 MB, and a big tenant's whole feed
// would. So one answer holds at most Config.PageMaxRows rows, and stops
// early once its rows pass Config.PageMaxBytes of JSON (always at least one
// row). Clients continue the CouchDB way:
//
//   - _changes: last_seq is the seq of the last row returned and pending
//     is above 0 while rows remain; the client asks again with
//     since=last_seq (what CouchDB clients do with limit).
//   - _all_docs: a page the server cut has "truncated": true; the client
//     asks again with startkey = the last row's key and skip=1 (CouchDB's
//     documented paging). An explicit limit up to the cap is honoured as is.

// pageRows is how many rows to read for a request that asked for limit
// (0 = no limit): the cap, or the limit when it is smaller.
func (s *Server) pageRows(limit int) int {
	if limit > 0 && limit < s.cfg.PageMaxRows {
		return limit
	}
	return s.cfg.PageMaxRows
}

// page collects the encoded rows of one answer within the byte cap.
type page struct {
	maxBytes int
	bytes    int
	rows     []json.RawMessage
	cut      bool // a row did not fit
}

func (s *Server) newPage() *page {
	max := s.cfg.PageMaxBytes
	if max <= 0 {
		max = math.MaxInt
	}
	return &page{maxBytes: max, rows: []json.RawMessage{}}
}

// add appends row unless it would take the page past its byte cap (the
// first row always fits); false means the page is full.
func (p *page) add(row any) (bool, error) {
	raw, err := json.Marshal(row)
	if err != nil {
		return false, err
	}
	if len(p.rows) > 0 && p.bytes+len(raw) > p.maxBytes {
		p.cut = true
		return false, nil
	}
	p.bytes += len(raw) + 1
	p.rows = append(p.rows, raw)
	return true, nil
}
