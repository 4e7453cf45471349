package dynamo

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// tableJSON is the table definition shared with the CDK stack (infra-cdk
// reads the same file), so tests and the cloud always agree on the schema.
//
//go:embed table.json
var tableJSON []byte

type keyDef struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type tableDef struct {
	PartitionKey           keyDef `json:"partitionKey"`
	SortKey                keyDef `json:"sortKey"`
	GlobalSecondaryIndexes []struct {
		IndexName    string `json:"indexName"`
		PartitionKey keyDef `json:"partitionKey"`
		SortKey      keyDef `json:"sortKey"`
		Projection   string `json:"projection"`
	} `json:"globalSecondaryIndexes"`
	TimeToLiveAttribute string `json:"timeToLiveAttribute"`
	StreamViewType      string `json:"streamViewType"`
	BillingMode         string `json:"billingMode"`
}

func loadTableDef() (tableDef, error) {
	var def tableDef
	if err := json.Unmarshal(tableJSON, &def); err != nil {
		return def, fmt.Errorf("dynamo: table.json: %w", err)
	}
	return def, nil
}

// createTableInput builds the CreateTable request for table from table.json.
func createTableInput(def tableDef, table string) (*dynamodb.CreateTableInput, error) {
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(table),
		BillingMode: types.BillingMode(def.BillingMode),
	}
	seen := map[string]string{}
	addAttr := func(k keyDef) error {
		if k.Name == "" {
			return nil
		}
		if t, ok := seen[k.Name]; ok {
			if t != k.Type {
				return fmt.Errorf("dynamo: table.json: attribute %s declared as %s and %s", k.Name, t, k.Type)
			}
			return nil
		}
		seen[k.Name] = k.Type
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(k.Name), AttributeType: types.ScalarAttributeType(k.Type),
		})
		return nil
	}
	keySchema := func(pk, sk keyDef) ([]types.KeySchemaElement, error) {
		if pk.Name == "" {
			return nil, errors.New("dynamo: table.json: missing partition key")
		}
		if err := addAttr(pk); err != nil {
			return nil, err
		}
		ks := []types.KeySchemaElement{{AttributeName: aws.String(pk.Name), KeyType: types.KeyTypeHash}}
		if sk.Name != "" {
			if err := addAttr(sk); err != nil {
				return nil, err
			}
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk.Name), KeyType: types.KeyTypeRange})
		}
		return ks, nil
	}
	var err error
	if in.KeySchema, err = keySchema(def.PartitionKey, def.SortKey); err != nil {
		return nil, err
	}
	for _, g := range def.GlobalSecondaryIndexes {
		ks, err := keySchema(g.PartitionKey, g.SortKey)
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", g.IndexName, err)
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName:  aws.String(g.IndexName),
			KeySchema:  ks,
			Projection: &types.Projection{ProjectionType: types.ProjectionType(g.Projection)},
		})
	}
	if def.StreamViewType != "" {
		in.StreamSpecification = &types.StreamSpecification{
			StreamEnabled:  aws.Bool(true),
			StreamViewType: types.StreamViewType(def.StreamViewType),
		}
	}
	return in, nil
}

// CreateTable creates table as described by table.json, waits until it and
// its indexes are ACTIVE and enables TTL. It is for tests and tools; the
// cloud table is created by the CDK stack from the same file. An existing
// table is an error (a *types.ResourceInUseException, wrapped).
func CreateTable(ctx context.Context, client *dynamodb.Client, table string) error {
	def, err := loadTableDef()
	if err != nil {
		return err
	}
	in, err := createTableInput(def, table)
	if err != nil {
		return err
	}
	if _, err := client.CreateTable(ctx, in); err != nil {
		return fmt.Errorf("dynamo: create table %s: %w", table, err)
	}
	if err := waitActive(ctx, client, table); err != nil {
		return err
	}
	if def.TimeToLiveAttribute != "" {
		_, err := client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
			TableName: aws.String(table),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{
				AttributeName: aws.String(def.TimeToLiveAttribute), Enabled: aws.Bool(true),
			},
		})
		if err != nil {
			return fmt.Errorf("dynamo: enable TTL on %s: %w", table, err)
		}
	}
	return nil
}

// waitActive polls with backoff: DynamoDB Local is ready at once, AWS takes
// seconds to minutes. The SDK waiter ignores index status and starts at 20 s.
func waitActive(ctx context.Context, client *dynamodb.Client, table string) error {
	delay := 20 * time.Millisecond
	for {
		out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			return fmt.Errorf("dynamo: describe table %s: %w", table, err)
		}
		active := out.Table.TableStatus == types.TableStatusActive
		for _, g := range out.Table.GlobalSecondaryIndexes {
			active = active && g.IndexStatus == types.IndexStatusActive
		}
		if active {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("dynamo: waiting for table %s: %w", table, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 2*time.Second)
	}
}
