package app_test

import (
	"errors"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/app/davparts"
	"github.com/oficina/oficina/shared/app/parts"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/schedule"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

// wiring is what a registry holds of the write path, the change stream and
// the jobs.
type wiring struct {
	writes     docs.Registered
	tallies    []string
	events     map[string]int
	reactions  []string
	notRecords []string
	noHistory  []string
	vocabulary module.Vocabulary
	jobs       []schedule.Spec
}

func wiringOf(d *docs.Service, r *module.Registry) wiring {
	o := r.StreamOptions()
	w := wiring{writes: d.Registered(), events: map[string]int{}, notRecords: slices.Sorted(slices.Values(o.NotRecords)),
		noHistory: slices.Sorted(slices.Values(o.NoHistory)), vocabulary: r.Vocabulary(), jobs: schedule.Specs(r.Jobs())}
	for _, t := range o.Tallies {
		w.tallies = append(w.tallies, t.Name)
	}
	for k, rs := range o.Events {
		w.events[k] = len(rs)
	}
	for _, re := range o.Reactions {
		w.reactions = append(w.reactions, re.Name)
	}
	slices.Sort(w.tallies)
	slices.Sort(w.reactions)
	slices.SortFunc(w.jobs, func(a, b schedule.Spec) int { return strings.Compare(a.Name, b.Name) })
	return w
}

// boltAndConfig is a fresh embedded store, closed by whoever it is given
// to, and the default settings.
func boltAndConfig(t *testing.T) (store.Store, config.Config) {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "o.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(nil, func(string) string { return "" }, config.Local)
	if err != nil {
		t.Fatal(err)
	}
	return st, cfg
}

// TestPartsRegisterWhatModulesDo: the stream and worker functions
// register the modules' write paths and jobs through shared/app/parts,
// without app.Modules' Register; they must come out exactly as the API's
// registry has them — every rule, effect, guard and sort key, every
// tally, timeline event and reaction, every job — or a write in the
// stream or a job would skip a rule. A module added to app.Modules and
// not to parts fails here.
func TestPartsRegisterWhatModulesDo(t *testing.T) {
	full, reg := fullRegistry(t)
	want := wiringOf(full.Docs, reg)

	c := openCore(t)
	r := c.Registry()
	set := parts.New(c.Deps(), c.Accounts, nil)
	set.RegisterWrites(r)
	streamOnly := wiringOf(c.Docs, r)
	set.RegisterJobs(r)
	got := wiringOf(c.Docs, r)

	if !maps.Equal(got.writes.Rules, want.writes.Rules) || !maps.Equal(got.writes.Effects, want.writes.Effects) ||
		!slices.Equal(got.writes.SortKeys, want.writes.SortKeys) || got.writes.Guards != want.writes.Guards {
		t.Errorf("write path:\n got %+v\nwant %+v", got.writes, want.writes)
	}
	if !slices.Equal(got.tallies, want.tallies) || !maps.Equal(got.events, want.events) || !slices.Equal(got.reactions, want.reactions) ||
		!slices.Equal(got.notRecords, want.notRecords) {
		t.Errorf("stream parts:\n got %v %v %v %v\nwant %v %v %v %v", got.tallies, got.events, got.reactions, got.notRecords,
			want.tallies, want.events, want.reactions, want.notRecords)
	}
	if !slices.Equal(got.noHistory, want.noHistory) || !reflect.DeepEqual(got.vocabulary, want.vocabulary) {
		t.Errorf("history and labels:\n got %v %+v\nwant %v %+v", got.noHistory, got.vocabulary, want.noHistory, want.vocabulary)
	}
	if !slices.Equal(got.jobs, want.jobs) {
		t.Errorf("jobs:\n got %+v\nwant %+v", got.jobs, want.jobs)
	}
	if len(streamOnly.jobs) != 0 {
		t.Errorf("the stream's registry has jobs: %+v", streamOnly.jobs)
	}
	if len(want.writes.Rules) < 10 || len(want.tallies) == 0 || len(want.reactions) == 0 || len(want.jobs) == 0 {
		t.Fatalf("the full registry looks empty: %+v", want)
	}
}

// openCore is the base on a fresh embedded store, closed at the test's end.
func openCore(t *testing.T) *core.Core {
	t.Helper()
	st, cfg := boltAndConfig(t)
	c, err := core.Open(t.Context(), cfg, nil, core.Adapters{Store: st}, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// fullRegistry is a base with every module registered as app.Open does.
func fullRegistry(t *testing.T) (*core.Core, *module.Registry) {
	t.Helper()
	full := openCore(t)
	reg := full.Registry()
	if err := reg.Add(app.Modules(full.Deps(), full.Accounts, nil, nil)...); err != nil {
		t.Fatal(err)
	}
	reg.RegisterCoreJobs()
	return full, reg
}

// klassWiring is what a registry holds for the writes of one klass: what
// they pass (rules, effects, every klass's guards, the sort key) and how
// they are noted and followed (tallies, timeline events, reactions, the
// record count, history, labels).
type klassWiring struct {
	Rules, Effects, Guards int
	SortKey                bool
	Tallies, Reactions     []string
	Events                 int
	NotRecord, NoHistory   bool
	Words                  module.KlassWords
}

func klassWiringOf(d *docs.Service, r *module.Registry, klass string) klassWiring {
	w := wiringOf(d, r)
	o := r.StreamOptions()
	kw := klassWiring{Rules: w.writes.Rules[klass], Effects: w.writes.Effects[klass], Guards: w.writes.Guards,
		SortKey: slices.Contains(w.writes.SortKeys, klass), Events: w.events[klass],
		NotRecord: slices.Contains(w.notRecords, klass), NoHistory: slices.Contains(w.noHistory, klass), Words: w.vocabulary.Klasses[klass]}
	for _, t := range o.Tallies {
		if slices.Contains(t.Klasses, klass) {
			kw.Tallies = append(kw.Tallies, t.Name)
		}
	}
	for _, re := range o.Reactions {
		if slices.Contains(re.Klasses, klass) {
			kw.Reactions = append(kw.Reactions, re.Name)
		}
	}
	return kw
}

// TestDavPartsCoverTheDrive: the WebDAV server registers only the write
// paths a drive file's write reaches (shared/app/davparts), so it links
// no other module. A file written over WebDAV must still pass everything
// the API's registry has for the drive's klass — every rule and effect,
// every guard of every klass, the sort key — and be noted with the same
// tallies, timeline events and labels. A module that adds any of these
// for the drive's klass, or a guard, fails here until davparts registers
// it.
func TestDavPartsCoverTheDrive(t *testing.T) {
	full, reg := fullRegistry(t)
	want := klassWiringOf(full.Docs, reg, drive.Klass)

	c := openCore(t)
	r := c.Registry()
	davparts.Register(c, r)
	got := klassWiringOf(c.Docs, r, drive.Klass)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the drive's klass over WebDAV:\n got %+v\nwant %+v", got, want)
	}
	if want.Rules == 0 || want.Effects == 0 || want.Guards == 0 || len(want.Tallies) == 0 || want.Events == 0 {
		t.Fatalf("the full registry has little for the drive's klass: %+v", want)
	}
}

// TestPartsNoteTheirWrites: on DynamoDB every write must carry the change
// stream's notes (its history entry and counter change), or the stream
// refuses to fold the log. The worker and the WebDAV server write without
// the API's wiring, so theirs must set the notes too.
func TestPartsNoteTheirWrites(t *testing.T) {
	_, client := ddblocal.Start(t)
	cfg, err := config.Load(nil, func(string) string { return "" }, config.Local)
	if err != nil {
		t.Fatal(err)
	}
	for name, wire := range map[string]func(st store.Store) (*core.Core, error){
		"worker": func(st store.Store) (*core.Core, error) {
			c, _, err := parts.Jobs(t.Context(), cfg, nil, core.Adapters{Store: st})
			return c, err
		},
		"webdav": func(st store.Store) (*core.Core, error) {
			c, _, err := davparts.Drive(t.Context(), cfg, nil, core.Adapters{Store: st})
			return c, err
		},
	} {
		t.Run(name, func(t *testing.T) {
			table := ddblocal.TableName(t)
			if err := dynamo.CreateTable(t.Context(), client, table); err != nil {
				t.Fatal(err)
			}
			st := dynamo.New(client, table)
			c, err := wire(st)
			if err != nil {
				t.Fatal(err)
			}
			const db = "acc-0123456789abcdef0123456789abcdef"
			if err := c.Store.CreateDB(t.Context(), db); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Store.Put(t.Context(), db, store.Doc{ID: "cus-1", Klass: "Customer", Body: []byte(`{"klass":"Customer","name":"Ana"}`)}); err != nil {
				t.Fatal(err)
			}
			entries, err := st.ReadLog(t.Context(), db, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) == 0 {
				t.Fatal("no log entries")
			}
			for _, e := range entries {
				if !e.Noted {
					t.Errorf("the write at seq %d has no notes", e.Seq)
				}
			}
		})
	}
}

// TestPartsRefusePhoneNumbers: the functions wired on parts are given no
// phone rules, so they link no numbering metadata (TestFunctionLinks). A
// write there that needs phone numbers read — a customer's phones — is
// refused with phonerules.ErrNoRules and writes nothing, rather than
// storing the numbers as typed; a customer without phones is written.
func TestPartsRefusePhoneNumbers(t *testing.T) {
	ctx := t.Context()
	st, cfg := boltAndConfig(t)
	c, _, err := parts.Stream(ctx, cfg, nil, core.Adapters{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.Auth.Register(ctx, auth.Registration{Email: "ana@example.com", Password: "password1"}); err != nil {
		t.Fatal(err)
	}
	sess, err := c.Auth.Login(ctx, auth.LoginInput{Name: "ana@example.com", Password: "password1"})
	if err != nil {
		t.Fatal(err)
	}
	ana := func() *access.Principal {
		p, err := c.Auth.SessionPrincipal(ctx, sess.Secret)
		if err != nil || p == nil {
			t.Fatalf("session: %v", err)
		}
		return p
	}
	acc, err := c.Accounts.CreateGroup(ctx, ana(), accounts.NewGroup{Name: "Oficina"})
	if err != nil {
		t.Fatal(err)
	}
	db := acc.ID
	before, err := st.DBInfo(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Docs.Save(ctx, ana(), db, ids.New("cus"), "", map[string]any{"klass": "Customer", "name": "Ana",
		"phones": []any{map[string]any{"number": "(212) 555-0100", "main": true}}})
	if !errors.Is(err, phonerules.ErrNoRules) {
		t.Fatalf("a customer's phones: %v, want ErrNoRules", err)
	}
	if after, err := st.DBInfo(ctx, db); err != nil || after.UpdateSeq != before.UpdateSeq || after.DocCount != before.DocCount {
		t.Errorf("the Group's db changed: %+v → %+v (%v)", before, after, err)
	}
	if _, err := c.Docs.Save(ctx, ana(), db, ids.New("cus"), "", map[string]any{"klass": "Customer", "name": "Bia"}); err != nil {
		t.Errorf("a customer without phones: %v", err)
	}
}

// TestPartsSystemDBs: the WebDAV server makes the system databases at its
// start, as the api does; the stream function, whose reactions write only
// Groups' databases, does not read for them at a cold start, nor does the
// worker, which makes them before its first event
// (TestWorkerPreparesOnFirstEvent).
func TestPartsSystemDBs(t *testing.T) {
	for _, tc := range []struct {
		name string
		wire func(cfg config.Config, st store.Store) (*core.Core, error)
		made bool
	}{
		{"stream", func(cfg config.Config, st store.Store) (*core.Core, error) {
			c, _, err := parts.Stream(t.Context(), cfg, nil, core.Adapters{Store: st})
			return c, err
		}, false},
		{"worker", func(cfg config.Config, st store.Store) (*core.Core, error) {
			c, _, err := parts.Jobs(t.Context(), cfg, nil, core.Adapters{Store: st})
			return c, err
		}, false},
		{"webdav", func(cfg config.Config, st store.Store) (*core.Core, error) {
			c, _, err := davparts.Drive(t.Context(), cfg, nil, core.Adapters{Store: st})
			return c, err
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, cfg := boltAndConfig(t)
			c, err := tc.wire(cfg, st)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for _, db := range []string{ids.UsersDB, ids.AccountsDB, ids.PricesDB} {
				_, err := st.DBInfo(t.Context(), db)
				if made := err == nil; made != tc.made || (!made && !errors.Is(err, store.ErrDBNotFound)) {
					t.Errorf("%s after the %s's start: %v, want made %v", db, tc.name, err, tc.made)
				}
			}
		})
	}
}

// TestWorkerPreparesOnFirstEvent: the worker's wiring reads nothing at a
// cold start; Work.Prepare, which its handler runs before each event,
// makes the system databases and seeds the plan prices on a fresh store,
// on both stores. After it every job's round runs on that fresh store,
// with no Group and then with one, as it did when the databases were made
// at the start; a second Prepare changes nothing.
func TestWorkerPreparesOnFirstEvent(t *testing.T) {
	_, client := ddblocal.Start(t)
	for name, fresh := range map[string]func(t *testing.T) store.Store{
		"bolt": func(t *testing.T) store.Store { st, _ := boltAndConfig(t); return st },
		"dynamo": func(t *testing.T) store.Store {
			table := ddblocal.TableName(t)
			if err := dynamo.CreateTable(t.Context(), client, table); err != nil {
				t.Fatal(err)
			}
			return dynamo.New(client, table)
		},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			st := fresh(t)
			_, cfg := boltAndConfig(t)
			c, work, err := parts.Jobs(ctx, cfg, nil, core.Adapters{Store: st})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			systemDBs := []string{ids.UsersDB, ids.AccountsDB, ids.PricesDB}
			for _, db := range systemDBs {
				if _, err := st.DBInfo(ctx, db); !errors.Is(err, store.ErrDBNotFound) {
					t.Fatalf("%s before the first event: %v, want none", db, err)
				}
			}
			for range 2 {
				if err := work.Prepare(ctx); err != nil {
					t.Fatal(err)
				}
			}
			for _, db := range systemDBs {
				if _, err := st.DBInfo(ctx, db); err != nil {
					t.Errorf("%s after Prepare: %v", db, err)
				}
			}
			prices, err := st.DBInfo(ctx, ids.PricesDB)
			if err != nil || prices.DocCount == 0 {
				t.Fatalf("plan prices after Prepare: %+v %v", prices, err)
			}
			runAll := func(when string) {
				for _, j := range work.Jobs {
					if err := j.Run(ctx, module.JobEvent{Job: j.Name, Time: time.Now().UTC()}); err != nil {
						t.Errorf("%s, %s: %v", j.Name, when, err)
					}
				}
			}
			runAll("no Group")
			if _, err := c.Auth.Register(ctx, auth.Registration{Email: "ana@example.com", Password: "password1"}); err != nil {
				t.Fatal(err)
			}
			sess, err := c.Auth.Login(ctx, auth.LoginInput{Name: "ana@example.com", Password: "password1"})
			if err != nil {
				t.Fatal(err)
			}
			p, err := c.Auth.SessionPrincipal(ctx, sess.Secret)
			if err != nil || p == nil {
				t.Fatalf("session: %v", err)
			}
			if _, err := c.Accounts.CreateGroup(ctx, p, accounts.NewGroup{Name: "Oficina"}); err != nil {
				t.Fatal(err)
			}
			runAll("one Group")
			if again, err := st.DBInfo(ctx, ids.PricesDB); err != nil || again.UpdateSeq != prices.UpdateSeq {
				t.Errorf("prices changed after the first Prepare: %+v → %+v (%v)", prices, again, err)
			}
		})
	}
}
