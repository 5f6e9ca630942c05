package sqlstore

import (
	"context"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// busyPlaceTime is when busyPlace's records were made.
var busyPlaceTime = practiced.NewTime(time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC))

// busyPlace makes a business with one location and one practitioner who
// works there, for busy times.
func busyPlace(t testing.TB, st *Store) (practiced.Business, practiced.Location, practiced.Practitioner) {
	t.Helper()
	ctx := context.Background()
	biz, err := st.CreateBusiness(ctx, "Busy")
	if err != nil {
		t.Fatal(err)
	}
	now := busyPlaceTime
	loc := practiced.Location{ID: tid.New("loc"), Name: "Sydney", Timezone: "Australia/Sydney", CreatedAt: now, UpdatedAt: now}
	pra := practiced.Practitioner{ID: tid.New("pra"), FirstName: "Alice", LastName: "Nguyen", LocationIDs: []string{loc.ID}, CreatedAt: now, UpdatedAt: now}
	if err := st.Seed(ctx, biz.ID, practiced.SeedData{Locations: []practiced.Location{loc}, Practitioners: []practiced.Practitioner{pra}}); err != nil {
		t.Fatal(err)
	}
	return biz, loc, pra
}

// busyOn returns a busy time of busyPlace's practitioner, from 9:00 to
// 10:00 UTC day days after busyPlaceTime, of series repeat (nil: none).
func busyOn(loc practiced.Location, pra practiced.Practitioner, day int, repeat *string) practiced.BusyTime {
	start := busyPlaceTime.Add(time.Duration(day)*24*time.Hour + 9*time.Hour)
	return practiced.BusyTime{ID: tid.New(practiced.PrefixBusyTime), LocationID: loc.ID, PractitionerID: pra.ID,
		StartsAt: practiced.NewTime(start), EndsAt: practiced.NewTime(start.Add(time.Hour)), RepeatID: repeat,
		CreatedAt: busyPlaceTime, UpdatedAt: busyPlaceTime}
}

// seriesIndexEntries returns how many entries SQLite's index of busy
// times by series holds, as ANALYZE counts them.
func seriesIndexEntries(t *testing.T, st *Store) string {
	t.Helper()
	if _, err := st.w.ExecContext(t.Context(), `ANALYZE busy_times`); err != nil {
		t.Fatal(err)
	}
	var stat string
	if err := st.r.QueryRowContext(t.Context(), `SELECT stat FROM sqlite_stat1 WHERE idx = 'busy_times_repeat'`).Scan(&stat); err != nil {
		t.Fatal(err)
	}
	entries, _, _ := strings.Cut(stat, " ")
	return entries
}

// eventTriggers returns how many triggers SQLite's events table has.
func eventTriggers(t *testing.T, st *Store) int {
	t.Helper()
	var n int
	if err := st.r.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The index of busy times by series holds the busy times of a series
// only, and the read of a series goes through it on both stores.
func TestBusyTimeSeriesIndexHoldsSeriesOnly(t *testing.T) {
	for name, st := range aptEventStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			biz, loc, pra := busyPlace(t, st)
			series := tid.New(practiced.PrefixRepeat)
			bts := []practiced.BusyTime{busyOn(loc, pra, 0, &series), busyOn(loc, pra, 7, &series), busyOn(loc, pra, 14, &series),
				busyOn(loc, pra, 1, nil), busyOn(loc, pra, 2, nil)}
			if _, err := st.CreateBusyTimes(ctx, biz.ID, bts, false); err != nil {
				t.Fatal(err)
			}

			// Changing the series from its second busy time on moves the
			// second and the third, and nothing else.
			changed, err := st.UpdateBusyTimes(ctx, biz.ID, bts[1].ID, true, func(_ practiced.BusyTime, b *practiced.BusyTime) error {
				b.StartsAt = practiced.NewTime(b.StartsAt.Add(time.Hour))
				b.EndsAt = practiced.NewTime(b.EndsAt.Add(time.Hour))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, b := range changed {
				ids = append(ids, b.ID)
			}
			if want := []string{bts[1].ID, bts[2].ID}; strings.Join(ids, " ") != strings.Join(want, " ") {
				t.Errorf("changed %v, want %v", ids, want)
			}

			args := []any{biz.ID, series, tsv(bts[0].StartsAt), bts[0].ID}
			var plan string
			if name == "sqlite" {
				if entries := seriesIndexEntries(t, st); entries != "3" {
					t.Errorf("busy_times_repeat holds %s entries, want the series' 3", entries)
				}
				plan = planText(t, st.r, `EXPLAIN QUERY PLAN SELECT id`+seriesFrom, args...)
			} else {
				conn, err := st.r.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				// Five rows are read fastest from the table itself: with that
				// way closed, the plan shows whether the index can serve.
				if _, err := conn.ExecContext(ctx, `SET enable_seqscan = off`); err != nil {
					t.Fatal(err)
				}
				plan = planText(t, conn, `EXPLAIN (FORMAT TEXT, COSTS OFF) SELECT id`+seriesFrom, args...)
				conn.ExecContext(ctx, `RESET enable_seqscan`)
			}
			if !strings.Contains(plan, "busy_times_repeat") {
				t.Errorf("a series is read without its index:\n%s", plan)
			}
		})
	}
}

// planText runs the EXPLAIN statement q and returns its plan: the last
// column of each row, a line each (SQLite's detail, PostgreSQL's line).
func planText(t *testing.T, db queryer, q string, args ...any) string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	dest := make([]any, len(cols))
	for i := range dest {
		dest[i] = new(any)
	}
	var line, plan string
	dest[len(dest)-1] = &line
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		plan += line + "\n"
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}
