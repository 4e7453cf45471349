package ddblocal

import (
	"context"
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// StreamReader follows a table's DynamoDB stream on DynamoDB Local, shard by
// shard, and hands out its records as Lambda's event source would (so the
// change-stream code under test is the code that runs on AWS).
type StreamReader struct {
	sc    *dynamodbstreams.Client
	arn   string
	iters map[string]*string // shard → next iterator (nil: the shard is closed and read)
}

// NewStreamReader starts following table from the beginning of its stream.
func NewStreamReader(ctx context.Context, endpoint string, client *dynamodb.Client, table string) (*StreamReader, error) {
	desc, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return nil, fmt.Errorf("ddblocal: describe %s: %w", table, err)
	}
	spec := desc.Table.StreamSpecification
	if spec == nil || !aws.ToBool(spec.StreamEnabled) || spec.StreamViewType != ddbtypes.StreamViewTypeNewAndOldImages || desc.Table.LatestStreamArn == nil {
		return nil, fmt.Errorf("ddblocal: table %s has no NEW_AND_OLD_IMAGES stream: %+v", table, spec)
	}
	opts := client.Options()
	return &StreamReader{
		sc:    dynamodbstreams.New(dynamodbstreams.Options{Region: opts.Region, Credentials: opts.Credentials, BaseEndpoint: aws.String(endpoint)}),
		arn:   aws.ToString(desc.Table.LatestStreamArn),
		iters: map[string]*string{},
	}, nil
}

// Read returns every record written since the previous Read (all of them
// the first time), shard by shard; an empty answer means caught up.
func (s *StreamReader) Read(ctx context.Context) ([]events.DynamoDBEventRecord, error) {
	shards, err := s.shards(ctx)
	if err != nil {
		return nil, err
	}
	var recs []events.DynamoDBEventRecord
	for _, sh := range shards {
		id := aws.ToString(sh.ShardId)
		iter, known := s.iters[id]
		if known && iter == nil {
			continue // closed and read to its end
		}
		if !known {
			it, err := s.sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
				StreamArn: aws.String(s.arn), ShardId: sh.ShardId, ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon,
			})
			if err != nil {
				return nil, fmt.Errorf("ddblocal: shard iterator: %w", err)
			}
			iter = it.ShardIterator
		}
		for iter != nil {
			out, err := s.sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
			if err != nil {
				return nil, fmt.Errorf("ddblocal: get records: %w", err)
			}
			for _, r := range out.Records {
				recs = append(recs, EventRecord(s.arn, r))
			}
			iter = out.NextShardIterator
			if len(out.Records) == 0 {
				break // an open shard has no end: empty means caught up
			}
		}
		s.iters[id] = iter
	}
	return recs, nil
}

func (s *StreamReader) shards(ctx context.Context) ([]streamtypes.Shard, error) {
	var shards []streamtypes.Shard
	in := &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(s.arn)}
	for {
		out, err := s.sc.DescribeStream(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("ddblocal: describe stream: %w", err)
		}
		shards = append(shards, out.StreamDescription.Shards...)
		if out.StreamDescription.LastEvaluatedShardId == nil {
			return shards, nil
		}
		in.ExclusiveStartShardId = out.StreamDescription.LastEvaluatedShardId
	}
}

// EventRecord is what Lambda's event source makes of a stream record.
func EventRecord(arn string, r streamtypes.Record) events.DynamoDBEventRecord {
	d := r.Dynamodb
	e := events.DynamoDBEventRecord{
		AWSRegion: aws.ToString(r.AwsRegion), EventID: aws.ToString(r.EventID), EventName: string(r.EventName),
		EventSource: aws.ToString(r.EventSource), EventVersion: aws.ToString(r.EventVersion), EventSourceArn: arn,
		Change: events.DynamoDBStreamRecord{
			Keys: image(d.Keys), NewImage: image(d.NewImage), OldImage: image(d.OldImage),
			SequenceNumber: aws.ToString(d.SequenceNumber), SizeBytes: aws.ToInt64(d.SizeBytes),
			StreamViewType: string(d.StreamViewType),
		},
	}
	if r.UserIdentity != nil {
		e.UserIdentity = &events.DynamoDBUserIdentity{Type: aws.ToString(r.UserIdentity.Type), PrincipalID: aws.ToString(r.UserIdentity.PrincipalId)}
	}
	return e
}

func image(m map[string]streamtypes.AttributeValue) map[string]events.DynamoDBAttributeValue {
	if m == nil {
		return nil
	}
	out := make(map[string]events.DynamoDBAttributeValue, len(m))
	for k, v := range m {
		out[k] = eventAttr(v)
	}
	return out
}

func eventAttr(v streamtypes.AttributeValue) events.DynamoDBAttributeValue {
	switch v := v.(type) {
	case *streamtypes.AttributeValueMemberS:
		return events.NewStringAttribute(v.Value)
	case *streamtypes.AttributeValueMemberN:
		return events.NewNumberAttribute(v.Value)
	case *streamtypes.AttributeValueMemberB:
		return events.NewBinaryAttribute(v.Value)
	case *streamtypes.AttributeValueMemberBOOL:
		return events.NewBooleanAttribute(v.Value)
	case *streamtypes.AttributeValueMemberSS:
		return events.NewStringSetAttribute(v.Value)
	case *streamtypes.AttributeValueMemberNS:
		return events.NewNumberSetAttribute(v.Value)
	case *streamtypes.AttributeValueMemberBS:
		return events.NewBinarySetAttribute(v.Value)
	case *streamtypes.AttributeValueMemberL:
		l := make([]events.DynamoDBAttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = eventAttr(e)
		}
		return events.NewListAttribute(l)
	case *streamtypes.AttributeValueMemberM:
		return events.NewMapAttribute(image(v.Value))
	}
	return events.NewNullAttribute() // NULL, and types the store never writes
}
