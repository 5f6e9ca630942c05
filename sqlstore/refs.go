package sqlstore

import (
	"context"
	"fmt"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

// tableByPrefix names the table of each kind of record an id can refer to.
var tableByPrefix = map[string]string{
	practiced.PrefixLocation:           "locations",
	practiced.PrefixPractitioner:       "practitioners",
	practiced.PrefixService:            "services",
	practiced.PrefixClient:             "clients",
	practiced.PrefixContact:            "contacts",
	practiced.PrefixTag:                "tags",
	practiced.PrefixReferralType:       "referral_types",
	practiced.PrefixCancellationReason: "cancellation_reasons",
	practiced.PrefixBusyTimeType:       "busy_time_types",
	practiced.PrefixCase:               "cases",
	practiced.PrefixClientPackage:      "client_packages",
	practiced.PrefixAppointment:        "appointments",
	practiced.PrefixAppointmentClient:  "appointment_clients",
	practiced.PrefixFormTemplate:       "form_templates",
	practiced.PrefixForm:               "forms",
	practiced.PrefixBusyTime:           "busy_times",
}

// MissingRefs returns the ids that name no record of the business.
func (s *Store) MissingRefs(ctx context.Context, businessID string, ids []string) ([]string, error) {
	byTable := map[string][]string{}
	var missing []string
	for _, id := range ids {
		table, ok := tableByPrefix[tid.Prefix(id)]
		if !ok {
			missing = append(missing, id)
			continue
		}
		byTable[table] = append(byTable[table], id)
	}
	for table, want := range byTable {
		var a args
		q := `SELECT id FROM ` + table + ` WHERE business_id = ` + a.add(businessID) + ` AND id IN ` + a.in(want)
		rows, err := s.r.QueryContext(ctx, q, a.vals...)
		if err != nil {
			return nil, fmt.Errorf("refs: %w", err)
		}
		found := map[string]bool{}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			found[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		for _, id := range want {
			if !found[id] {
				missing = append(missing, id)
			}
		}
	}
	return missing, nil
}
