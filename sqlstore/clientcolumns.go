package sqlstore

import practiced "github.com/practiced/practiced"

// clientsDocumentOnly is the migration after which a client's row keeps
// no columns but those clientCols names: its document is the record.
const clientsDocumentOnly = 30

// clientsByColumns reads clients from the columns their rows kept before
// migration 0030, and is used only to migrate a database from before
// migration 0013, whose clients have no document yet: Migrate gives them
// one from these columns before 0030 drops the columns.
var clientsByColumns = &table[practiced.Client]{
	kind: practiced.KindClient,
	cols: `id, title, first_name, last_name, preferred_name, profession, email,
	date_of_birth, sex, gender_identity, pronouns, privacy_policy_consent, marketing_consent, no_messages,
	consent_method, medications, allergies, intolerances, emergency_contact_id,
	emergency_contact_relationship, invoice_contact_id, notes, alert, referral_type_id,
	referral_description, referred_by_id, phone_number, phone_numbers, address, tag_ids,
	ndis_details, related_clients, linked_contacts, created_at, updated_at, archived_at`,
	scan:      scanClientColumns,
	normalize: normalizeClient,
	docs:      true,
	stamp:     clients.stamp,
}

func scanClientColumns(r rowScanner) (practiced.Client, error) {
	var c practiced.Client
	err := r.Scan(&c.ID, &c.Title, &c.FirstName, &c.LastName, &c.PreferredName, &c.Profession, &c.Email,
		dateScan{&c.DateOfBirth}, &c.Sex, &c.GenderIdentity, &c.Pronouns, &c.PrivacyPolicyConsent, &c.MarketingConsent, &c.NoMessages,
		&c.ConsentMethod, jsonScan{&c.Medications}, jsonScan{&c.Allergies}, jsonScan{&c.Intolerances}, &c.EmergencyContactID,
		&c.EmergencyContactRelationship, &c.InvoiceContactID, &c.Notes, &c.Alert, &c.ReferralTypeID,
		&c.ReferralDescription, &c.ReferredByID, &c.PhoneNumber, jsonScan{&c.PhoneNumbers}, jsonScan{&c.Address}, jsonScan{&c.TagIDs},
		jsonScan{&c.NDISDetails}, jsonScan{&c.RelatedClients}, jsonScan{&c.LinkedContacts},
		timeScan{&c.CreatedAt}, timeScan{&c.UpdatedAt}, nullTimeScan{&c.ArchivedAt})
	normalizeClient(&c)
	return c, err
}
