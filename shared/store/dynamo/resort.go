package dynamo

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/store"
)

// Resort implements store.Resorter: one conditional UpdateItem moves the
// live revision rev of id to sortKey in GSI1. It appends no log row and
// takes no seq; its stream record (same revision before and after) is no
// change to ChangeOf.
func (st *Store) Resort(ctx context.Context, db, id, rev, sortKey string) error {
	update := "SET #gsk = :gsk"
	cond := "#rev = :rev AND #del = :false AND attribute_exists(#gpk)"
	_, err := st.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           &st.table,
		Key:                 docKey(db, id),
		UpdateExpression:    &update,
		ConditionExpression: &cond,
		ExpressionAttributeNames: map[string]string{
			"#gsk": attrGSI1SK, "#gpk": attrGSI1PK, "#rev": attrRev, "#del": attrDeleted,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":gsk": str(gsi1SK(sortKey, id)), ":rev": str(rev), ":false": boolean(false),
		},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var ccf *types.ConditionalCheckFailedException
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &ccf):
		return fmt.Errorf("dynamo: resort %s/%s: %w", db, id, err)
	}
	old := ccf.Item
	if len(old) == 0 {
		return store.ErrNotFound
	}
	if del, ok := old[attrDeleted].(*types.AttributeValueMemberBOOL); ok && del.Value {
		return store.ErrNotFound
	}
	if r, _ := optS(old, attrRev); r != rev {
		return store.ErrConflict
	}
	return nil // the revision is in no klass index: nothing to move
}
