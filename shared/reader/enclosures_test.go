package reader_test

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
)

// podcast is an RSS podcast feed whose episodes carry enclosures: one
// absolute with its type and length, one relative with a type that is no
// MIME type and a length that is no number, and addresses that are no
// http(s) file, which are left out.
func podcast(site string, posted time.Time, episode2 string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>Conserto em Pauta</title><link>` + site + `/</link><description>d</description>
<item><guid>ep-1</guid><title>Episódio 1: telas trincadas</title><link>` + site + `/ep/1</link>
<pubDate>` + posted.Add(-2*time.Hour).UTC().Format(time.RFC1123Z) + `</pubDate><description>Trocar a tela sem medo.</description>
<enclosure url="` + site + `/media/ep1.mp3" length="24986239" type="Audio/MPEG; charset=binary"/>
<itunes:duration>00:26:01</itunes:duration></item>
<item><guid>ep-2</guid><title>Episódio 2: baterias</title><link>` + site + `/ep/2</link>
<pubDate>` + posted.Add(-time.Hour).UTC().Format(time.RFC1123Z) + `</pubDate><description>Baterias estufadas.</description>
<enclosure url="` + episode2 + `" length="many" type="not a type"/>
<enclosure url="javascript:alert(1)" length="1" type="audio/mpeg"/>
<enclosure url="ftp://example.com/ep2.mp3" length="1" type="audio/mpeg"/></item>
</channel></rss>`
}

// atomPodcast is the same first episode as an Atom entry with a
// rel="enclosure" link.
func atomPodcast(site string, posted time.Time) string {
	return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Oficina Cast</title><id>urn:oficina-cast</id><updated>` + posted.UTC().Format(time.RFC3339) + `</updated>
<link href="` + site + `/"/>
<entry><id>urn:oficina-cast:1</id><title>Ferramentas</title><updated>` + posted.Add(-time.Hour).UTC().Format(time.RFC3339) + `</updated>
<link href="` + site + `/cast/1"/><link rel="enclosure" type="audio/ogg" length="1200" href="` + site + `/media/cast1.ogg"/>
<summary>Chaves e pinças.</summary></entry></feed>`
}

// TestPodcastEnclosures: a podcast's enclosures are kept on its items —
// url (resolved, http(s) only), type (a MIME type, or none), length
// (bytes, or none) — from RSS and Atom, shown in the feed list, followed
// when the feed changes them; clients' enclosures are checked on every
// write path, bad ones refused with nothing written.
func TestPodcastEnclosures(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		now := e.Clock.Now()
		srv.serve("/podcast.xml", "application/rss+xml", podcast(srv.URL, now, "/media/ep2.m4a"))
		srv.serve("/atom.xml", "application/atom+xml", atomPodcast(srv.URL, now))
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		subscribe(t, ana, db, map[string]any{"url": srv.url("/podcast.xml")})
		subscribe(t, ana, db, map[string]any{"url": srv.url("/atom.xml")})

		all := items(t, e, ana, db)
		want := map[string][]any{
			"Episódio 1: telas trincadas": {map[string]any{"url": srv.url("/media/ep1.mp3"), "type": "audio/mpeg", "length": float64(24986239)}},
			"Episódio 2: baterias":        {map[string]any{"url": srv.url("/media/ep2.m4a")}},
			"Ferramentas":                 {map[string]any{"url": srv.url("/media/cast1.ogg"), "type": "audio/ogg", "length": float64(1200)}},
		}
		for title, w := range want {
			d := byTitle(all, title)
			if d == nil || !reflect.DeepEqual(d["enclosures"], w) {
				t.Errorf("%s: enclosures %v, want %v", title, d["enclosures"], w)
			}
		}
		page := feedPage(t, ana, db, "read=all")
		found := 0
		for _, r := range page["rows"].([]any) {
			if doc := r.(map[string]any)["doc"].(map[string]any); doc["enclosures"] != nil {
				found++
			}
		}
		if found != 3 {
			t.Fatalf("the feed list shows %d items with enclosures: %v", found, page)
		}

		// The publisher moves episode 2's file: the item follows.
		e.Clock.Advance(61 * time.Minute)
		srv.serve("/podcast.xml", "application/rss+xml", podcast(srv.URL, now, "https://cdn.example.com/ep2.mp3"))
		round(t, e)
		ep2 := byTitle(items(t, e, ana, db), "Episódio 2: baterias")
		if got := ep2["enclosures"]; !reflect.DeepEqual(got, []any{map[string]any{"url": "https://cdn.example.com/ep2.mp3"}}) {
			t.Fatalf("moved enclosure %v", got)
		}

		// Clients: checked on POST, PUT and _bulk_docs.
		api := "/api/" + db
		many := make([]any, 11)
		for i := range many {
			many[i] = map[string]any{"url": fmt.Sprintf("https://example.com/%d.mp3", i)}
		}
		bad := []any{
			"https://example.com/a.mp3",
			[]any{"https://example.com/a.mp3"},
			[]any{map[string]any{"url": "javascript:alert(1)"}},
			[]any{map[string]any{"url": "/relative.mp3"}},
			[]any{map[string]any{"url": "https://example.com/a.mp3", "type": "not a type"}},
			[]any{map[string]any{"url": "https://example.com/a.mp3", "type": 3}},
			[]any{map[string]any{"url": "https://example.com/a.mp3", "length": -1}},
			[]any{map[string]any{"url": "https://example.com/a.mp3", "length": 1.5}},
			[]any{map[string]any{"url": "https://example.com/a.mp3", "length": "10"}},
			many,
		}
		e.Unchanged(db, func() {
			for _, v := range bad {
				ana.Do("POST", api, map[string]any{"klass": "ReaderItem", "title": "x", "enclosures": v}).ExpectFields(t, "enclosures", "is invalid")
				ana.Do("PUT", api+"/"+ep2["_id"].(string), map[string]any{"_rev": ep2["_rev"], "klass": "ReaderItem", "title": "x", "enclosures": v}).ExpectFields(t, "enclosures", "is invalid")
				ana.Do("POST", api+"/_bulk_docs", map[string]any{"docs": []any{map[string]any{"klass": "ReaderItem", "title": "x", "enclosures": v}}}).ExpectBulkField(t, "enclosures", "is invalid")
			}
		})
		id := ana.Do("POST", api, map[string]any{"klass": "ReaderItem", "title": "Typed", "enclosures": []any{
			map[string]any{"url": " https://example.com/a.mp3 ", "type": "AUDIO/MPEG; codecs=mp3", "length": 10, "note": "dropped"},
		}}).Expect(t, http.StatusCreated)["id"].(string)
		if got := e.Doc(db, id)["enclosures"]; !reflect.DeepEqual(got, []any{map[string]any{"url": "https://example.com/a.mp3", "type": "audio/mpeg", "length": float64(10)}}) {
			t.Fatalf("normalised enclosures %v", got)
		}
		if strings.Contains(fmt.Sprint(e.Doc(db, id)), "dropped") {
			t.Fatal("an unknown key was kept")
		}
	}, loopback)
}
