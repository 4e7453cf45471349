package dynamo_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

// resendWrites sends every document write twice and returns the second
// answer, as when the SDK retries a request whose first reply was lost.
func resendWrites(stack *middleware.Stack) error {
	return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("resend",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			switch middleware.GetOperationName(ctx) {
			case "PutItem", "TransactWriteItems":
			default:
				return next.HandleFinalize(ctx, in)
			}
			if _, _, err := next.HandleFinalize(ctx, in); err != nil {
				return middleware.FinalizeOutput{}, middleware.Metadata{}, err
			}
			if err := in.Request.(*smithyhttp.Request).RewindStream(); err != nil {
				return middleware.FinalizeOutput{}, middleware.Metadata{}, err
			}
			return next.HandleFinalize(ctx, in)
		}), middleware.After)
}

// TestLostReply checks that a write whose reply was lost and which was sent
// again is reported as the success it was, counted once, while a rival's
// identical write still fails.
func TestLostReply(t *testing.T) {
	ep, _ := ddblocal.Start(t)
	client := ddblocal.NewClient(ep)
	table := ddblocal.TableName(t)
	if err := dynamo.CreateTable(t.Context(), client, table); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: &table}) })
	s := dynamo.New(ddblocal.NewClient(ep, func(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, resendWrites) }), table)
	ctx := t.Context()
	if err := s.CreateDB(ctx, "db"); err != nil {
		t.Fatal(err)
	}
	d, err := s.Put(ctx, "db", store.Doc{ID: "a", Body: []byte(`{"v":1}`)}) // transaction
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	d, err = s.Put(ctx, "db", store.Doc{ID: "a", Rev: d.Rev, Body: []byte(`{"v":2}`)}) // PutItem
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if _, err := s.Delete(ctx, "db", "a", d.Rev); err != nil { // transaction
		t.Fatalf("delete: %v", err)
	}
	if err := s.PutRecord(ctx, store.Record{Kind: "claim", Key: "x", Value: []byte("1")}, true); err != nil {
		t.Fatalf("PutRecord ifAbsent: %v", err)
	}
	if err := s.PutRecord(ctx, store.Record{Kind: "claim", Key: "x", Value: []byte("1")}, true); err != store.ErrExists {
		t.Fatalf("rival PutRecord ifAbsent: %v, want ErrExists", err)
	}
	info, err := s.DBInfo(ctx, "db")
	if err != nil {
		t.Fatal(err)
	}
	if info.DocCount != 0 || info.DelCount != 1 {
		t.Fatalf("DBInfo = %+v, want 0 docs and 1 tombstone", info)
	}
}
