package schema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/schema"
)

// TestServe: the served rules are the bounds the write path applies (the
// type's default when a field sets none), a klass declared twice is merged,
// and the message templates word what the rules say.
func TestServe(t *testing.T) {
	s := schema.Serve([]schema.Klass{
		{Name: "Thing", Fields: []schema.Field{
			{Name: "name", Type: schema.String, Required: true},
			{Name: "notes", Type: schema.Text},
			{Name: "site", Type: schema.URL},
			{Name: "tags", Type: schema.Tags},
			{Name: "kind", Type: schema.Enum, Enum: []string{"a", "b"}, Default: "a"},
			{Name: "count", Type: schema.Int, Min: schema.Int64(1), MaxValue: schema.Int64(9)},
			{Name: "lines", Type: schema.Items, Items: []schema.Field{{Name: "text", Type: schema.String, Required: true, Max: 20}}},
		}},
		{Name: "Thing", Fields: []schema.Field{{Name: "owner", Type: schema.Ref, Ref: "Customer"}, {Name: "name", Type: schema.Int}}},
	})
	got := map[string]schema.FieldRules{}
	var order []string
	for _, f := range s.Klasses["Thing"] {
		got[f.Name] = f
		order = append(order, f.Name)
	}
	if strings.Join(order, ",") != "name,notes,site,tags,kind,count,lines,owner" {
		t.Errorf("fields in order %v", order)
	}
	for _, c := range []struct {
		field, typ string
		max        int
	}{{"name", "string", 200}, {"notes", "text", 100_000}, {"site", "url", 2_000}, {"tags", "tags", 50}, {"lines", "items", 100}, {"count", "int", 0}} {
		if f := got[c.field]; f.Type != c.typ || f.Max != c.max {
			t.Errorf("%s = %s max %d, want %s max %d", c.field, f.Type, f.Max, c.typ, c.max)
		}
	}
	if f := got["count"]; *f.Min != 1 || *f.MaxValue != 9 {
		t.Errorf("count bounds %v %v", *f.Min, *f.MaxValue)
	}
	if f := got["lines"]; len(f.Items) != 1 || f.Items[0].Max != 20 || !f.Items[0].Required {
		t.Errorf("lines items %+v", f.Items)
	}
	if f := got["owner"]; f.Ref != "Customer" || f.Type != "ref" {
		t.Errorf("owner %+v", f)
	}
	b, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(b), `"default":"a"`) || strings.Contains(string(b), `"read_only"`) {
		t.Errorf("encoded %s (%v)", b, err)
	}
	// The templates word what the rules say.
	for tmpl, msg := range map[string]string{
		s.Messages["too_long"]: schema.MsgTooLong(7), s.Messages["too_many"]: schema.MsgTooMany(7),
		s.Messages["min"]: schema.MsgMin(7), s.Messages["max"]: schema.MsgMax(7),
	} {
		if strings.ReplaceAll(tmpl, "{n}", "7") != msg {
			t.Errorf("template %q does not make %q", tmpl, msg)
		}
	}
}
