// Command bare is the ceiling of BenchmarkPeers: a net/http server that
// keeps documents in a map, answering PUT /{db}/{id} with 201 and GET with
// the body stored, as a CouchDB-shaped server does, but with no store, no
// sign-in check, no rules and no log. What it serves a second on a machine
// is as far as any handler behind Go's net/http can go there, with the same
// load generator.
//
//	bare --addr 127.0.0.1:5984
package main

import (
	"crypto/md5"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"sync"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:5984", "listen address")
	flag.Parse()
	var docs sync.Map // path → stored document
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			if r.URL.Path == "/" {
				fmt.Fprint(w, `{"couchdb":"Welcome"}`)
				return
			}
			v, ok := docs.Load(r.URL.Path)
			if !ok {
				http.Error(w, `{"error":"not_found"}`, http.StatusNotFound)
				return
			}
			d := v.(stored)
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("ETag", `"`+d.rev+`"`)
			w.Write(d.body)
		case http.MethodPut:
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
			if err != nil {
				http.Error(w, `{"error":"bad_request"}`, http.StatusBadRequest)
				return
			}
			sum := md5.Sum(body)
			rev := "1-" + hex.EncodeToString(sum[:])
			docs.Store(r.URL.Path, stored{body, rev})
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			fmt.Fprintf(w, `{"ok":true,"id":%q,"rev":%q}`, r.URL.Path, rev)
		default:
			http.Error(w, `{"error":"method_not_allowed"}`, http.StatusMethodNotAllowed)
		}
	})
	if err := http.ListenAndServe(*addr, handler); err != nil {
		slog.Error("bare", "err", err)
		os.Exit(1)
	}
}

type stored struct {
	body []byte
	rev  string
}
