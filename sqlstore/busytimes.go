package sqlstore

import (
	"context"
	"database/sql"
	"slices"

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
		nullStr(b.RoomID), nullStr(b.VehicleID), jsonText(b.ResourceIDs), nullStr(b.RepeatID), tsv(b.CreatedAt), tsv(b.UpdatedAt), nullTs(b.ArchivedAt)}
}

// ListBusyTimes returns a page of the business's busy times.
func (s *Store) ListBusyTimes(ctx context.Context, businessID string, f practiced.BusyTimeFilter, p practiced.PageRequest) ([]practiced.BusyTime, practiced.PageInfo, error) {
	q := newListQuery(businessID, busyTimeCols, "busy_times", "business_id", "id")
	q.common("", f.ListFilter)
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
	return list(ctx, s.r, q, p, scanBusyTime)
}

// CreateBusyTimes creates busy times in one transaction.
func (s *Store) CreateBusyTimes(ctx context.Context, businessID string, bts []practiced.BusyTime, skipConflicts bool) ([]practiced.BusyTime, error) {
	var created []practiced.BusyTime
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		created = created[:0]
		stmt, err := tx.PrepareContext(ctx, insertSQL("busy_times", busyTimeCols))
		if err != nil {
			return err
		}
		defer stmt.Close()
		if skipConflicts {
			for _, pra := range practitionersOf(bts) {
				if err := s.lockPractitioner(ctx, tx, businessID, pra); err != nil {
					return err
				}
			}
		}
		for _, b := range bts {
			if skipConflicts {
				busy, err := practitionerBusy(ctx, tx, businessID, b.PractitionerID, b.StartsAt.Time, b.EndsAt.Time)
				if err != nil {
					return err
				}
				if busy {
					continue
				}
			}
			finishBusyTime(&b)
			if _, err := stmt.ExecContext(ctx, append([]any{businessID}, busyTimeValues(&b)...)...); err != nil {
				return translate(err)
			}
			if err := recordEvent(ctx, tx, businessID, "busy_time", "created", b.ID, b); err != nil {
				return err
			}
			created = append(created, b)
		}
		if len(created) == 0 {
			return practiced.Invalid("starts_at", "conflicts with the practitioner's appointments or busy times at every occurrence")
		}
		return nil
	})
	return created, err
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
