package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	practiced "github.com/practiced/practiced"
)

const busyTimeCols = `id, location_id, practitioner_id, starts_at, ends_at, name, note, busy_time_type_id,
	room_id, vehicle_id, resource_ids, repeat_id, created_at, updated_at, archived_at`

func scanBusyTime(r rowScanner) (practiced.BusyTime, error) {
	var b practiced.BusyTime
	err := r.Scan(&b.ID, &b.LocationID, &b.PractitionerID, timeScan{&b.StartsAt}, timeScan{&b.EndsAt}, &b.Name, &b.Note, &b.BusyTimeTypeID,
		&b.RoomID, &b.VehicleID, jsonScan{&b.ResourceIDs}, &b.RepeatID, timeScan{&b.CreatedAt}, timeScan{&b.UpdatedAt}, nullTimeScan{&b.ArchivedAt})
	finishBusyTime(&b)
	return b, err
}

// finishBusyTime fills the fields derived from the stored ones.
func finishBusyTime(b *practiced.BusyTime) {
	b.Duration = int(b.EndsAt.Sub(b.StartsAt.Time).Minutes())
	if b.ResourceIDs == nil {
		b.ResourceIDs = []string{}
	}
}

func busyTimeValues(b *practiced.BusyTime) []any {
	return []any{b.ID, b.LocationID, b.PractitionerID, tsv(b.StartsAt), tsv(b.EndsAt), nullStr(b.Name), nullStr(b.Note), nullStr(b.BusyTimeTypeID),
		nullStr(b.RoomID), nullStr(b.VehicleID), jsonList(b.ResourceIDs), nullStr(b.RepeatID), tsv(b.CreatedAt), tsv(b.UpdatedAt), nullTs(b.ArchivedAt)}
}

var busyTimes = &table[practiced.BusyTime]{
	kind: practiced.KindBusyTime,
	cols: busyTimeCols, scan: scanBusyTime, values: busyTimeValues,
	normalize:      finishBusyTime,
	docs:           true,
	insertsCounted: true,
	stamp: func(b *practiced.BusyTime) *stamps {
		return &stamps{ID: &b.ID, UpdatedAt: &b.UpdatedAt, ArchivedAt: &b.ArchivedAt}
	},
}

// ListBusyTimes returns a page of the business's busy times.
func (s *Store) ListBusyTimes(ctx context.Context, businessID string, f practiced.BusyTimeFilter, p practiced.PageRequest) ([]practiced.BusyTime, practiced.PageInfo, error) {
	return busyTimes.list(ctx, s.r, businessID, busyTimeQuery(businessID, f), p)
}

// ListBusyTimeDocs returns the stored documents of the page ListBusyTimes returns.
func (s *Store) ListBusyTimeDocs(ctx context.Context, businessID string, f practiced.BusyTimeFilter, p practiced.PageRequest) ([]practiced.Doc, practiced.PageInfo, error) {
	return busyTimes.listDocs(ctx, s.r, s.dialect, busyTimeQuery(businessID, f), p)
}

// busyTimeQuery is the query of a list of busy times.
func busyTimeQuery(businessID string, f practiced.BusyTimeFilter) *listQuery {
	q := busyTimes.query(businessID, f.ListFilter)
	if f.PractitionerID != "" {
		q.filter("practitioner_id = " + q.args.add(f.PractitionerID))
	}
	if f.LocationID != "" {
		q.filter("location_id = " + q.args.add(f.LocationID))
	}
	if f.StartsBefore != nil {
		q.filter("starts_at < " + q.args.add(ts(*f.StartsBefore)))
	}
	if f.EndsAfter != nil {
		q.filter("ends_at > " + q.args.add(ts(*f.EndsAfter)))
	}
	return q
}

// GetBusyTime returns one busy time of the business.
func (s *Store) GetBusyTime(ctx context.Context, businessID, id string) (practiced.BusyTime, error) {
	return busyTimes.get(ctx, s.r, businessID, id, "")
}

// CreateBusyTimes creates busy times in one transaction.
func (s *Store) CreateBusyTimes(ctx context.Context, businessID string, bts []practiced.BusyTime, skipConflicts bool) ([]practiced.BusyTime, error) {
	var created []practiced.BusyTime
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// Busy times and their events: no key, list of clients, location
		// or practitioner changes.
		leavesKeptReads(tx)
		created = created[:0]
		if !skipConflicts {
			created = append(created, bts...)
			return busyTimes.insertAll(ctx, tx, businessID, created)
		}
		// Each practitioner's time is read once, for the whole span of
		// the occurrences; an occurrence kept blocks the later ones.
		for _, pra := range practitionersOf(bts) {
			if err := s.lockPractitioner(ctx, tx, businessID, pra); err != nil {
				return err
			}
			var mine []practiced.BusyTime
			from, to := bts[0].StartsAt.Time, bts[0].EndsAt.Time
			for _, b := range bts {
				if b.PractitionerID != pra {
					continue
				}
				mine = append(mine, b)
				if b.StartsAt.Before(from) {
					from = b.StartsAt.Time
				}
				if b.EndsAt.After(to) {
					to = b.EndsAt.Time
				}
			}
			blocked, err := blockedSpans(ctx, tx, businessID, pra, from, to)
			if err != nil {
				return err
			}
			for _, b := range mine {
				if !overlapsAny(blocked, b.StartsAt.Time, b.EndsAt.Time) {
					blocked = append(blocked, practiced.Span{Start: b.StartsAt.Time, End: b.EndsAt.Time})
					created = append(created, b)
				}
			}
		}
		if len(created) == 0 {
			return practiced.Invalid("starts_at", "conflicts with the practitioner's appointments or busy times at every occurrence")
		}
		return busyTimes.insertAll(ctx, tx, businessID, created)
	})
	return created, err
}

// overlapsAny reports whether any of spans overlaps [start, end).
func overlapsAny(spans []practiced.Span, start, end time.Time) bool {
	for _, b := range spans {
		if b.Start.Before(end) && b.End.After(start) {
			return true
		}
	}
	return false
}

// blockedSpans reads, in one query, the busy times and the appointments
// that are neither cancelled nor archived of the practitioner
// overlapping [from, to): what a new busy time may not overlap. As in
// scheduleIn, appointments last at most a day, which bounds the index
// range from below as well as above.
func blockedSpans(ctx context.Context, tx *sql.Tx, businessID, practitionerID string, from, to time.Time) ([]practiced.Span, error) {
	rows, err := tx.QueryContext(ctx, `SELECT starts_at, ends_at FROM busy_times WHERE business_id = $1 AND practitioner_id = $2
			AND archived_at IS NULL AND starts_at < $3 AND ends_at > $4
		UNION ALL SELECT a.starts_at, a.ends_at FROM appointments a WHERE a.business_id = $1 AND a.practitioner_id = $2
			AND `+appointmentActive("a")+` AND a.starts_at < $3 AND a.ends_at > $4 AND a.starts_at > $5`,
		businessID, practitionerID, ts(to), ts(from), ts(from.Add(-maxAppointmentLength)))
	if err != nil {
		return nil, fmt.Errorf("conflicts: %w", err)
	}
	defer rows.Close()
	var out []practiced.Span
	for rows.Next() {
		var sp practiced.Span
		if err := rows.Scan(instantScan{&sp.Start}, instantScan{&sp.End}); err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}

// BusyTimePlace implements practiced.BusyTimeStore.
func (s *Store) BusyTimePlace(ctx context.Context, businessID, locationID, practitionerID string) (practiced.BusyTimePlace, error) {
	return readKept(s, s.places, placeKey{businessID, locationID, practitionerID}, func() (practiced.BusyTimePlace, error) {
		var p practiced.BusyTimePlace
		var zone sql.NullString
		err := s.r.QueryRowContext(ctx, `SELECT
			(SELECT timezone FROM locations WHERE business_id = $1 AND id = $2),
			EXISTS (SELECT 1 FROM practitioners WHERE business_id = $1 AND id = $3),
			EXISTS (SELECT 1 FROM practitioner_locations WHERE business_id = $1 AND practitioner_id = $3 AND location_id = $2)`,
			businessID, locationID, practitionerID).Scan(&zone, &p.PractitionerFound, &p.WorksThere)
		if err != nil {
			return p, fmt.Errorf("busy time place: %w", err)
		}
		p.LocationFound, p.Timezone = zone.Valid, zone.String
		return p, nil
	})
}

// practitionersOf returns the distinct practitioners of bts, sorted, so
// transactions lock them in one order and cannot deadlock.
func practitionersOf(bts []practiced.BusyTime) []string {
	var ids []string
	for _, b := range bts {
		ids = append(ids, b.PractitionerID)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// UpdateBusyTimes changes a busy time, and with following the rest of its
// series from it on, in one transaction.
func (s *Store) UpdateBusyTimes(ctx context.Context, businessID, id string, following bool, change func(first practiced.BusyTime, b *practiced.BusyTime) error) ([]practiced.BusyTime, error) {
	var changed []practiced.BusyTime
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		recs, err := s.lockSeries(ctx, tx, businessID, id, following)
		if err != nil {
			return err
		}
		first := recs[0]
		for i := range recs {
			b := &recs[i]
			before := b.UpdatedAt
			if err := change(first, b); err != nil {
				return err
			}
			if b.UpdatedAt == before {
				b.UpdatedAt = practiced.Now()
			}
			doc, err := busyTimes.write(ctx, tx, businessID, b)
			if err != nil {
				return err
			}
			if err := recordEvent(ctx, tx, businessID, busyTimes.kind.Type, "updated", b.ID, doc); err != nil {
				return err
			}
		}
		changed = recs
		return nil
	})
	return changed, err
}

// DeleteBusyTimes deletes a busy time, and with following the rest of its
// series from it on, in one transaction.
func (s *Store) DeleteBusyTimes(ctx context.Context, businessID, id string, following bool) ([]practiced.BusyTime, error) {
	var deleted []practiced.BusyTime
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		recs, err := s.lockSeries(ctx, tx, businessID, id, following)
		if err != nil {
			return err
		}
		var a args
		biz := a.add(businessID)
		if _, err := tx.ExecContext(ctx, `DELETE FROM busy_times WHERE business_id = `+biz+` AND id IN `+a.in(idsOf(recs)), a.vals...); err != nil {
			return fmt.Errorf("delete busy times: %w", err)
		}
		for i := range recs {
			if err := recordEvent(ctx, tx, businessID, busyTimes.kind.Type, "deleted", recs[i].ID, recs[i]); err != nil {
				return err
			}
		}
		deleted = recs
		return nil
	})
	return deleted, err
}

// ArchiveBusyTime archives or unarchives one busy time.
func (s *Store) ArchiveBusyTime(ctx context.Context, businessID, id string, archived bool, now practiced.Time) (practiced.BusyTime, error) {
	return busyTimes.archive(ctx, s, businessID, id, archived, now)
}

// lockSeries reads, under lock, the busy time id and, with following,
// every other busy time of its series that starts at or after it: id
// first, the others in start order. Every row is locked before any is
// written, so two changes of one series wait for each other instead of
// each holding a part of it.
func (s *Store) lockSeries(ctx context.Context, tx *sql.Tx, businessID, id string, following bool) ([]practiced.BusyTime, error) {
	first, err := busyTimes.get(ctx, tx, businessID, id, s.dialect.lockRow)
	if err != nil {
		return nil, err
	}
	recs := []practiced.BusyTime{first}
	if !following || first.RepeatID == nil {
		return recs, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+busyTimeCols+seriesFrom+s.dialect.lockRow, businessID, *first.RepeatID, tsv(first.StartsAt), first.ID)
	if err != nil {
		return nil, fmt.Errorf("series: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		b, err := scanBusyTime(rows)
		if err != nil {
			return nil, fmt.Errorf("series: %w", err)
		}
		recs = append(recs, b)
	}
	return recs, rows.Err()
}

// seriesFrom reads the busy times of series $2 that start at or after
// $3, other than $4, in start order. The index busy_times_repeat holds the busy
// times of a series only (migration 0031); repeat_id = $2 implies that
// it is not null, so both stores read it.
const seriesFrom = ` FROM busy_times
	WHERE business_id = $1 AND repeat_id = $2 AND starts_at >= $3 AND id <> $4
	ORDER BY starts_at, id`

func idsOf(bts []practiced.BusyTime) []string {
	ids := make([]string, len(bts))
	for i, b := range bts {
		ids[i] = b.ID
	}
	return ids
}
