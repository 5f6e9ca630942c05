package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	practiced "github.com/practiced/practiced"
)

// Seed inserts a batch of records in one transaction, without events.
// Rows go in multi-row INSERTs, table by table in dependency order.
func (s *Store) Seed(ctx context.Context, businessID string, d practiced.SeedData) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		ins := inserter{ctx: ctx, tx: tx, biz: businessID, positional: s.dialect.name == "sqlite"}
		for i := range d.Locations {
			ins.row("locations", locationCols, nil, locationValues(&d.Locations[i]))
		}
		for i := range d.Services {
			ins.row("services", serviceCols, nil, serviceValues(&d.Services[i]))
		}
		for _, v := range d.Services {
			for _, l := range v.LocationIDs {
				ins.row("service_locations", "service_id, location_id", nil, []any{v.ID, l})
			}
		}
		for i := range d.Practitioners {
			ins.row("practitioners", practitionerCols, nil, practitionerValues(&d.Practitioners[i]))
		}
		for _, p := range d.Practitioners {
			for _, l := range p.LocationIDs {
				ins.row("practitioner_locations", "practitioner_id, location_id", nil, []any{p.ID, l})
			}
		}
		for _, p := range d.Practitioners {
			for _, sv := range p.ServiceIDs {
				ins.row("practitioner_services", "practitioner_id, service_id", nil, []any{p.ID, sv})
			}
		}
		for _, t := range []struct {
			table string
			rows  []practiced.Named
		}{
			{"tags", d.Tags}, {"referral_types", d.ReferralTypes},
			{"cancellation_reasons", d.CancellationReasons}, {"busy_time_types", d.BusyTimeTypes},
		} {
			for i := range t.rows {
				n := &t.rows[i]
				ins.row(t.table, namedCols, nil, []any{n.ID, n.Name, n.Color, tsv(n.CreatedAt), tsv(n.UpdatedAt), nullTs(n.ArchivedAt)})
			}
		}
		for i := range d.Contacts {
			c := &d.Contacts[i]
			normalizeContact(c)
			ins.row("contacts", contactCols, []string{"search"}, append(contactValues(c), contactSearch(c)))
		}
		for i := range d.Clients {
			c := &d.Clients[i]
			normalizeClient(c)
			ins.row("clients", clientCols, []string{"search"}, append(clientValues(c), clientSearch(c)))
		}
		for i := range d.Cases {
			c := &d.Cases[i]
			ins.row("cases", "id, client_id, name, status, notes, created_at, updated_at, archived_at", nil,
				[]any{c.ID, c.ClientID, c.Name, c.Status, c.Notes, tsv(c.CreatedAt), tsv(c.UpdatedAt), nullTs(c.ArchivedAt)})
		}
		for i := range d.ClientPackages {
			c := &d.ClientPackages[i]
			ins.row("client_packages", "id, client_id, name, sessions_total, sessions_used, expires_on, created_at, updated_at, archived_at", nil,
				[]any{c.ID, c.ClientID, c.Name, c.SessionsTotal, c.SessionsUsed, nullStr(c.ExpiresOn), tsv(c.CreatedAt), tsv(c.UpdatedAt), nullTs(c.ArchivedAt)})
		}
		for i := range d.Appointments {
			ins.row("appointments", appointmentCols, nil, appointmentValues(&d.Appointments[i]))
		}
		for i := range d.AppointmentClients {
			ins.row("appointment_clients", appointmentClientCols, nil, appointmentClientValues(&d.AppointmentClients[i]))
		}
		for i := range d.FormTemplates {
			t := &d.FormTemplates[i]
			ins.row("form_templates", "id, name, color, completion_message, prefill_client_fields, override_client_fields, content, created_at, updated_at, archived_at", nil,
				[]any{t.ID, t.Name, t.Color, t.CompletionMessage, t.PrefillClientFields, t.OverrideClientFields, jsonText(practiced.NormalizeContent(t.Content)), tsv(t.CreatedAt), tsv(t.UpdatedAt), nullTs(t.ArchivedAt)})
		}
		for i := range d.Forms {
			ins.row("forms", formCols, nil, formValues(&d.Forms[i]))
		}
		for i := range d.BusyTimes {
			ins.row("busy_times", busyTimeCols, nil, busyTimeValues(&d.BusyTimes[i]))
		}
		return ins.flush()
	})
}

const namedCols = `id, name, color, created_at, updated_at, archived_at`

// maxParams bounds the parameters of one INSERT, below SQLite's limit of
// 32,766 and PostgreSQL's of 65,535.
const maxParams = 30000

// inserter collects the rows of one table and writes them in multi-row
// INSERTs, so a large batch costs few round trips. Rows of the next table
// start after the previous table's rows are written, so foreign keys
// always find what they refer to. It keeps the first error.
type inserter struct {
	ctx context.Context
	tx  *sql.Tx
	biz string
	// positional writes "?" placeholders instead of "$N": SQLite treats
	// "$N" as a named parameter and finds each by a linear search, which
	// makes a statement with thousands of them quadratic.
	positional bool
	table      string
	cols       []string
	vals       []any
	rows       int
	err        error
}

func (in *inserter) row(table, cols string, extra []string, vals []any) {
	if in.err != nil {
		return
	}
	if table != in.table {
		if in.err = in.flush(); in.err != nil {
			return
		}
		in.table = table
		in.cols = append(append([]string{"business_id"}, splitCols(cols)...), extra...)
	}
	in.vals = append(in.vals, in.biz)
	in.vals = append(in.vals, vals...)
	in.rows++
	if len(in.vals)+len(in.cols) > maxParams {
		in.err = in.flush()
	}
}

// flush writes the collected rows.
func (in *inserter) flush() error {
	if in.err != nil || in.rows == 0 {
		return in.err
	}
	var b strings.Builder
	b.WriteString("INSERT INTO " + in.table + " (" + strings.Join(in.cols, ", ") + ") VALUES ")
	n := 0
	for r := 0; r < in.rows; r++ {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for c := range in.cols {
			if c > 0 {
				b.WriteString(", ")
			}
			n++
			if in.positional {
				b.WriteByte('?')
			} else {
				b.WriteString("$" + strconv.Itoa(n))
			}
		}
		b.WriteByte(')')
	}
	if _, err := in.tx.ExecContext(in.ctx, b.String(), in.vals...); err != nil {
		return fmt.Errorf("seed %s: %w", in.table, translate(err))
	}
	in.vals, in.rows = in.vals[:0], 0
	return nil
}
