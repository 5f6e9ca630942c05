package sqlstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
	"github.com/practiced/practiced/tid"
)

// newKey stores a key of the business and returns its token's hash.
func newKey(t *testing.T, st *sqlstore.Store, biz string, rate int) string {
	t.Helper()
	id := tid.New(practiced.PrefixAPIKey)
	hash := practiced.HashToken("pk_test_" + id)
	if err := st.CreateAPIKey(context.Background(), practiced.APIKey{ID: id, BusinessID: biz, TokenHash: hash,
		RatePerMinute: rate, CreatedAt: practiced.NewTime(testfix.Now)}); err != nil {
		t.Fatal(err)
	}
	return hash
}

// Reads of keys that arrive while a query is under way are answered
// together by the next query, each with its own key, its business's
// number, or its refusal.
func TestKeyReadsQueuedTogetherEachGetTheirOwnPostgres(t *testing.T) {
	st := testfix.PostgresStore(t)
	ctx := context.Background()
	a := testfix.NewClinic(t, st, "Keys A")
	b, err := st.CreateBusiness(ctx, "Keys B")
	if err != nil {
		t.Fatal(err)
	}
	hashes := []string{newKey(t, st, a.Business.ID, 5), newKey(t, st, b.ID, 9), practiced.HashToken("pk_test_unknown")}
	revoked := tid.New(practiced.PrefixAPIKey)
	hashes = append(hashes, practiced.HashToken("pk_test_"+revoked))
	if err := st.CreateAPIKey(ctx, practiced.APIKey{ID: revoked, BusinessID: b.ID, TokenHash: hashes[3], CreatedAt: practiced.NewTime(testfix.Now)}); err != nil {
		t.Fatal(err)
	}
	if err := st.RevokeAPIKey(ctx, revoked); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		key     practiced.APIKey
		version int64
		code    string
	}
	read := func(hash string) answer {
		k, v, err := st.APIKeyAndClientsVersion(ctx, hash)
		return answer{k, v, practiced.ErrorCode(err)}
	}
	// Each read alone, one query each: what the queued reads must get.
	want := map[string]answer{}
	for _, h := range hashes {
		want[h] = read(h)
	}
	if want[hashes[0]].key.BusinessID != a.Business.ID || want[hashes[0]].version == 0 || want[hashes[1]].key.RatePerMinute != 9 ||
		want[hashes[2]].code != practiced.EUNAUTHORIZED || want[hashes[3]].code != practiced.EUNAUTHORIZED {
		t.Fatalf("single reads: %+v", want)
	}

	// The first query waits until 12 more reads have queued behind it.
	const queued = 12
	var mu sync.Mutex
	var sizes []int
	first := make(chan struct{})
	release := make(chan struct{})
	sqlstore.BeforeKeyQuery(st, func(n int) {
		mu.Lock()
		sizes = append(sizes, n)
		isFirst := len(sizes) == 1
		mu.Unlock()
		if isFirst {
			close(first)
			<-release
		}
	})
	got := make([]answer, queued+1)
	var wg sync.WaitGroup
	wg.Go(func() { got[0] = read(hashes[0]) })
	<-first
	for i := 1; i <= queued; i++ {
		wg.Go(func() { got[i] = read(hashes[i%len(hashes)]) })
	}
	for deadline := time.Now().Add(10 * time.Second); sqlstore.KeyReadsWaiting(st) < queued; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d reads queued after 10 s, want %d", sqlstore.KeyReadsWaiting(st), queued)
		}
	}
	close(release)
	wg.Wait()
	for i, g := range got {
		if w := want[hashes[i%len(hashes)]]; g != w {
			t.Errorf("read %d: %+v, want %+v", i, g, w)
		}
	}
	if len(sizes) != 2 || sizes[0] != 1 || sizes[1] != queued {
		t.Errorf("queries carried %v reads, want [1 %d]", sizes, queued)
	}
}

// A read of a key that begins after a write of the business's clients
// has been answered sees that write's number, however many reads are
// coalesced around it.
func TestKeyReadsSeeEveryAnsweredWritePostgres(t *testing.T) {
	st := testfix.PostgresStore(t)
	ctx := context.Background()
	c := testfix.NewClinic(t, st, "Fresh")
	hash := newKey(t, st, c.Business.ID, 0)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop)
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, _, err := st.APIKeyAndClientsVersion(ctx, hash); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for i := range 100 {
		now := practiced.NewTime(testfix.Now)
		cl := practiced.Client{ID: tid.New(practiced.PrefixClient), FirstName: "Fresh", LastName: "Reader",
			Medications: []practiced.Medication{}, Allergies: []practiced.Allergy{}, Intolerances: []string{},
			PhoneNumbers: []practiced.PhoneNumber{}, TagIDs: []string{}, RelatedClients: []practiced.RelatedClient{},
			LinkedContacts: []practiced.LinkedContact{}, CreatedAt: now, UpdatedAt: now}
		if err := st.CreateClient(ctx, c.Business.ID, &cl); err != nil {
			t.Fatal(err)
		}
		written, err := st.ClientsVersion(ctx, c.Business.ID)
		if err != nil {
			t.Fatal(err)
		}
		_, v, err := st.APIKeyAndClientsVersion(ctx, hash)
		if err != nil {
			t.Fatal(err)
		}
		if v < written {
			t.Fatalf("write %d: a read that began after it saw number %d, want at least %d", i, v, written)
		}
	}
}

// The leader of a query takes the reads that queue while it yields, so
// that the requests ready to run share its round trip.
func TestKeyReadsJoinTheLeaderWhileItYieldsPostgres(t *testing.T) {
	st := testfix.PostgresStore(t)
	ctx := context.Background()
	c := testfix.NewClinic(t, st, "Yield")
	hash := newKey(t, st, c.Business.ID, 0)
	const joining = 5
	var wg sync.WaitGroup
	errs := make(chan error, joining+1)
	read := func() {
		_, _, err := st.APIKeyAndClientsVersion(ctx, hash)
		errs <- err
	}
	var sizes []int
	var mu sync.Mutex
	sqlstore.BeforeKeyQuery(st, func(n int) {
		mu.Lock()
		sizes = append(sizes, n)
		mu.Unlock()
	})
	yielded := 0
	sqlstore.KeyReadYield(st, func() {
		yielded++
		if yielded > 1 {
			return
		}
		// The first leader's yield: more reads arrive meanwhile.
		for range joining {
			wg.Go(read)
		}
		for deadline := time.Now().Add(10 * time.Second); sqlstore.KeyReadsWaiting(st) < joining; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Errorf("%d reads queued after 10 s, want %d", sqlstore.KeyReadsWaiting(st), joining)
				return
			}
		}
	})
	wg.Go(read)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if len(sizes) != 1 || sizes[0] != joining+1 {
		t.Errorf("queries carried %v reads, want [%d]", sizes, joining+1)
	}
}
