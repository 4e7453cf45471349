/**
 * The DynamoDB actions each function may use on the table and its indexes:
 * exactly the calls shared/store/dynamo makes on each function's path. No
 * Scan (the design never scans), no table management, no wildcard.
 *
 * IAM has no TransactWriteItems action: a transaction is authorised item by
 * item through PutItem, UpdateItem and DeleteItem (ConditionCheckItem only
 * for ConditionCheck entries, which the store never sends).
 *
 * If the Go store starts calling another API, add its action here; the
 * assertion tests pin these lists so the change is deliberate.
 */
export const API_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  // Every document write starts by reading the db's meta item and the
  // document together; _changes?include_docs reads the documents.
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;

/**
 * The stream consumer reads contributions and counters (GetItem), writes
 * history entries through the document write path (BatchGetItem, then a
 * transaction of PutItem/UpdateItem) and counters (transactions of
 * PutItem). The product is wired there as in the api function, so the
 * modules' reactions and wiring read lists (Query). It never deletes or
 * sends mail: history and counters only grow, expiring records go by TTL.
 * Reading the stream itself is granted by the event source mapping
 * (DescribeStream, GetRecords, GetShardIterator on the stream, ListStreams).
 * functions/stream's TestStreamNeedsOnlyGrantedActions records the calls of
 * the wired function on DynamoDB Local and checks them against this list.
 */
export const STREAM_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
] as const;

/** What may send mail: v2 SendEmail (what shared/mail/ses calls) and its v1 raw twin. */
export const SES_SEND_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'] as const;
