/**
 * The DynamoDB actions each function may use on the table and its indexes.
 * Nothing else: no Scan (the design never scans), no table management, no
 * wildcard.
 *
 * IAM has no TransactWriteItems/TransactGetItems actions: a transaction is
 * authorised item by item through PutItem, UpdateItem, DeleteItem, GetItem
 * and, for its ConditionCheck entries, ConditionCheckItem. So "may use
 * TransactWriteItems" means the write actions below plus ConditionCheckItem.
 *
 * If the Go store starts calling another API, add its action here; the
 * assertion tests pin these lists so the change is deliberate.
 */
export const API_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
] as const;

/**
 * The stream consumer writes history entries (PutItem), counters and dedupe
 * markers (UpdateItem/PutItem in transactions with ConditionCheckItem) and
 * reads what mail triggers need (GetItem/BatchGetItem/Query). It never
 * deletes: history and counters only grow, expiring records go by TTL.
 * Reading the stream itself is granted by the event source mapping
 * (DescribeStream, GetRecords, GetShardIterator on the stream, ListStreams).
 */
export const STREAM_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:ConditionCheckItem',
] as const;

/** What may send mail: v2 SendEmail (what shared/mail/ses calls) and its v1 raw twin. */
export const SES_SEND_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'] as const;
