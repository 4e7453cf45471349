package capacity_test

import (
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/capacity"
)

// TestFloor: the floor keeps what the services charge per request, byte
// and connected minute, and takes out what the code decides.
func TestFloor(t *testing.T) {
	day := capacity.Day{Requests: 200, WriteRequests: 40, Reads: 1000, Writes: 300, Mails: 1}
	shop := capacity.Tenant{
		TableBytes: 5e6, DriveBytes: 500e6, OldVersions: 0.2, DownloadShare: 0.1, ResponseBytes: 2000,
		BackupColdBytes: 775e6, BackupColdRequests: 300, BackupPuts: 30,
		APISeconds: 0.03, APIMemoryGB: 1, StreamSeconds: 0.1, StreamMemoryGB: 0.5, LogBytes: 336, LogMonths: 3,
		Jobs:       capacity.Jobs{Tasks: 29, Reads: 400, Writes: 8},
		JobSeconds: 0.05, JobMemoryGB: 0.5,
		Live:        capacity.Live{Invocations: 144, ClientMessages: 128, ServerMessages: 96, ConnectionMinutes: 960, Reads: 428, Writes: 80},
		LiveSeconds: 0.02, LiveMemoryGB: 0.25,
	}
	full := capacity.Month(day, shop)
	floor := capacity.Month(capacity.Floor(day, shop))
	for i, l := range floor {
		switch {
		case l.Dollars > full[i].Dollars:
			t.Errorf("%s: floor $%.4f above the month's $%.4f", l.Item, l.Dollars, full[i].Dollars)
		case strings.HasPrefix(l.Item, "DynamoDB"), strings.HasPrefix(l.Item, "CloudWatch"), strings.HasPrefix(l.Item, "scheduled"):
			if l.Dollars != 0 {
				t.Errorf("%s: floor $%.4f, want 0", l.Item, l.Dollars)
			}
		case strings.HasPrefix(l.Item, "HTTP API"), strings.HasPrefix(l.Item, "CloudFront"), strings.HasPrefix(l.Item, "drive"), l.Item == "SES":
			if l.Dollars != full[i].Dollars {
				t.Errorf("%s: floor $%.4f, want the month's $%.4f", l.Item, l.Dollars, full[i].Dollars)
			}
		}
	}
	if l := floor[len(floor)-1]; !strings.HasPrefix(l.Item, "live") || l.Dollars <= 0 {
		t.Errorf("live updates' floor: %+v, want their messages and minutes", l)
	}
}
