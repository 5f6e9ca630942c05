// Package demo loads a realistic demo clinic group into a store: three
// Australian allied-health clinics in three time zones, their
// practitioners, services and contacts, a client list of any size, and two
// months of appointments, busy times and intake forms around a given now.
//
// A load is a pure function of its seed, client count and now, ids
// included, so demos, screenshots and tests are reproducible. Its records
// are consistent the way real ones are: appointments fall in open hours and
// never overlap, statuses fit the time, and every reference names an
// earlier record of the same business.
package demo

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	_ "time/tzdata" // the clinics' zones must load on hosts without zoneinfo, too

	practiced "github.com/practiced/practiced"
)

// BusinessName is the demo clinic group's name, for the business the demo
// is loaded into: each location is named after it and its suburb
// ("Coastline Allied Health — Surry Hills"), so the pages, which show the
// business's name beside a location's, name one clinic.
const BusinessName = "Coastline Allied Health"

// DefaultClients is the number of clients loaded when Options.Clients is 0.
const DefaultClients = 250

// clientBatch is how many clients go into one batch of SeedAll: large
// enough that handing over a batch costs nothing, small enough to keep
// memory flat and Progress lively.
const clientBatch = 10_000

// writers is how many transactions write clients at once, on a store
// that can run more than one: on PostgreSQL each goes through its own
// connection and server process.
const writers = 2

// Options says what to load.
type Options struct {
	// Seed fixes every random choice: the same Seed, Clients and Now give
	// the same records. Ids and form links differ on every load (see
	// IDKey).
	Seed int64
	// IDKey, 16 bytes, replaces the key a load's ids are derived with,
	// which is otherwise drawn from crypto/rand for each load: the same
	// Seed and IDKey give the same ids. Tests that compare two loads set
	// it; nothing else should, as ids made with a known key can be
	// guessed.
	IDKey []byte
	// Clients is the number of clients; 0 means DefaultClients.
	Clients int
	// Now is the moment the data is built around: appointments run from
	// four weeks before it to four weeks after, and every record was
	// created before it. The zero time means time.Now().
	Now time.Time
	// Progress, if set, is called after each batch of clients is written,
	// with the number written so far and the total. The clients are
	// stored when their transaction commits, after the last call.
	Progress func(done, total int)
}

// Summary counts the records a load created.
type Summary struct {
	Locations, Practitioners, Services, Clients, Contacts, Appointments, AppointmentClients, BusyTimes, Forms, FormTemplates, Tags, ReferralTypes, CancellationReasons, BusyTimeTypes, Cases, ClientPackages int
}

// Load creates the demo records in the business, which should be empty.
// Every load makes new ids, so one database can hold the demo clinic any
// number of times, each in its own business.
//
// Records go in as several transactions: the clinic set-up, the clients
// (loadClients), and then the appointments and everything tied to them.
// An error leaves what the transactions before it stored in place.
func Load(ctx context.Context, st practiced.Store, businessID string, opt Options) (Summary, error) {
	if opt.Clients < 0 {
		return Summary{}, errors.New("demo: the number of clients must not be negative")
	}
	if opt.Clients == 0 {
		opt.Clients = DefaultClients
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	b, err := newBuilder(opt.Seed, practiced.NewTime(now).Time, opt.Clients, opt.IDKey)
	if err != nil {
		return Summary{}, err
	}
	// Everything is generated before anything is stored, so a bug in the
	// generators cannot leave a half-loaded business behind.
	b.buildActivity()
	if err := st.Seed(ctx, businessID, b.setupData()); err != nil {
		return Summary{}, fmt.Errorf("demo: store the clinic set-up: %w", err)
	}
	if err := b.loadClients(ctx, st, businessID, opt.Progress); err != nil {
		return Summary{}, err
	}
	if err := st.Seed(ctx, businessID, b.activityData()); err != nil {
		return Summary{}, fmt.Errorf("demo: store the appointments: %w", err)
	}
	return b.summary(), nil
}

// builder holds a load's records as they are made. Set-up records and
// activity each draw from their own random stream, and clients from one
// seeded per client, so each part is reproducible on its own.
type builder struct {
	ids      *idKey
	seed     int64
	now      time.Time
	last     time.Time // the last second anything happened: records are made before now
	nClients int
	// The window appointments and busy times fall in.
	winStart, winEnd time.Time

	locs                []location
	services            []service
	pracs               []practitioner
	tags                []practiced.Named
	referralTypes       []practiced.Named
	cancellationReasons []practiced.Named
	busyTimeTypes       []practiced.Named
	contacts            []practiced.Contact
	templates           []template
	clients             *clientGen

	blocked      [][]span       // per practitioner: what appointments must keep clear of
	clientBooked map[int][]span // per client index: their appointments
	busyTimes    []practiced.BusyTime
	bookings     []booking
	attends      []attendance
	cases        []practiced.Case
	packages     []practiced.ClientPackage
	forms        []practiced.Form
}

func newBuilder(seed int64, now time.Time, clients int, key []byte) (*builder, error) {
	ids, err := newIDKey(key)
	if err != nil {
		return nil, err
	}
	b := &builder{
		ids:      ids,
		seed:     seed,
		now:      now,
		last:     now.Add(-time.Second),
		nClients: clients,
		winStart: now.Add(-28 * days),
		winEnd:   now.Add(28 * days),
	}
	r := newRand(seed, streamSetup)
	if err := b.buildLocations(r); err != nil {
		return nil, err
	}
	b.buildServices(r)
	b.buildPractitioners(r)
	b.buildNamed(r)
	b.buildContacts(r)
	b.buildTemplates(r)
	b.clients = newClientGen(seed, clients, now, b.clientRefs(), b.ids)
	b.blocked = make([][]span, len(b.pracs))
	b.clientBooked = map[int][]span{}
	return b, nil
}

// clientRefs collects what clients may refer to.
func (b *builder) clientRefs() *clientRefs {
	refs := &clientRefs{}
	for _, c := range b.contacts {
		if c.ArchivedAt != nil {
			continue
		}
		ref := contactRef{c.ID, c.CreatedAt.Time}
		switch c.Type {
		case "emergency":
			refs.emergency = append(refs.emergency, ref)
		case "third_party_payer":
			refs.payers = append(refs.payers, ref)
		case "plan_manager":
			refs.planManagers = append(refs.planManagers, ref)
		case "referrer", "other":
			refs.linkable = append(refs.linkable, ref)
		}
	}
	for _, t := range b.tags {
		refs.tags = append(refs.tags, t.ID)
	}
	for _, t := range b.referralTypes {
		refs.referralTypes = append(refs.referralTypes, t.ID)
	}
	return refs
}

// buildActivity makes the busy times, appointments, cases, packages and
// forms, in that order: appointments keep clear of busy times, and the
// rest hang off appointments.
func (b *builder) buildActivity() {
	r := newRand(b.seed, streamActivity)
	b.buildBusyTimes(r)
	b.buildAppointments(r)
	b.buildCasesAndPackages(r)
	b.buildForms(r)
}

func (b *builder) setupData() practiced.SeedData {
	d := practiced.SeedData{
		Tags:                b.tags,
		ReferralTypes:       b.referralTypes,
		CancellationReasons: b.cancellationReasons,
		BusyTimeTypes:       b.busyTimeTypes,
		Contacts:            b.contacts,
	}
	for _, l := range b.locs {
		d.Locations = append(d.Locations, l.Location)
	}
	for _, s := range b.services {
		d.Services = append(d.Services, s.Service)
	}
	for _, p := range b.pracs {
		d.Practitioners = append(d.Practitioners, p.Practitioner)
	}
	for _, t := range b.templates {
		d.FormTemplates = append(d.FormTemplates, t.FormTemplate)
	}
	return d
}

func (b *builder) activityData() practiced.SeedData {
	d := practiced.SeedData{
		Cases:          b.cases,
		ClientPackages: b.packages,
		Forms:          b.forms,
		BusyTimes:      b.busyTimes,
	}
	for _, bk := range b.bookings {
		d.Appointments = append(d.Appointments, bk.Appointment)
	}
	for _, a := range b.attends {
		d.AppointmentClients = append(d.AppointmentClients, a.AppointmentClient)
	}
	return d
}

func (b *builder) summary() Summary {
	return Summary{
		Locations:           len(b.locs),
		Practitioners:       len(b.pracs),
		Services:            len(b.services),
		Clients:             b.nClients,
		Contacts:            len(b.contacts),
		Appointments:        len(b.bookings),
		AppointmentClients:  len(b.attends),
		BusyTimes:           len(b.busyTimes),
		Forms:               len(b.forms),
		FormTemplates:       len(b.templates),
		Tags:                len(b.tags),
		ReferralTypes:       len(b.referralTypes),
		CancellationReasons: len(b.cancellationReasons),
		BusyTimeTypes:       len(b.busyTimeTypes),
		Cases:               len(b.cases),
		ClientPackages:      len(b.packages),
	}
}

// loadClients stores the clients in batches of clientBatch, in writers
// transactions at once, each taking the next batch as it finishes one;
// on a store that writes one transaction at a time (SQLite), all of them
// in one transaction, which lets the store build the clients' indexes
// after their rows. A goroutine makes the next batch while the store
// writes the current one, so generation costs no wall time on a machine
// with two cores. A transaction that fails stops the others, unless they
// have committed: they commit only once every batch is written, so only a
// failing commit, or the load cancelled between two commits, can leave
// one transaction's clients without the other's.
func (b *builder) loadClients(ctx context.Context, st practiced.Store, businessID string, progress func(done, total int)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []practiced.Client, 1)
	gen := b.clients.clone()
	go func() {
		defer close(batches)
		for start := 0; start < b.nClients; start += clientBatch {
			// In the order they were created, which is their ids' order,
			// as a clinic adds them: a page of the list is then a few
			// neighbouring pages of the table, as in a real clinic's
			// database, rather than a page of the table for each client.
			batch := make([]practiced.Client, min(clientBatch, b.nClients-start))
			for i := range batch {
				gen.fill(start+i, &batch[i])
			}
			select {
			case batches <- batch:
			case <-ctx.Done():
				return
			}
		}
	}()
	n := writers
	if ow, ok := st.(interface{ OneWriter() bool }); ok && ow.OneWriter() {
		n = 1
	}
	var mu sync.Mutex
	var firstErr error
	done := 0
	// A transaction that has taken batches and finds them all taken waits
	// until every other that has asked for batches finds that too, or the
	// load is cancelled, before it commits. One that has not asked yet (it
	// may wait for a connection a store has only one of) holds nothing up.
	holding := 0
	allTaken := make(chan struct{})
	closeAllTaken := sync.OnceFunc(func() { close(allTaken) })
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			holds := false // this transaction counts in holding
			release := func() {
				mu.Lock()
				defer mu.Unlock()
				if holds {
					holds = false
					if holding--; holding == 0 {
						// Once every batch is taken, or after a failure,
						// when the load is cancelled anyway.
						closeAllTaken()
					}
				}
			}
			written := 0 // the clients of the batch the store took last
			err := st.SeedAll(ctx, businessID, func() (practiced.SeedData, bool, error) {
				if written > 0 {
					mu.Lock()
					done += written
					if progress != nil {
						progress(done, b.nClients)
					}
					mu.Unlock()
				}
				if written == 0 {
					// Counted before it can take a batch, so that no
					// other finds every batch taken and commits while
					// this one still holds one unwritten.
					mu.Lock()
					holds = true
					holding++
					mu.Unlock()
				}
				batch, ok := <-batches
				if !ok {
					release()
					if written > 0 {
						select {
						case <-allTaken:
						case <-ctx.Done():
						}
					}
				}
				if err := ctx.Err(); err != nil {
					return practiced.SeedData{}, false, err
				}
				written = len(batch)
				return practiced.SeedData{Clients: batch}, ok, nil
			})
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = fmt.Errorf("demo: store clients: %w", err)
					cancel()
				}
				mu.Unlock()
			}
			release()
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if done != b.nClients {
		return fmt.Errorf("demo: the store took %d clients of %d", done, b.nClients)
	}
	return nil
}
