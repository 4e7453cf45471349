package ddblocal_test

import (
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.Main(m)) }

func TestStartShared(t *testing.T) {
	ep1, c1 := ddblocal.Start(t)
	ep2, c2 := ddblocal.Start(t)
	if ep1 != ep2 || c1 != c2 {
		t.Fatalf("Start under Main gave two processes: %s and %s", ep1, ep2)
	}
	if !strings.HasPrefix(ep1, "http://127.0.0.1:") {
		t.Fatalf("endpoint %q is not on loopback", ep1)
	}
	if _, err := c1.ListTables(t.Context(), &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("ListTables: %v", err)
	}
}

// TestLoopbackOnly checks that DynamoDB Local is not reachable through the
// machine's other addresses.
func TestLoopbackOnly(t *testing.T) {
	ep, _ := ddblocal.Start(t)
	_, port, err := net.SplitHostPort(strings.TrimPrefix(ep, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok || ipn.IP.IsLoopback() || ipn.IP.IsLinkLocalUnicast() {
			continue
		}
		checked++
		conn, err := net.DialTimeout("tcp", net.JoinHostPort(ipn.IP.String(), port), time.Second)
		if err == nil {
			conn.Close()
			t.Fatalf("DynamoDB Local answers on %s:%s; it must listen on loopback only", ipn.IP, port)
		}
	}
	t.Logf("checked %d non-loopback addresses", checked)
}

func TestTableNameUnique(t *testing.T) {
	a, b := ddblocal.TableName(t), ddblocal.TableName(t)
	if a == b {
		t.Fatalf("TableName twice gave %q", a)
	}
	for _, r := range a {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_.-", r)) {
			t.Fatalf("TableName %q has %q, not allowed in DynamoDB table names", a, r)
		}
	}
}
