package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// recordEvent writes the change feed entry for a change, inside the
// transaction that made the change. data is the record after the change
// (see newEvent).
func recordEvent(ctx context.Context, db queryer, businessID, recordType, action, recordID string, data any) error {
	return recordEvents(ctx, db, businessID, []newEvent{{recordType: recordType, action: action, recordID: recordID, data: data}})
}

// newEvent is an event to write. Its data is the record after the
// change, encoded as a stored document is (practiced.MarshalDoc), so an
// event carries the very bytes GET answers for the record; a
// practiced.Doc is such a document already and is written as it is.
type newEvent struct {
	recordType, action, recordID string
	data                         any
}

// eventData returns the text of an event's data.
func eventData(data any) (string, error) {
	if d, ok := data.(practiced.Doc); ok {
		return string(d), nil
	}
	return practiced.MarshalDocText(data)
}

// recordEvents writes the change feed entries of several changes made
// in one transaction, in one statement for each thousand, in the order
// given.
//
// Each event's place in the feed, seq, is the business's largest plus
// one. On SQLite, whose writes are one transaction at a time, the events
// carry their numbers as they are inserted: a group's transaction reads
// the business's largest once and then counts on from the numbers it
// gave (writerTx). Every event is written here, so none goes without a
// number (migration 0032 dropped the trigger that gave one to an event
// written without). PostgreSQL numbers them at commit.
func recordEvents(ctx context.Context, db queryer, businessID string, events []newEvent) error {
	if len(events) == 0 {
		return nil
	}
	const per = 1000
	now := tsv(practiced.Now())
	var last int64 = -1
	writer := writerOf(db)
	if writer != nil {
		var known bool
		if last, known = writer.lastSeq[businessID]; !known {
			if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events WHERE business_id = $1`, businessID).Scan(&last); err != nil {
				return fmt.Errorf("event: %w", err)
			}
		}
	}
	numbered := writer != nil
	for start := 0; start < len(events); start += per {
		chunk := events[start:min(start+per, len(events))]
		vals := make([]any, 0, len(chunk)*eventWriteCols(numbered))
		for _, e := range chunk {
			data, err := eventData(e.data)
			if err != nil {
				return fmt.Errorf("event: %w", err)
			}
			vals = append(vals, businessID, tid.New(practiced.PrefixEvent), e.recordType+"."+e.action, e.recordType, e.recordID, data, now)
			if numbered {
				last++
				vals = append(vals, last)
			}
		}
		if _, err := db.ExecContext(ctx, eventInsert(len(chunk), numbered), vals...); err != nil {
			return fmt.Errorf("event: %w", err)
		}
		if numbered {
			writer.lastSeq[businessID] = last
			writer.wrote = true
		}
	}
	for _, e := range events {
		noteEvent(db, businessID, e.recordType, e.action, e.recordID)
	}
	return nil
}

// eventInsertCols are the columns recordEvents writes, and seq after
// them on the writer, which numbers the events it writes.
const eventInsertCols = `business_id, id, type, record_type, record_id, data, created_at`

// eventWriteCols is how many values an event's row has.
func eventWriteCols(numbered bool) int {
	if numbered {
		return eventInsertColCount + 1
	}
	return eventInsertColCount
}

var eventInsertColCount = strings.Count(eventInsertCols, ",") + 1

// eventInsertOne is the INSERT of one numbered event, the writer's
// usual one, made once.
var eventInsertOne = eventInsertRows(1, true)

// eventInsert is the INSERT of n events, numbered by the writer, whose
// statements take "?" placeholders, or numbered at commit (PostgreSQL).
func eventInsert(n int, numbered bool) string {
	if n == 1 && numbered {
		return eventInsertOne
	}
	return eventInsertRows(n, numbered)
}

func eventInsertRows(n int, numbered bool) string {
	cols := eventInsertCols
	if numbered {
		cols += ", seq"
	}
	return `INSERT INTO events (` + cols + `) VALUES ` + valuesText(n, eventWriteCols(numbered), numbered)
}

const eventCols = `id, type, record_type, record_id, data, created_at`

func scanEvent(r rowScanner) (practiced.Event, error) {
	var e practiced.Event
	var data string
	err := r.Scan(&e.ID, &e.Type, &e.RecordType, &e.RecordID, &data, timeScan{&e.CreatedAt})
	e.Data = json.RawMessage(data)
	return e, err
}

// ListEvents returns a page of the business's events in feed order, the
// order of seq (migration 0016). Cursors and After name events by id.
func (s *Store) ListEvents(ctx context.Context, businessID string, f practiced.EventFilter, p practiced.PageRequest) ([]practiced.Event, practiced.PageInfo, error) {
	q := newListQuery(businessID, eventCols, "events", "business_id", "id")
	q.keyCol = "seq"
	q.keyOf = func(id string) string { return "(SELECT seq FROM events WHERE business_id = $1 AND id = " + id + ")" }
	if f.After != "" {
		var seq int64
		err := s.r.QueryRowContext(ctx, `SELECT seq FROM events WHERE business_id = $1 AND id = $2`, businessID, f.After).Scan(&seq)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, practiced.PageInfo{}, practiced.Invalid("after", "does not exist")
		} else if err != nil {
			return nil, practiced.PageInfo{}, fmt.Errorf("events after %s: %w", f.After, err)
		}
		q.filter("seq > " + q.args.add(seq))
	}
	if len(f.Types) > 0 {
		q.filter("type IN " + q.args.in(f.Types))
	}
	if f.RecordType != "" {
		q.filter("record_type = " + q.args.add(f.RecordType))
	}
	if f.RecordID != "" {
		q.filter("record_id = " + q.args.add(f.RecordID))
	}
	if f.Since != nil {
		q.filter("created_at >= " + q.args.add(ts(*f.Since)))
	}
	return list(ctx, s.r, q, p, scanEvent, func(e *practiced.Event) string { return e.ID })
}

// GetEvent returns one event of the business.
func (s *Store) GetEvent(ctx context.Context, businessID, id string) (practiced.Event, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+eventCols+` FROM events WHERE business_id = $1 AND id = $2`, businessID, id)
	e, err := scanEvent(row)
	if errors.Is(err, sql.ErrNoRows) {
		return e, practiced.NotFound(practiced.KindEvent.Name)
	}
	return e, err
}
