package dynamo_test

import (
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/store/dynamo"
)

// TestChangeOf: a document's stream record is a change unless it rewrote
// the same live revision in place (Resort moving its index key).
func TestChangeOf(t *testing.T) {
	image := func(rev, gsk string, deleted bool) map[string]events.DynamoDBAttributeValue {
		return map[string]events.DynamoDBAttributeValue{
			"PK": events.NewStringAttribute("DB#g1"), "SK": events.NewStringAttribute("D#cus-1"),
			"rev": events.NewStringAttribute(rev), "seq": events.NewNumberAttribute("7"),
			"deleted": events.NewBooleanAttribute(deleted), "body": events.NewStringAttribute(`{"name":"Ana"}`),
			"GSI1PK": events.NewStringAttribute("DB#g1#Customer"), "GSI1SK": events.NewStringAttribute(gsk + "#cus-1"),
		}
	}
	record := func(old, new map[string]events.DynamoDBAttributeValue) events.DynamoDBEventRecord {
		name := "MODIFY"
		if old == nil {
			name = "INSERT"
		}
		return events.DynamoDBEventRecord{EventName: name, Change: events.DynamoDBStreamRecord{OldImage: old, NewImage: new}}
	}
	for _, tc := range []struct {
		name string
		rec  events.DynamoDBEventRecord
		want bool
	}{
		{"create", record(nil, image("1-a", "2026-01-01", false)), true},
		{"update", record(image("1-a", "2026-01-01", false), image("2-b", "2026-01-01", false)), true},
		{"delete", record(image("1-a", "2026-01-01", false), image("2-c", "2026-01-01", true)), true},
		{"resorted in place", record(image("1-a", "2026-01-01", false), image("1-a", "\x07ana\x01", false)), false},
		{"expired record", events.DynamoDBEventRecord{EventName: "REMOVE", Change: events.DynamoDBStreamRecord{OldImage: image("1-a", "x", false)}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch, ok, err := dynamo.ChangeOf(tc.rec)
			if err != nil || ok != tc.want {
				t.Fatalf("ChangeOf: ok %v (%v), want %v", ok, err, tc.want)
			}
			if ok && ch.DB != "g1" {
				t.Fatalf("db %q", ch.DB)
			}
		})
	}
}
