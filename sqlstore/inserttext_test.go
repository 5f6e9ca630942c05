package sqlstore

import "testing"

func TestValuesText(t *testing.T) {
	for _, c := range []struct {
		rows, cols int
		positional bool
		want       string
	}{
		{1, 1, true, "(?)"},
		{1, 3, true, "(?, ?, ?)"},
		{2, 2, true, "(?, ?), (?, ?)"},
		{1, 3, false, "($1, $2, $3)"},
		{3, 2, false, "($1, $2), ($3, $4), ($5, $6)"},
		{2, 6, false, "($1, $2, $3, $4, $5, $6), ($7, $8, $9, $10, $11, $12)"},
	} {
		if got := valuesText(c.rows, c.cols, c.positional); got != c.want {
			t.Errorf("valuesText(%d, %d, %v) = %q, want %q", c.rows, c.cols, c.positional, got, c.want)
		}
	}
}

// The INSERT of one row, made once, is the one made for any number.
func TestInsertTextOfOneRowIsMadeOnce(t *testing.T) {
	const cols = "business_id, id, location_id, practitioner_id, starts_at, ends_at, name, note, busy_time_type_id, " +
		"room_id, vehicle_id, resource_ids, repeat_id, created_at, updated_at, archived_at, doc"
	for _, c := range []struct {
		n          int
		positional bool
		want       string
	}{
		{1, true, "INSERT INTO busy_times (" + cols + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"},
		{2, true, "INSERT INTO busy_times (" + cols + ") VALUES " + valuesText(2, 17, true)},
		{1, false, "INSERT INTO busy_times (" + cols + ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"},
		{2, false, "INSERT INTO busy_times (" + cols + ") VALUES " + valuesText(2, 17, false)},
	} {
		if got := busyTimes.insertText(c.n, c.positional); got != c.want {
			t.Errorf("insertText(%d, %v) =\n%s\nwant\n%s", c.n, c.positional, got, c.want)
		}
	}
	if got, again := busyTimes.insertText(1, true), busyTimes.insertText(1, true); got != again || got != busyTimes.insertRows(1, true) {
		t.Errorf("insertText(1, true) = %q, then %q; insertRows(1, true) = %q", got, again, busyTimes.insertRows(1, true))
	}
	if got, want := eventInsert(1, true), "INSERT INTO events (business_id, id, type, record_type, record_id, data, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"; got != want {
		t.Errorf("eventInsert(1, true) = %q, want %q", got, want)
	}
	if got, want := eventInsert(2, false), "INSERT INTO events (business_id, id, type, record_type, record_id, data, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7), ($8, $9, $10, $11, $12, $13, $14)"; got != want {
		t.Errorf("eventInsert(2, false) = %q, want %q", got, want)
	}
}

func TestUpdateTextIsMadeOnce(t *testing.T) {
	want := "UPDATE busy_times SET location_id = $2, practitioner_id = $3, starts_at = $4, ends_at = $5, name = $6, note = $7, " +
		"busy_time_type_id = $8, room_id = $9, vehicle_id = $10, resource_ids = $11, repeat_id = $12, created_at = $13, " +
		"updated_at = $14, archived_at = $15, doc = $16 WHERE business_id = $1 AND id = $17"
	if got := busyTimes.updateText(); got != want {
		t.Errorf("updateText() =\n%s\nwant\n%s", got, want)
	}
}
