package schema_test

import (
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
)

const db = "acc-0123456789abcdef0123456789abcdef"

// refs answers references from a fixed set of live ids and members.
type refs struct {
	live    map[string]string // id → klass
	members map[string]bool
}

func (r refs) Exists(_ context.Context, _, id, klass string) (bool, error) {
	return r.live[id] == klass, nil
}

func (r refs) IsMember(_ context.Context, _, id string) (bool, error) { return r.members[id], nil }

var (
	customer = ids.New("cus")
	category = ids.New("ctg")
	member   = ids.New("usr")
	stranger = ids.New("usr")
)

// ticketish is a klass with one field of every type.
var ticketish = schema.Klass{Name: "Ticket", Fields: []schema.Field{
	{Name: "title", Type: schema.String, Required: true, Max: 10},
	{Name: "content", Type: schema.Text},
	{Name: "number", Type: schema.Int, ReadOnly: true},
	{Name: "estimation", Type: schema.Int, Min: schema.Int64(0), MaxValue: schema.Int64(1000)},
	{Name: "value", Type: schema.Money, Min: schema.Int64(0)},
	{Name: "ratio", Type: schema.Number},
	{Name: "active", Type: schema.Bool, Default: true},
	{Name: "due", Type: schema.Date},
	{Name: "at", Type: schema.DateTime},
	{Name: "priority", Type: schema.Enum, Enum: []string{"low", "medium", "high"}},
	{Name: "customer_id", Type: schema.Ref, Ref: "Customer"},
	{Name: "technical_id", Type: schema.Member},
	{Name: "email", Type: schema.Email},
	{Name: "site", Type: schema.URL},
	{Name: "color", Type: schema.Color},
	{Name: "categories", Type: schema.Tags, Max: 3},
	{Name: "fields", Type: schema.List},
	{Name: "payload", Type: schema.Object},
	{Name: "phones", Type: schema.Items, Max: 2, Items: []schema.Field{
		{Name: "number", Type: schema.String, Required: true, Max: 20},
		{Name: "main", Type: schema.Bool},
	}},
}}

func newService(t *testing.T) (*docs.Service, store.Store) {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.CreateDB(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	d := docs.New(st, nil)
	d.Register("Ticket", ticketish.Rule(refs{
		live:    map[string]string{customer: "Customer", category: "Category"},
		members: map[string]bool{member: true},
	}))
	return d, st
}

func body(t *testing.T, js string) map[string]any {
	t.Helper()
	m, err := docs.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFieldErrors(t *testing.T) {
	d, st := newService(t)
	p := &access.Principal{UserID: member, Label: "Ana"}
	tests := []struct {
		name string
		body string
		want map[string][]string
	}{
		{"blank required", `{"title":"  "}`, map[string][]string{"title": {"can't be blank"}}},
		{"missing required", `{}`, map[string][]string{"title": {"can't be blank"}}},
		{"too long", `{"title":"abcdefghijk"}`, map[string][]string{"title": {"is too long (maximum is 10 characters)"}}},
		{"control characters", `{"title":"a\u0000b"}`, map[string][]string{"title": {"is invalid"}}},
		{"string of another type", `{"title":12}`, map[string][]string{"title": {"is invalid"}}},
		{"not a number", `{"title":"t","estimation":"many"}`, map[string][]string{"estimation": {"is not a number"}}},
		{"fraction", `{"title":"t","value":10.5}`, map[string][]string{"value": {"must be an integer"}}},
		{"below min", `{"title":"t","value":-1}`, map[string][]string{"value": {"must be greater than or equal to 0"}}},
		{"above max", `{"title":"t","estimation":1001}`, map[string][]string{"estimation": {"must be less than or equal to 1000"}}},
		{"number", `{"title":"t","ratio":"x"}`, map[string][]string{"ratio": {"is not a number"}}},
		{"bool", `{"title":"t","active":"yes"}`, map[string][]string{"active": {"is invalid"}}},
		{"date shape", `{"title":"t","due":"24/12/2024"}`, map[string][]string{"due": {"is invalid"}}},
		{"impossible date", `{"title":"t","due":"2024-02-30"}`, map[string][]string{"due": {"is invalid"}}},
		{"datetime", `{"title":"t","at":"yesterday"}`, map[string][]string{"at": {"is invalid"}}},
		{"enum", `{"title":"t","priority":"urgent"}`, map[string][]string{"priority": {"not in allowed list"}}},
		{"unknown ref", `{"title":"t","customer_id":"` + ids.New("cus") + `"}`, map[string][]string{"customer_id": {"must exist"}}},
		{"ref of another klass", `{"title":"t","customer_id":"` + category + `"}`, map[string][]string{"customer_id": {"must exist"}}},
		{"ref not an id", `{"title":"t","customer_id":"../acc-x"}`, map[string][]string{"customer_id": {"must exist"}}},
		{"not a member", `{"title":"t","technical_id":"` + stranger + `"}`, map[string][]string{"technical_id": {"must exist"}}},
		{"email", `{"title":"t","email":"not-an-email"}`, map[string][]string{"email": {"is invalid"}}},
		{"email with name", `{"title":"t","email":"Ana <ana@example.com>"}`, map[string][]string{"email": {"is invalid"}}},
		{"url scheme", `{"title":"t","site":"javascript:alert(1)"}`, map[string][]string{"site": {"is invalid"}}},
		{"color", `{"title":"t","color":"red"}`, map[string][]string{"color": {"is invalid"}}},
		{"too many tags", `{"title":"t","categories":"a,b,c,d"}`, map[string][]string{"categories": {"is too long (maximum is 3 items)"}}},
		{"tags of another type", `{"title":"t","categories":[1]}`, map[string][]string{"categories": {"is invalid"}}},
		{"list", `{"title":"t","fields":{}}`, map[string][]string{"fields": {"is invalid"}}},
		{"object", `{"title":"t","payload":[]}`, map[string][]string{"payload": {"is invalid"}}},
		{"items not a list", `{"title":"t","phones":"555"}`, map[string][]string{"phones": {"is invalid"}}},
		{"item field", `{"title":"t","phones":[{"number":""},{"number":"1","main":"yes"}]}`, map[string][]string{
			"phones[0].number": {"can't be blank"}, "phones[1].main": {"is invalid"}}},
		{"unknown item field", `{"title":"t","phones":[{"number":"1","evil":true}]}`, map[string][]string{"phones[0].evil": {"is invalid"}}},
		{"too many items", `{"title":"t","phones":[{"number":"1"},{"number":"2"},{"number":"3"}]}`, map[string][]string{"phones": {"is too long (maximum is 2 items)"}}},
		{"several at once", `{"title":"","priority":"x","value":-5}`, map[string][]string{
			"title": {"can't be blank"}, "priority": {"not in allowed list"}, "value": {"must be greater than or equal to 0"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := st.DBInfo(context.Background(), db)
			_, err := d.Save(context.Background(), p, db, ids.New("tik"), "", body(t, tc.body))
			fe, ok := fault.As(err)
			if !ok || fe.Kind != fault.Unprocessable {
				t.Fatalf("Save: %v, want a 422", err)
			}
			if !reflect.DeepEqual(fe.Fields, tc.want) {
				t.Fatalf("fields %v, want %v", fe.Fields, tc.want)
			}
			after, _ := st.DBInfo(context.Background(), db)
			if after.UpdateSeq != before.UpdateSeq {
				t.Fatal("a refused write moved update_seq")
			}
		})
	}
}

func TestNormalisation(t *testing.T) {
	d, st := newService(t)
	p := &access.Principal{UserID: member, Label: "Ana"}
	id := ids.New("tik")
	saved, err := d.Save(context.Background(), p, db, id, "", body(t, `{
		"title":"  Tela  ", "number": 7, "estimation":"12", "value": 1999, "due":"", "priority":"high",
		"customer_id":"`+customer+`", "technical_id":"`+member+`", "email":" ana@example.com ",
		"site":"https://example.com/a", "color":"#AABBCC", "categories":" troca de tela , urgente,troca de tela ",
		"content":"linha 1\nlinha 2",
		"phones":[{"number":" 11 5555-0000 ","main":true},{"number":"x","marktodelete":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := docs.Decode(saved.Body)
	want := map[string]any{
		"title": "Tela", "estimation": json.Number("12"), "value": json.Number("1999"), "active": true,
		"priority": "high", "customer_id": customer, "technical_id": member, "email": "ana@example.com",
		"site": "https://example.com/a", "color": "#aabbcc", "categories": []any{"troca-de-tela", "urgente"},
		"content": "linha 1\nlinha 2",
		"phones":  []any{map[string]any{"number": "11 5555-0000", "main": true}},
	}
	for k, v := range want {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("%s = %#v, want %#v", k, got[k], v)
		}
	}
	if _, ok := got["due"]; ok {
		t.Error("an empty date should be dropped, not stored")
	}
	if n, ok := got["number"]; ok {
		t.Errorf("a read-only field was taken from the client on create: %v", n)
	}

	// On update, read-only fields keep the stored value whatever the client sends.
	stored, _ := st.Get(context.Background(), db, id)
	b, _ := docs.Decode(stored.Body)
	b["number"] = json.Number("41")
	raw, _ := json.Marshal(b)
	if _, err := st.Put(context.Background(), db, store.Doc{ID: id, Rev: stored.Rev, Klass: "Ticket", Body: raw}); err != nil {
		t.Fatal(err)
	}
	cur, _ := st.Get(context.Background(), db, id)
	upd := maps.Clone(b)
	upd["number"] = json.Number("99")
	saved, err = d.Save(context.Background(), p, db, id, cur.Rev, upd)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := docs.Decode(saved.Body); got["number"] != json.Number("41") {
		t.Fatalf("number = %v after an update that sent 99, want the stored 41", got["number"])
	}
}

func TestTag(t *testing.T) {
	for in, want := range map[string]string{
		"  troca de tela ": "troca-de-tela", "a\tb": "a-b", "": "", "já-feito": "já-feito",
	} {
		if got := schema.Tag(in); got != want {
			t.Errorf("Tag(%q) = %q, want %q", in, got, want)
		}
	}
	if !strings.Contains(schema.MsgTooLong(5), "5") {
		t.Fatal("MsgTooLong names the limit")
	}
}
