package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	practiced "github.com/practiced/practiced"
)

// Seed inserts a batch of records in one transaction, without events.
func (s *Store) Seed(ctx context.Context, businessID string, d practiced.SeedData) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		ins := inserter{ctx: ctx, tx: tx, biz: businessID}
		for i := range d.Locations {
			ins.row("locations", locationCols, nil, locationValues(&d.Locations[i]))
		}
		for i := range d.Services {
			v := &d.Services[i]
			ins.row("services", serviceCols, nil, serviceValues(v))
			for _, l := range v.LocationIDs {
				ins.row("service_locations", "service_id, location_id", nil, []any{v.ID, l})
			}
		}
		for i := range d.Practitioners {
			p := &d.Practitioners[i]
			ins.row("practitioners", practitionerCols, nil, practitionerValues(p))
			for _, l := range p.LocationIDs {
				ins.row("practitioner_locations", "practitioner_id, location_id", nil, []any{p.ID, l})
			}
			for _, sv := range p.ServiceIDs {
				ins.row("practitioner_services", "practitioner_id, service_id", nil, []any{p.ID, sv})
			}
		}
		for table, rows := range map[string][]practiced.Named{
			"tags": d.Tags, "referral_types": d.ReferralTypes,
			"cancellation_reasons": d.CancellationReasons, "busy_time_types": d.BusyTimeTypes,
		} {
			for i := range rows {
				n := &rows[i]
				ins.row(table, namedCols, nil, []any{n.ID, n.Name, n.Color, tsv(n.CreatedAt), tsv(n.UpdatedAt), nullTs(n.ArchivedAt)})
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
				[]any{t.ID, t.Name, t.Color, t.CompletionMessage, t.PrefillClientFields, t.OverrideClientFields, jsonText(t.Content), tsv(t.CreatedAt), tsv(t.UpdatedAt), nullTs(t.ArchivedAt)})
		}
		for i := range d.Forms {
			ins.row("forms", formCols, nil, formValues(&d.Forms[i]))
		}
		for i := range d.BusyTimes {
			ins.row("busy_times", busyTimeCols, nil, busyTimeValues(&d.BusyTimes[i]))
		}
		return ins.close()
	})
}

const namedCols = `id, name, color, created_at, updated_at, archived_at`

// inserter prepares one INSERT per table and keeps the first error, so a
// long batch reads as a list of rows.
type inserter struct {
	ctx   context.Context
	tx    *sql.Tx
	biz   string
	stmts map[string]*sql.Stmt
	err   error
}

func (in *inserter) row(table, cols string, extra []string, vals []any) {
	if in.err != nil {
		return
	}
	if in.stmts == nil {
		in.stmts = map[string]*sql.Stmt{}
	}
	stmt := in.stmts[table]
	if stmt == nil {
		stmt, in.err = in.tx.PrepareContext(in.ctx, insertSQL(table, cols, extra...))
		if in.err != nil {
			return
		}
		in.stmts[table] = stmt
	}
	if _, err := stmt.ExecContext(in.ctx, append([]any{in.biz}, vals...)...); err != nil {
		in.err = fmt.Errorf("seed %s: %w", table, translate(err))
	}
}

func (in *inserter) close() error {
	for _, s := range in.stmts {
		s.Close()
	}
	return in.err
}
