package live

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/store"
)

// Item layout in the single table (next to shared/store/dynamo's, whose
// keys start DB#… with SK C#, D# or M, and R#…; none of these collide):
//
//	connection    PK=LIVE#<connection id>   SK=LIVE          user via key dbs(SS) ttl
//	subscription  PK=DB#<db>                SK=LIVE#<conn>   ttl   (under the Group's key)
//	user's conns  PK=LIVEUSER#<user id>     SK=LIVE#<conn>   ttl
//
// The stream function reads a db's subscriptions with one Query of its
// partition; SK LIVE# sorts after the documents (D#…) and before the meta
// item (M), so no range the store reads includes it, and the stream's
// filter (SK begins with D#) never hands these items to the consumer. ttl
// lets DynamoDB sweep what a missed $disconnect leaves (API Gateway ends a
// connection after 2 hours at most).
const (
	connPrefix     = "LIVE#"
	connSK         = "LIVE"
	subPrefix      = "LIVE#"
	userConnPrefix = "LIVEUSER#"
	dbPrefix       = "DB#" // shared/store/dynamo's db partition

	attrPK   = "PK"
	attrSK   = "SK"
	attrUser = "user"
	attrVia  = "via"
	attrKey  = "key"
	attrDBs  = "dbs"
	attrTTL  = "ttl"

	// connectionTTL outlives API Gateway's 2-hour connection limit.
	connectionTTL = 2*time.Hour + 15*time.Minute
)

// DynamoAPI is the part of the DynamoDB client Cloud calls (the api,
// stream and live functions' grants cover exactly these).
type DynamoAPI interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
}

// Poster delivers to API Gateway's connections (Management).
type Poster interface {
	Post(ctx context.Context, conn string, data []byte) error
	Disconnect(ctx context.Context, conn string) error
}

// CloudOptions configures NewCloud.
type CloudOptions struct {
	DB     DynamoAPI
	Table  string
	Poster Poster
	Store  store.Store
	Auth   Authenticator
	Log    *slog.Logger     // nil = discard
	Now    func() time.Time // nil = time.Now
	// MaxSubscriptions bounds the databases one connection follows (32).
	MaxSubscriptions int
	// Parallelism bounds the posts in flight (16).
	Parallelism int
}

// Cloud is live updates on AWS: API Gateway's WebSocket API holds the
// connections, the table remembers them and their subscriptions, the live
// function answers their messages and the stream function posts notices.
// Nothing is kept in memory between invocations.
type Cloud struct {
	gate
	db    DynamoAPI
	table string
	post  Poster
	log   *slog.Logger
	now   func() time.Time
	max   int
	par   int
}

// NewCloud returns the cloud runtime.
func NewCloud(o CloudOptions) *Cloud {
	c := &Cloud{gate: gate{st: o.Store, auth: o.Auth}, db: o.DB, table: o.Table, post: o.Poster, log: o.Log, now: o.Now, max: o.MaxSubscriptions, par: o.Parallelism}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.max <= 0 {
		c.max = 32
	}
	if c.par <= 0 {
		c.par = 16
	}
	return c
}

// connection is a connection's item.
type connection struct {
	ID   string
	User string
	Cred Credential
	DBs  []string
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(pk), attrSK: str(sk)}
}

func (c *Cloud) ttl() types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(c.now().Add(connectionTTL).Unix(), 10)}
}

// Connect records a connection API Gateway is opening ($connect, once the
// core accepted the handshake).
func (c *Cloud) Connect(ctx context.Context, id string, p *access.Principal) error {
	cred, ok := credentialOf(p)
	if !ok {
		return errors.New("live: a connection without a session or token")
	}
	item := key(connPrefix+id, connSK)
	item[attrUser] = str(p.UserID)
	item[attrVia] = &types.AttributeValueMemberN{Value: strconv.Itoa(int(cred.Via))}
	item[attrKey] = str(cred.Key)
	item[attrTTL] = c.ttl()
	if _, err := c.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &c.table, Item: item}); err != nil {
		return fmt.Errorf("live: record connection: %w", err)
	}
	idx := key(userConnPrefix+p.UserID, subPrefix+id)
	idx[attrTTL] = c.ttl()
	if _, err := c.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &c.table, Item: idx}); err != nil {
		return fmt.Errorf("live: record connection: %w", err)
	}
	return nil
}

// Disconnect forgets a connection API Gateway has closed ($disconnect).
func (c *Cloud) Disconnect(ctx context.Context, id string) error {
	conn, ok, err := c.connection(ctx, id)
	if err != nil || !ok {
		return err
	}
	return c.forget(ctx, conn)
}

// connection reads a connection's item.
func (c *Cloud) connection(ctx context.Context, id string) (connection, bool, error) {
	out, err := c.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &c.table, Key: key(connPrefix+id, connSK), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return connection{}, false, fmt.Errorf("live: read connection: %w", err)
	}
	if out.Item == nil {
		return connection{}, false, nil
	}
	conn := connection{ID: id}
	if v, ok := out.Item[attrUser].(*types.AttributeValueMemberS); ok {
		conn.User = v.Value
	}
	if v, ok := out.Item[attrKey].(*types.AttributeValueMemberS); ok {
		conn.Cred.Key = v.Value
	}
	if v, ok := out.Item[attrVia].(*types.AttributeValueMemberN); ok {
		n, _ := strconv.Atoi(v.Value)
		conn.Cred.Via = access.Via(n)
	}
	if v, ok := out.Item[attrDBs].(*types.AttributeValueMemberSS); ok {
		conn.DBs = v.Value
		slices.Sort(conn.DBs)
	}
	return conn, true, nil
}

// forget deletes a connection's items: its subscriptions, its entry under
// its user, itself.
func (c *Cloud) forget(ctx context.Context, conn connection) error {
	var errs []error
	del := func(pk, sk string) {
		if _, err := c.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &c.table, Key: key(pk, sk)}); err != nil {
			errs = append(errs, err)
		}
	}
	for _, db := range conn.DBs {
		del(dbPrefix+db, subPrefix+conn.ID)
	}
	if conn.User != "" {
		del(userConnPrefix+conn.User, subPrefix+conn.ID)
	}
	del(connPrefix+conn.ID, connSK)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("live: forget connection: %w", err)
	}
	return nil
}

// Message answers a client's message ($default).
func (c *Cloud) Message(ctx context.Context, id string, body []byte) error {
	conn, ok, err := c.connection(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		// Swept or never recorded: the client reconnects and subscribes again.
		return c.post.Disconnect(ctx, id)
	}
	m, valid := parseMessage(body)
	if !valid {
		return c.send(ctx, conn, encode(errorMsg{MsgBadMessage}))
	}
	p, err := c.principal(ctx, conn.Cred)
	if err != nil {
		return err
	}
	if p == nil {
		return c.end(ctx, conn)
	}
	switch {
	case m.Subscribe != nil:
		for _, db := range m.Subscribe {
			if err := c.subscribe(ctx, &conn, p, db); err != nil {
				return err
			}
		}
	case m.Unsubscribe != nil:
		for _, db := range m.Unsubscribe {
			if slices.Contains(conn.DBs, db) {
				if err := c.drop(ctx, &conn, db); err != nil {
					return err
				}
			}
			if err := c.send(ctx, conn, encode(unsubscribedMsg{truncate(db, 80)})); err != nil {
				return err
			}
		}
	default:
		// The client's keep-alive: decide its subscriptions again too (the
		// local hub does so on a timer; here nothing runs between messages).
		// No pong: it would be a second billed message, and the client
		// waits for none (API Gateway closes a silent connection, and this
		// ping is what it hears).
		return c.recheck(ctx, conn)
	}
	return nil
}

func (c *Cloud) subscribe(ctx context.Context, conn *connection, p *access.Principal, db string) error {
	seq, refusal, err := c.decide(ctx, p, db)
	if err != nil {
		c.log.ErrorContext(ctx, "live: deciding a subscription failed", "db", db, "err", err)
		refusal = MsgUndefinedError
	}
	if refusal == "" && !slices.Contains(conn.DBs, db) {
		if len(conn.DBs) >= c.max {
			refusal = MsgTooManyDBs
		} else {
			sub := key(dbPrefix+db, subPrefix+conn.ID)
			sub[attrTTL] = c.ttl()
			if _, err := c.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &c.table, Item: sub}); err != nil {
				return fmt.Errorf("live: record subscription: %w", err)
			}
			if _, err := c.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
				TableName: &c.table, Key: key(connPrefix+conn.ID, connSK),
				UpdateExpression:          aws.String("ADD #dbs :db"),
				ExpressionAttributeNames:  map[string]string{"#dbs": attrDBs},
				ExpressionAttributeValues: map[string]types.AttributeValue{":db": &types.AttributeValueMemberSS{Value: []string{db}}},
			}); err != nil {
				return fmt.Errorf("live: record subscription: %w", err)
			}
			conn.DBs = append(conn.DBs, db)
		}
	}
	if refusal != "" {
		return c.send(ctx, *conn, encode(refusedMsg{truncate(db, 80), refusal}))
	}
	return c.send(ctx, *conn, encode(subscribedMsg{db, seq}))
}

// drop ends conn's subscription to db.
func (c *Cloud) drop(ctx context.Context, conn *connection, db string) error {
	if _, err := c.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &c.table, Key: key(dbPrefix+db, subPrefix+conn.ID)}); err != nil {
		return fmt.Errorf("live: drop subscription: %w", err)
	}
	if _, err := c.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: &c.table, Key: key(connPrefix+conn.ID, connSK),
		UpdateExpression:          aws.String("DELETE #dbs :db"),
		ConditionExpression:       aws.String("attribute_exists(#pk)"),
		ExpressionAttributeNames:  map[string]string{"#dbs": attrDBs, "#pk": attrPK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":db": &types.AttributeValueMemberSS{Value: []string{db}}},
	}); err != nil {
		var gone *types.ConditionalCheckFailedException
		if !errors.As(err, &gone) {
			return fmt.Errorf("live: drop subscription: %w", err)
		}
	}
	conn.DBs = slices.DeleteFunc(conn.DBs, func(d string) bool { return d == db })
	return nil
}

// recheck decides conn's subscriptions again, dropping the refused ones
// with their reason; an ended session ends the connection.
func (c *Cloud) recheck(ctx context.Context, conn connection) error {
	p, err := c.principal(ctx, conn.Cred)
	if err != nil {
		return err
	}
	if p == nil {
		return c.end(ctx, conn)
	}
	for _, db := range slices.Clone(conn.DBs) {
		refusal, err := c.allowed(ctx, p, db)
		if err != nil {
			c.log.ErrorContext(ctx, "live: re-deciding a subscription failed", "db", db, "err", err)
			continue
		}
		if refusal == "" {
			continue
		}
		if err := c.drop(ctx, &conn, db); err != nil {
			return err
		}
		if err := c.send(ctx, conn, encode(refusedMsg{db, refusal})); err != nil {
			return err
		}
	}
	return nil
}

// end closes a connection whose session or token has ended.
func (c *Cloud) end(ctx context.Context, conn connection) error {
	if err := c.post.Disconnect(ctx, conn.ID); err != nil {
		return err
	}
	return c.forget(ctx, conn)
}

// send posts one message; a connection found gone is forgotten.
func (c *Cloud) send(ctx context.Context, conn connection, b []byte) error {
	err := c.post.Post(ctx, conn.ID, b)
	if errors.Is(err, ErrGone) {
		return c.forget(ctx, conn)
	}
	return err
}

// queryConns lists the connection ids under a partition (a db's
// subscriptions or a user's connections).
func (c *Cloud) queryConns(ctx context.Context, pk string) ([]string, error) {
	var ids []string
	in := &dynamodb.QueryInput{
		TableName:                 &c.table,
		KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :p)"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#sk": attrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk), ":p": str(subPrefix)},
		ProjectionExpression:      aws.String("#sk"),
	}
	for {
		out, err := c.db.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("live: list connections of %s: %w", pk, err)
		}
		for _, it := range out.Items {
			if v, ok := it[attrSK].(*types.AttributeValueMemberS); ok {
				ids = append(ids, v.Value[len(subPrefix):])
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return ids, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// Applied is the stream function's hook (stream.Observer): connections
// whose access the batch may have changed are decided again, then each
// change's notice is posted to its database's subscribers; a connection
// found gone (410) is forgotten. Failures are logged: notices carry no
// data, and a client that missed one catches up when it reconnects.
func (c *Cloud) Applied(ctx context.Context, changes []store.Change) {
	users, dbs := accessChanges(changes)
	recheck := map[string]bool{}
	for u := range users {
		ids, err := c.queryConns(ctx, userConnPrefix+u)
		c.logErr(ctx, err)
		for _, id := range ids {
			recheck[id] = true
		}
	}
	for db := range dbs {
		ids, err := c.queryConns(ctx, dbPrefix+db)
		c.logErr(ctx, err)
		for _, id := range ids {
			recheck[id] = true
		}
	}
	c.each(ctx, sortedKeys(recheck), func(ctx context.Context, id string) {
		conn, ok, err := c.connection(ctx, id)
		if err == nil && ok {
			err = c.recheck(ctx, conn)
		}
		c.logErr(ctx, err)
	})

	// The newest notice per document is enough: it carries no body.
	byDB := map[string][]frame{}
	latest := map[[2]string]int{}
	for _, f := range notices(changes) {
		k := [2]string{f.db, f.id}
		if i, ok := latest[k]; ok {
			if f.seq > byDB[f.db][i].seq {
				byDB[f.db][i] = f
			}
			continue
		}
		latest[k] = len(byDB[f.db])
		byDB[f.db] = append(byDB[f.db], f)
	}
	for _, db := range sortedKeys(byDB) {
		frames := byDB[db]
		slices.SortFunc(frames, func(a, b frame) int { return cmp.Compare(a.seq, b.seq) })
		ids, err := c.queryConns(ctx, dbPrefix+db)
		c.logErr(ctx, err)
		c.each(ctx, ids, func(ctx context.Context, id string) {
			for _, f := range frames {
				err := c.post.Post(ctx, id, f.body)
				if errors.Is(err, ErrGone) {
					conn, ok, err := c.connection(ctx, id)
					if err == nil && ok {
						err = c.forget(ctx, conn)
					} else if err == nil {
						// Its connection item went first: the subscription alone is left.
						_, err = c.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &c.table, Key: key(dbPrefix+db, subPrefix+id)})
					}
					c.logErr(ctx, err)
					return
				}
				if err != nil {
					c.logErr(ctx, err)
					return
				}
			}
		})
	}
}

func (c *Cloud) logErr(ctx context.Context, err error) {
	if err != nil {
		c.log.WarnContext(ctx, "live: notifying connections failed", "err", err)
	}
}

// each runs fn for every id, at most c.par at once.
func (c *Cloud) each(ctx context.Context, ids []string, fn func(ctx context.Context, id string)) {
	sem := make(chan struct{}, c.par)
	var wg sync.WaitGroup
	for _, id := range ids {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			fn(ctx, id)
		}()
	}
	wg.Wait()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
